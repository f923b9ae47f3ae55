/**
 * A peer that cannot be reached for one build (refused, a timeout, a 5xx) keeps its skills: they
 * come from the copy of its feed last verified in the cache, marked unhealthy, as a SKILL.md URL's
 * does, with a warning naming the peer and the URL configured. A peer that answers something
 * broken (a schema failure) or nothing at all (404 everywhere) is left out as before, and so is a
 * peer never fetched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { sha256Hex } from '../../src/lib/hash.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog } from '../../src/model/skill.ts';
import { publish } from './helpers/feed.ts';
import { Cache, type UrlEntry } from '../../src/feed-reader/cache.ts';
import { BAD_PORTS, serveDir, type Handler, type TestServer } from './helpers/server.ts';
import { tempDir, writeSkills } from './helpers/skills.ts';

let tmp: string;
let dist: string;
let n = 0;
const empty: Catalog = { skills: [], problems: [] };
const first = new Date('2026-03-01T12:00:00.000Z');
const later = new Date('2026-03-02T12:00:00.000Z');

beforeAll(async () => {
  tmp = await tempDir('unreachable');
  await writeSkills(path.join(tmp, 'peer-skills'), [
    { name: 'pdf-tools', files: { 'scripts/extract.py': 'print("extract")\n' } },
    { name: 'csv-clean' },
  ]);
  dist = path.join(tmp, 'peer-dist');
  await publish(path.join(tmp, 'peer-skills'), dist, 'acme');
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const config = (url: string, federation: Record<string, unknown> = {}) =>
  SkillpressConfig.parse({
    registry: { name: 'home' },
    federation: { timeout_ms: 2_000, ...federation, peers: [{ name: 'acme', url }] },
  });

/** A first build that imports from the peer into a fresh cache, then `server` and the cache for the next one. */
async function importedOnce(): Promise<{ server: TestServer; cacheDir: string; before: Catalog }> {
  const server = await serveDir(dist);
  const cacheDir = path.join(tmp, `cache-${++n}`);
  const before = await federate(empty, config(server.url), { cacheDir, now: first });
  expect(before.skills.map((s) => s.id).sort()).toEqual(['csv-clean', 'pdf-tools']);
  expect(before.problems).toEqual([]);
  return { server, cacheDir, before };
}

const hang: Handler = () => {};
const unavailable: Handler = (_req, res) => void res.writeHead(503).end('down for maintenance');
const rateLimited: Handler = (_req, res) => void res.writeHead(429).end('slow down');

describe('a peer that cannot be reached for one build', () => {
  it('refused: its skills come from the cache, marked unhealthy, with a warning naming the peer and its URL', async () => {
    const { server, cacheDir, before } = await importedOnce();
    await server.close();
    const logs: string[] = [];
    const result = await federate(empty, config(server.url), { cacheDir, now: later, log: (l) => logs.push(l) });

    expect(result.skills.map((s) => s.id).sort()).toEqual(['csv-clean', 'pdf-tools']);
    for (const skill of result.skills) {
      const was = before.skills.find((s) => s.id === skill.id)!;
      expect(skill.digest).toBe(was.digest);
      expect(skill.files).toEqual(was.files);
      expect(skill.source).toEqual(was.source);
      expect(skill.health).toMatchObject({ status: 'unhealthy', checked_at: later.toISOString() });
      expect(skill.health.detail).toContain(first.toISOString());
    }
    expect(result.problems).toHaveLength(1);
    const warning = result.problems[0]!;
    expect(warning).toMatchObject({
      severity: 'warning',
      skill: 'peer:acme',
      file: 'index.json',
      rule: 'peer-network',
    });
    expect(warning.message).toContain(`peer "acme", index.json: ${server.url} could not be reached`);
    expect(warning.message).toContain(
      `2 skill(s) are served from the copy of its feed verified on ${first.toISOString()}`,
    );
    expect(logs.join('\n')).toMatch(/^peer acme: 2 skill\(s\) served from the cache .*1 request\(s\)/m);
  });

  it.each([
    ['answers 503', unavailable, 'peer-http-status', 'HTTP 503'],
    ['answers 429 (too many requests)', rateLimited, 'peer-http-status', 'HTTP 429'],
    ['never answers', hang, 'peer-timeout', 'no complete answer within 300 ms'],
  ])('%s: the same', async (_what, handler, rule, why) => {
    const { server, cacheDir } = await importedOnce();
    try {
      server.override('/feed/v1/index.json', handler);
      const result = await federate(empty, config(server.url, { timeout_ms: 300 }), { cacheDir, now: later });
      expect(result.skills.map((s) => s.id).sort()).toEqual(['csv-clean', 'pdf-tools']);
      expect(result.skills.every((s) => s.health.status === 'unhealthy')).toBe(true);
      expect(result.problems.map((p) => p.rule)).toEqual([rule]);
      expect(result.problems[0]!.message).toContain(`${server.url} could not be reached`);
      expect(result.problems[0]!.message).toContain(why);
    } finally {
      await server.close();
    }
  });

  it('names the last time the peer confirmed its feed (a 304), not only the day it was first downloaded', async () => {
    const { server, cacheDir } = await importedOnce();
    const again = await federate(empty, config(server.url), { cacheDir, now: later });
    expect(again.problems).toEqual([]);
    await server.close();
    const down = await federate(empty, config(server.url), { cacheDir, now: new Date('2026-03-03T12:00:00.000Z') });
    expect(down.problems[0]!.message).toContain(`served from the copy of its feed verified on ${later.toISOString()}`);
    expect(down.skills[0]!.health.detail).toContain(later.toISOString());
    expect(down.skills[0]!.health.detail).not.toContain(first.toISOString());
  });

  it('a skill whose files are not all in the cache is reported on its own; the others are served', async () => {
    const { server, cacheDir } = await importedOnce();
    await server.close();
    const script = await readFile(path.join(dist, 'feed', 'v1', 'files', 'pdf-tools', 'scripts', 'extract.py'));
    const sha = sha256Hex(script);
    await rm(path.join(cacheDir, 'blobs', sha.slice(0, 2), sha));

    const result = await federate(empty, config(server.url), { cacheDir, now: later });
    expect(result.skills.map((s) => s.id)).toEqual(['csv-clean']);
    const missing = result.problems.find((p) => p.file === 'skills/pdf-tools')!;
    expect(missing).toMatchObject({ severity: 'warning', skill: 'peer:acme', rule: 'peer-network' });
    expect(missing.message).toContain('files/pdf-tools/scripts/extract.py: not in the cache');
    expect(result.problems.find((p) => p.file === 'index.json')!.message).toContain('1 skill(s) are served');
  });

  it('never fetched before: a warning and no skills, as before', async () => {
    const server = await serveDir(dist);
    await server.close();
    const result = await federate(empty, config(server.url), { cacheDir: path.join(tmp, `cache-${++n}`), now: later });
    expect(result.skills).toEqual([]);
    expect(result.problems.map((p) => p.rule)).toEqual(['peer-network']);
    expect(result.problems[0]!.message).not.toContain('served');
  });
});

