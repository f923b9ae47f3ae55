/**
 * `skillpress mcp --usage <Elasticsearch URL>` over stdio: events land in the usage index and
 * summarize from there. Then an Elasticsearch of the test's own (another port; the shared one is
 * never stopped) is stopped while the server answers tool calls: the calls keep answering, and
 * the events spooled meanwhile arrive once it is back.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, NODE, ROOT, fixtureFeed, type FixtureFeed } from '../mcp/helpers.ts';
import { deleteIndexesWithPrefix, ES_URL, prefixedNames, testClient, uniquePrefix } from '../es/helpers.ts';
import { loadCatalog } from '../../src/load/index.ts';
import { ingestCatalog } from '../../src/emit/elasticsearch/index.ts';
import { summarizeUsage, type Figures, type SkillUsage } from '../../src/usage/index.ts';
import { startElasticsearch, stopElasticsearch } from '../../scripts/es.mjs';

const OWN_PORT = 9237;
const OWN_DIR = path.join(ROOT, '.cache', 'elasticsearch', `node-${OWN_PORT}`);

async function spawnServer(tmp: FixtureFeed, url: string, index: string): Promise<Client> {
  const config = path.join(tmp.dir, `config-${index}`);
  await mkdir(config, { recursive: true });
  await writeFile(path.join(config, 'skillpress.json'), JSON.stringify({ analytics: { index } }));
  const transport = new StdioClientTransport({
    command: NODE,
    args: [CLI, 'mcp', '--feed', tmp.dist, '--usage', url, '--config', config],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: path.join(tmp.dir, 'cache') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'usage-es-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function count(url: string, index: string): Promise<number> {
  const res = await fetch(`${url}/${index}/_count`).catch(() => undefined);
  if (!res?.ok) return -1;
  return ((await res.json()) as { count: number }).count;
}

describe.skipIf(!ES_URL)('skillpress mcp --usage <Elasticsearch>', () => {
  let tmp: FixtureFeed;
  const index = `${uniquePrefix('usage')}agent_skill_usage`;
  beforeAll(async () => void (tmp = await fixtureFeed()));
  afterAll(async () => {
    await testClient().indices.delete({ index }, { ignore: [404] });
    await tmp?.remove();
  });

  test('loads and outcomes are indexed and summarized from the index', async () => {
    const client = await spawnServer(tmp, ES_URL, index);
    try {
      await client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing' } });
      await client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing' } });
      await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'pdf-processing', outcome: 'failure', stars: 2 },
      });
      // Sent in the background while the server keeps running (within a second or so of each event).
      await expect
        .poll(async () => (await fetch(`${ES_URL}/${index}/_refresh`, { method: 'POST' }), count(ES_URL, index)), {
          timeout: 60_000,
          interval: 500,
        })
        .toBe(3);
    } finally {
      await client.close();
    }
    const summary = await summarizeUsage([ES_URL], { index, minReports: 1 });
    expect(summary.skills['pdf-processing']).toMatchObject({
      usage_count: 2,
      outcomes: { failure: 1 },
      success_rate: 0,
      rating: 2,
    });
  });

  test('the figures reach the agent_skills document', async () => {
    const prefix = uniquePrefix('usage_docs');
    const names = prefixedNames(prefix);
    const client = testClient();
    try {
      const catalog = await loadCatalog(tmp.skills);
      const summary = await summarizeUsage([ES_URL], { index, minReports: 1 });
      const pdf = catalog.skills.find((s) => s.id === 'pdf-processing')!;
      const figures: Partial<SkillUsage> = { ...summary.skills['pdf-processing']! };
      delete figures.versions;
      pdf.usage = { usage_version: 1, registry: 'local', ...(figures as Figures) };
      await ingestCatalog(catalog, { client, names });
      const doc = await client.get<Record<string, unknown>>({ index: names.skills, id: 'pdf-processing' });
      expect(doc._source).toMatchObject({ usage_count: 2, success_rate: 0, rating: 2 });
    } finally {
      await deleteIndexesWithPrefix(client, prefix);
      await client.close();
    }
  });

  test('a source index that does not exist stops the summary, naming it', async () => {
    await expect(summarizeUsage([ES_URL], { index: `${index}_none` })).rejects.toThrow(/no index named/);
  });
});

describe.skipIf(!ES_URL)('Elasticsearch stopped while the server runs', () => {
  let tmp: FixtureFeed;
  const url = `http://127.0.0.1:${OWN_PORT}`;
  const index = 'agent_skill_usage';
  beforeAll(async () => {
    tmp = await fixtureFeed();
    await startElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
    // The node keeps its data between runs: start from no events.
    await fetch(`${url}/${index}`, { method: 'DELETE' });
  }, 240_000);
  afterAll(async () => {
    await stopElasticsearch({ port: OWN_PORT, dir: OWN_DIR }).catch(() => undefined);
    await tmp?.remove();
  }, 120_000);

  test('tool calls keep answering and the spooled events arrive after it is back', async () => {
    const client = await spawnServer(tmp, url, index);
    const calls = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await client.callTool({ name: 'view_skill', arguments: { name: 'trino-debug' } });
        expect(r.isError).toBeFalsy();
      }
    };
    try {
      await calls(5);
      await expect.poll(() => count(url, index), { timeout: 20_000, interval: 500 }).toBe(5);
      await stopElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
      await calls(20); // answered while nothing listens on the port
      await new Promise((r) => setTimeout(r, 1500)); // a send fails: the events go to the spool
      await startElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
      await calls(5);
      await expect
        .poll(async () => (await fetch(`${url}/${index}/_refresh`, { method: 'POST' }), count(url, index)), {
          timeout: 60_000,
          interval: 1000,
        })
        .toBe(30);
    } finally {
      await client.close();
    }
  }, 300_000);
});
