/**
 * Federation's limits per peer (issue 11, should-fix): a deadline for the whole peer, so many
 * slow skills cannot add up their per-request timeouts, and a byte budget reserved before each
 * download, so concurrent downloads never pass federation.max_peer_bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { tempDir, writeSkills } from './helpers/skills.ts';

let tmp: string;
let server: TestServer;
const empty = { skills: [], problems: [] };
const names = Array.from({ length: 20 }, (_, i) => `skill-${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  tmp = await tempDir('federate-limits');
  await writeSkills(
    path.join(tmp, 'skills'),
    names.map((name) => ({ name, files: { 'data.bin': new Uint8Array(20_000).fill(name.charCodeAt(7)) } })),
  );
  await publish(path.join(tmp, 'skills'), path.join(tmp, 'dist'), 'many');
  server = await serveDir(path.join(tmp, 'dist'));
});

afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

const config = (federation: Record<string, unknown>) =>
  SkillpressConfig.parse({ federation: { ...federation, peers: [{ name: 'many', url: server.url }] } });

describe('limits of one peer', () => {
  it('a deadline for the whole peer: 20 slow skill JSONs stop there, not after 20 × their timeout', async () => {
    for (const name of names) {
      server.override(`/feed/v1/skills/${name}.json`, (req, res) => {
        const timer = setTimeout(() => res.writeHead(503).end(), 1_000);
        req.socket.on('close', () => clearTimeout(timer));
      });
    }
    try {
      const started = Date.now();
      const result = await federate(empty, config({ timeout_ms: 5_000, peer_timeout_ms: 1_500 }), {
        cacheDir: path.join(tmp, 'cache-slow'),
      });
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeLessThan(3.5); // without it: 5 rounds of 4 skills × 1 s
      const timedOut = result.problems.filter((p) => p.rule === 'peer-timeout');
      expect(timedOut.length).toBeGreaterThan(0);
      expect(timedOut[0]!.message).toContain(
        'the 1500 ms deadline for peer "many" (federation.peer_timeout_ms) passed',
      );
      expect(result.problems.every((p) => p.severity === 'warning')).toBe(true);
    } finally {
      for (const name of names)
        server.override(`/feed/v1/skills/${name}.json`, (_req, res) => void res.writeHead(404).end());
    }
  });

  it('concurrent downloads never pass max_peer_bytes: each file reserves its listed size first', async () => {
    const fresh = await serveDir(path.join(tmp, 'dist'));
    try {
      const limit = 100_000;
      const cfg = SkillpressConfig.parse({
        federation: { max_peer_bytes: limit, peers: [{ name: 'many', url: fresh.url }] },
      });
      const result = await federate(empty, cfg, { cacheDir: path.join(tmp, 'cache-budget') });
      // Files list their size and reserve it before the request: together they never pass the limit.
      // A skill JSON (size unknown) in flight when the budget ran out may still cross the wire (~1.5 KB each).
      expect(fresh.bytesSent()).toBeLessThanOrEqual(limit + 4 * 2_000);
      expect(result.skills.length).toBeGreaterThan(0);
      expect(result.skills.length).toBeLessThan(names.length);
      const refused = result.problems.filter((p) => p.rule === 'peer-too-large');
      expect(refused.length + result.skills.length).toBe(names.length);
      expect(
        refused.some((p) =>
          /not fetched: its 19\.5 KiB \(20000 bytes\) would pass the 97\.7 KiB \(100000 bytes\) total \(federation\.max_peer_bytes\)/.test(
            p.message,
          ),
        ),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