describe('a peer that answers, but not with a feed', () => {
  // The peer is the authority on what it publishes: an answer, even a broken one, is not an outage
  // the cache should bridge. Serving the last copy would hide a moved or withdrawn feed for good.
  it.each([
    ['an index.json that fails the schema', 'peer-invalid-feed', (_req, res) => void res.end('{"feed_version": "2"}')],
    ['404 at every place tried (moved or withdrawn)', 'peer-http-status', (_req, res) => void res.writeHead(404).end()],
  ] as Array<[string, string, Handler]>)('%s: left out with a warning, as before', async (_what, rule, handler) => {
    const { server, cacheDir } = await importedOnce();
    try {
      server.override('/feed/v1/index.json', handler);
      const result = await federate(empty, config(server.url), { cacheDir, now: later });
      expect(result.skills).toEqual([]);
      expect(result.problems.map((p) => p.rule)).toEqual([rule]);
      expect(result.problems[0]!.message).not.toContain('served');
    } finally {
      await server.close();
    }
  });
});

describe('a peer on a port Node\'s fetch refuses (6666, 6000, 10080: the "bad ports")', () => {
  it('is a configuration problem, said as one: not an outage bridged from the cache', async () => {
    const peer = await serveDir(dist, BAD_PORTS); // listening, but never reached
    try {
      // A copy of its feed in the cache, as if it had once been read at this URL.
      const { server, cacheDir } = await importedOnce();
      await server.close();
      const cache = new Cache(cacheDir);
      for (const file of await readdir(path.join(cacheDir, 'http'))) {
        const { tag: _, ...entry } = JSON.parse(await readFile(path.join(cacheDir, 'http', file), 'utf8')) as UrlEntry;
        const moved = (url: string) => url.replace(server.url, peer.url);
        await cache.putEntry({
          ...entry,
          url: moved(entry.url),
          ...(entry.final_url ? { final_url: moved(entry.final_url) } : {}),
        });
      }

      const logs: string[] = [];
      const result = await federate(empty, config(peer.url), { cacheDir, now: later, log: (l) => logs.push(l) });
      expect(result.skills).toEqual([]);
      const port = new URL(peer.url).port;
      expect(result.problems).toEqual([
        {
          severity: 'warning',
          skill: 'peer:acme',
          file: 'index.json',
          rule: 'peer-bad-port',
          message: `peer "acme", index.json: ${peer.url}/feed/v1/index.json: Node's fetch refuses port ${port} (a port browsers and Node block); serve it on another port`,
        },
      ]);
      expect(logs).toEqual(['peer acme: 0 skill(s) fetched, 1 request(s), 1 problem(s)']);
      expect(peer.requests).toEqual([]);
    } finally {
      await peer.close();
    }
  });
});
