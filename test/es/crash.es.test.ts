/**
 * Killing Elasticsearch in the middle of an ingest: after a restart the aliases still serve
 * the previous complete catalog, and the next ingest succeeds. This suite runs its own node
 * (another port, its own data folder) so the shared one is never disturbed.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { startElasticsearch, stopElasticsearch, workDir, type Instance } from '../../scripts/es.mjs';
import { DEFAULT_NAMES, getSkillById, ingestCatalog, SkillNotFoundError } from '../../src/emit/elasticsearch/index.ts';
import { aliasTargets, ES_URL, removeDirs, syntheticCatalog, testClient } from './helpers.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!ES_URL)('an ingest interrupted by a crash', () => {
  const dir = path.join(workDir(), `crash-test-${randomBytes(3).toString('hex')}`);
  let port: number;
  let node: Instance | undefined;
  let client: Client;
  const previous = syntheticCatalog(5, 3, 200, 'before');
  const next = syntheticCatalog(400, 10, 2000, 'after');

  beforeAll(async () => {
    port = await freePort();
    node = await startElasticsearch({ port, dir });
    client = testClient(node.url);
    await ingestCatalog(previous, { client });
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    if (node) await stopElasticsearch({ port, dir });
    await removeDirs(dir);
  }, 120_000);

  it('serves the previous catalog after a restart, and the next ingest succeeds', async () => {
    const before = {
      skills: await aliasTargets(client, DEFAULT_NAMES.skills),
      files: await aliasTargets(client, DEFAULT_NAMES.files),
    };
    let killed = false;
    const interrupted = ingestCatalog(next, {
      client,
      // Many small requests, one at a time, so there is a "middle" to kill it in.
      flushBytes: 200_000,
      concurrency: 1,
      onProgress: (done) => {
        if (!killed && done >= 500) {
          killed = true;
          process.kill(node!.pid!, 'SIGKILL');
        }
      },
    });
    // Said as what it is: the cluster went away mid-ingest, and the previous catalog is still served.
    await expect(interrupted).rejects.toThrow(
      /^lost Elasticsearch at http:\/\/127\.0\.0\.1:\d+ during the ingest \(.+\): its aliases still serve the previous catalog; ingest again once it is back$/,
    );
    expect(killed).toBe(true);

    await client.close();
    node = await startElasticsearch({ port, dir });
    expect(node.started).toBe(true);
    client = testClient(node.url);

    expect(await aliasTargets(client, DEFAULT_NAMES.skills)).toEqual(before.skills);
    expect(await aliasTargets(client, DEFAULT_NAMES.files)).toEqual(before.files);
    expect((await client.count({ index: DEFAULT_NAMES.skills })).count).toBe(5);
    expect((await client.count({ index: DEFAULT_NAMES.files })).count).toBe(15);
    const old = await getSkillById(client, 'before-00003');
    expect(Object.keys(old.files).sort()).toEqual(['SKILL.md', 'scripts/part-1.txt', 'scripts/part-2.txt']);
    await expect(getSkillById(client, 'after-00000')).rejects.toBeInstanceOf(SkillNotFoundError);

    // The same catalog again: nothing to write, but the crashed ingest's indexes are cleaned up.
    const unchanged = await ingestCatalog(previous, { client });
    expect(unchanged.changed).toBe(false);
    expect(unchanged.deleted.length).toBeGreaterThan(0);
    const left = Object.keys(await client.indices.get({ index: 'agent_skill*' })).sort();
    expect(left).toEqual([...before.skills, ...before.files].sort());

    const result = await ingestCatalog(next, { client });
    expect(result).toMatchObject({ changed: true, skills: 400, files: 4000 });
    expect((await client.count({ index: DEFAULT_NAMES.files })).count).toBe(4000);
    await expect(getSkillById(client, 'before-00003')).rejects.toBeInstanceOf(SkillNotFoundError);
    expect(Object.keys((await getSkillById(client, 'after-00399')).files)).toHaveLength(10);
    // Only the new catalog's indexes are left.
    const indexes = Object.keys(await client.indices.get({ index: 'agent_skill*' })).sort();
    expect(indexes).toEqual([result.indexes.files, result.indexes.skills].sort());
  }, 300_000);
});
