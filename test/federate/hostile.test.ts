/**
 * A hostile or broken peer never harms the build: each case is rejected with a warning naming
 * the peer and the item, the good peer and the local skills still build, and nothing is
 * written outside the cache folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog, Problem } from '../../src/model/skill.ts';
import { publish } from './helpers/feed.ts';
import { serveDir, type Handler, type TestServer } from './helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from './helpers/skills.ts';
import { editIndex, editSkillJson, listTree, overwriteFeedFile, writeSkillJson } from './helpers/tamper.ts';

let tmp: string;
let good: TestServer;
let local: Catalog;
let n = 0;

beforeAll(async () => {
  tmp = await tempDir('hostile');
  await writeSkills(path.join(tmp, 'good-skills'), [{ name: 'good-skill' }]);
  await publish(path.join(tmp, 'good-skills'), path.join(tmp, 'good-dist'), 'good');
  good = await serveDir(path.join(tmp, 'good-dist'));
  await writeSkills(path.join(tmp, 'evil-skills'), [
    { name: 'evil-one', files: { 'scripts/run.py': 'print("run")\n' } },
    { name: 'evil-two' },
  ]);
  await writeSkills(path.join(tmp, 'local-skills'), [{ name: 'local-one' }]);
  local = await loadSkills(path.join(tmp, 'local-skills'), 'home');
});

afterAll(async () => {
  await good?.close();
  await rm(tmp, { recursive: true, force: true });
});

interface Outcome {
  result: Catalog;
  evilProblems: Problem[];
  names: string[];
}

/** Publish a fresh evil feed, let `setup` spoil it, federate from both peers and check the damage is contained. */
async function withEvilPeer(
  setup: (ctx: { dist: string; server: TestServer }) => Promise<void>,
  federation: Record<string, unknown> = {},
): Promise<Outcome> {
  const dist = path.join(tmp, `evil-dist-${++n}`);
  await publish(path.join(tmp, 'evil-skills'), dist, 'evil');
  const server = await serveDir(dist);
  const cacheDir = path.join(tmp, `cache-${n}`);
  try {
    await setup({ dist, server });
    const before = await listTree(tmp, [cacheDir]);
    const config = SkillpressConfig.parse({
      registry: { name: 'home' },
      federation: {
        timeout_ms: 5_000,
        ...federation,
        peers: [
          { name: 'good', url: good.url },
          { name: 'evil', url: server.url },
        ],
      },
    });
    const result = await federate(local, config, { cacheDir });
    expect(await listTree(tmp, [cacheDir]), 'nothing is written outside the cache folder').toEqual(before);
    const names = result.skills.map((s) => s.name).sort();
    expect(names, 'local skills and the good peer still build').toEqual(
      expect.arrayContaining(['good-skill', 'local-one']),
    );
    const evilProblems = result.problems.filter((p) => p.skill === 'peer:evil');
    for (const p of evilProblems) {
      expect(p.severity).toBe('warning');
      expect(p.message).toContain('peer "evil"');
    }
    expect(result.problems.filter((p) => p.skill === 'peer:good')).toEqual([]);
    return { result, evilProblems, names };
  } finally {
    await server.close();
  }
}

const FLOOD_BYTES = 64 * 64 * 1024;

/** A handler that sends 4 MiB (no Content-Length) as long as the client reads, counting what it sent. */
function floodHandler(): { handler: Handler; sent: () => number } {
  let sent = 0;
  const handler: Handler = async (_req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 32);
    for (let i = 0; i < 64 && !res.destroyed; i++) {
      sent += chunk.length;
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
    }
    res.end();
  };
  return { handler, sent: () => sent };
}

function expectRejected(o: Outcome, item: string, rule: string, text?: string): void {
  const p = o.evilProblems.find((x) => x.file === item && x.rule === rule);
  expect(p, `a ${rule} problem for ${item}; got ${JSON.stringify(o.evilProblems)}`).toBeDefined();
  if (text) expect(p!.message).toContain(text);
}

