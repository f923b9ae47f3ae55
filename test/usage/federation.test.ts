/** A peer's published usage figures come with the skills imported from it, attributed to the peer. */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { federate } from '../../src/federate/index.ts';
import { writeFeed } from '../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { serveDir, type TestServer } from '../federate/helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from '../federate/helpers/skills.ts';

let tmp: string | undefined;
let server: TestServer | undefined;
afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it("imported skills keep the peer's figures, attributed to the peer", async () => {
  tmp = await tempDir('usage-federation');
  await writeSkills(path.join(tmp, 'peer-skills'), [{ name: 'pdf-tools' }, { name: 'csv-clean' }]);
  const peer = await loadSkills(path.join(tmp, 'peer-skills'), 'acme');
  const figures = {
    usage_version: 1,
    registry: 'acme',
    usage_count: 42,
    outcomes: { success: 9, failure: 1, partial: 0 },
    success_rate: 0.9,
    rating: 4.5,
    rating_count: 6,
    last_used: '2026-01-01T00:00:00.000Z',
  };
  peer.skills.find((s) => s.id === 'pdf-tools')!.usage = figures;
  const config = SkillpressConfig.parse({ registry: { name: 'acme' } });
  await writeFeed(peer, { outDir: path.join(tmp, 'peer-dist'), config, sourceDateEpoch: 1_767_225_600 });
  server = await serveDir(path.join(tmp, 'peer-dist'));

  await writeSkills(path.join(tmp, 'local-skills'), [{ name: 'local-one' }]);
  const local = await loadSkills(path.join(tmp, 'local-skills'), 'home');
  const ours = SkillpressConfig.parse({
    registry: { name: 'home' },
    federation: { peers: [{ name: 'acme', url: server.url }] },
  });
  const result = await federate(local, ours, { cacheDir: path.join(tmp, 'cache') });
  const imported = result.skills.find((s) => s.id === 'pdf-tools')!;
  expect(imported.registry).toBe('acme');
  expect(imported.usage).toEqual(figures);
  expect(result.skills.find((s) => s.id === 'csv-clean')!.usage).toBeUndefined();
});