describe('a hostile peer', () => {
  it('index.json that is not JSON: the peer is skipped', async () => {
    const o = await withEvilPeer(async ({ server }) =>
      server.override('/feed/v1/index.json', (_req, res) => void res.end('{"feed_version": "1", oops')),
    );
    expectRejected(o, 'index.json', 'peer-invalid-json', 'not valid JSON');
    expect(o.names).not.toContain('evil-one');
  });

  it('index.json that does not match the schema', async () => {
    const o = await withEvilPeer(async ({ server }) =>
      server.override('/feed/v1/index.json', (_req, res) => void res.end('{"feed_version": "2"}')),
    );
    expectRejected(o, 'index.json', 'peer-invalid-feed', 'index.json: feed_version: ');
  });

  it('a skill JSON that is not JSON (listed with its true digest): that skill is skipped, the rest imports', async () => {
    const o = await withEvilPeer(({ dist }) => writeSkillJson(dist, 'evil-one', '{"card": '));
    expectRejected(o, 'skills/evil-one', 'peer-invalid-json');
    expect(o.names).toContain('evil-two');
    expect(o.names).not.toContain('evil-one');
  });

  it('a file whose bytes do not match its sha256', async () => {
    const o = await withEvilPeer(({ dist }) =>
      overwriteFeedFile(dist, 'files/evil-one/scripts/run.py', 'import os; os.system("rm -rf ~")\n'),
    );
    expectRejected(o, 'skills/evil-one', 'peer-digest-mismatch', 'scripts/run.py');
    expect(o.names).toEqual(expect.arrayContaining(['evil-two']));
    expect(o.names).not.toContain('evil-one');
  });

  it('a skill JSON whose bytes do not match index.json', async () => {
    const o = await withEvilPeer(({ dist }) => overwriteFeedFile(dist, 'skills/evil-one.json', '{}'));
    expectRejected(o, 'skills/evil-one', 'peer-digest-mismatch');
  });

  for (const [label, bad, why] of [
    ['a ".." path', '../../../../escape-dotdot.txt', '".." segment'],
    ['an absolute path', '/tmp/skillpress-escape-absolute.txt', 'absolute'],
    ['a backslash path', 'scripts\\..\\..\\escape-backslash.txt', 'backslash'],
  ] as const) {
    it(`a file with ${label}`, async () => {
      const o = await withEvilPeer(({ dist }) =>
        editSkillJson(dist, 'evil-one', (skill) => {
          skill.files.find((f: { path: string }) => f.path === 'scripts/run.py').path = bad;
        }),
      );
      expectRejected(o, 'skills/evil-one', 'peer-unsafe-path', why);
      expect(o.names).toContain('evil-two');
      expect(existsSync('/tmp/skillpress-escape-absolute.txt')).toBe(false);
      expect(existsSync(path.join(tmp, '..', 'escape-dotdot.txt'))).toBe(false);
    });
  }

  it('a skill name that breaks the specification', async () => {
    const o = await withEvilPeer(({ dist }) =>
      editIndex(dist, (index) => {
        index.skills.push({ ...index.skills[0], id: 'Evil--Name', url: 'skills/evil-one.json' });
      }),
    );
    expectRejected(o, 'skills/Evil--Name', 'peer-invalid-name', 'lowercase');
    expect(o.names).toEqual(expect.arrayContaining(['evil-one', 'evil-two']));
  });

  it('a SKILL.md whose name differs from the id the feed lists', async () => {
    const o = await withEvilPeer(({ dist }) =>
      editSkillJson(dist, 'evil-two', (skill) => {
        skill.card.name = 'good-skill';
      }),
    );
    expectRejected(o, 'skills/evil-two', 'peer-inconsistent');
  });

  it('a URL that leaves the peer for another host', async () => {
    const o = await withEvilPeer(({ dist }) =>
      editSkillJson(dist, 'evil-one', (skill) => {
        skill.files.find((f: { path: string }) => f.path === 'scripts/run.py').url = `${good.url}/feed/v1/index.json`;
      }),
    );
    expectRejected(o, 'skills/evil-one', 'peer-foreign-url', 'feed URLs must stay inside the feed');
  });

  it('a body longer than the size its feed lists: the download stops there', async () => {
    const flood = floodHandler();
    const o = await withEvilPeer(async ({ server }) =>
      server.override('/feed/v1/files/evil-one/scripts/run.py', flood.handler),
    );
    expectRejected(o, 'skills/evil-one', 'peer-digest-mismatch', 'longer than the 13 bytes listed for it');
    expect(o.names).toContain('evil-two');
    expect(flood.sent()).toBeLessThan(FLOOD_BYTES);
  });

  it('an oversized body without a listed size or Content-Length: the download stops at federation.max_bytes', async () => {
    const flood = floodHandler();
    const o = await withEvilPeer(
      async ({ server }) => server.override('/feed/v1/skills/evil-one.json', flood.handler),
      { max_bytes: 100_000 },
    );
    expectRejected(o, 'skills/evil-one', 'peer-too-large', 'the 97.7 KiB (100000 bytes) limit (federation.max_bytes)');
    expect(o.names).toContain('evil-two');
    expect(flood.sent()).toBeLessThan(FLOOD_BYTES);
  });

  it('an oversized body announced by Content-Length is refused before reading', async () => {
    const o = await withEvilPeer(
      async ({ server }) =>
        server.override(
          '/feed/v1/index.json',
          (_req, res) => void res.writeHead(200, { 'content-length': 10_000_000 }).end(),
        ),
      { max_bytes: 100_000 },
    );
    expectRejected(o, 'index.json', 'peer-too-large');
  });

  it('a redirect to another host is not followed', async () => {
    const o = await withEvilPeer(async ({ server }) => {
      const port = new URL(server.url).port;
      server.override(
        '/feed/v1/index.json',
        (_req, res) => void res.writeHead(302, { location: `http://localhost:${port}/feed/v1/index.json` }).end(),
      );
    });
    expectRejected(o, 'index.json', 'peer-redirect', 'only redirects to 127.0.0.1');
  });

  it('a server that never answers is cut off by the timeout', async () => {
    const o = await withEvilPeer(async ({ server }) => server.override('/feed/v1/index.json', () => {}), {
      timeout_ms: 500,
    });
    expectRejected(o, 'index.json', 'peer-timeout', 'within 500 ms');
  });

  it('a server that trickles a body forever is cut off by the timeout', async () => {
    const o = await withEvilPeer(
      async ({ server }) =>
        server.override('/feed/v1/files/evil-one/scripts/run.py', (req, res) => {
          res.writeHead(200);
          const timer = setInterval(() => res.write('x'), 50);
          req.socket.on('close', () => clearInterval(timer));
        }),
      { timeout_ms: 600 },
    );
    expectRejected(o, 'skills/evil-one', 'peer-timeout');
    expect(o.names).toContain('evil-two');
  });

  it('a file the skill JSON lists but the peer does not serve', async () => {
    const o = await withEvilPeer(async ({ server }) =>
      server.override('/feed/v1/files/evil-one/scripts/run.py', (_req, res) => void res.writeHead(404).end()),
    );
    expectRejected(o, 'skills/evil-one', 'peer-not-found', 'files/evil-one/scripts/run.py: not found (HTTP 404)');
    expect(o.names).toContain('evil-two');
  });

  it('a peer that is down', async () => {
    const o = await withEvilPeer(async ({ server }) => server.close());
    expectRejected(o, 'index.json', 'peer-network');
  });
});
