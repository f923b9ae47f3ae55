/**
 * Issue 13, item 3 (seed 001: federated skills keep their original registry), with three
 * registries over HTTP on 127.0.0.1: B publishes, A imports from B and re-exports, and we import
 * from A. A skill keeps its origin and the route it came by; the same skill reached by two routes
 * is imported once (the shorter route, then config order); an import cycle (A re-exports ours)
 * is reported and not imported back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { writeFeed } from '../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from './helpers/skills.ts';

let tmp: string;
let b: TestServer;
let a: TestServer;
let home: TestServer;
let aOfHome: TestServer;
let local: Catalog;
let n = 0;
const cacheDir = () => path.join(tmp, `cache-${++n}`);

/** Registry `name`: its own skills, plus what it imports from `peers`, published with reexport on. */
async function registry(
  name: string,
  skills: string[],
  peers: Array<{ name: string; url: string }>,
): Promise<TestServer> {
  await writeSkills(
    path.join(tmp, `${name}-skills`),
    skills.map((s) => ({ name: s })),
  );
  const config = SkillpressConfig.parse({ registry: { name, title: name }, federation: { reexport: true, peers } });
  const catalog = await federate(await loadSkills(path.join(tmp, `${name}-skills`), name), config, {
    cacheDir: cacheDir(),
  });
  const dist = path.join(tmp, `${name}-dist-${++n}`);
  await writeFeed(catalog, { outDir: dist, config, sourceDateEpoch: 1_767_225_600 });
  return serveDir(dist);
}

beforeAll(async () => {
  tmp = await tempDir('origin');
  await writeSkills(path.join(tmp, 'b-skills'), [{ name: 'b-skill' }]);
  await publish(path.join(tmp, 'b-skills'), path.join(tmp, 'b-dist'), 'b');
  b = await serveDir(path.join(tmp, 'b-dist'));
  a = await registry('a', ['a-skill'], [{ name: 'b', url: b.url }]);
  await writeSkills(path.join(tmp, 'home-skills'), [{ name: 'home-skill' }]);
  await publish(path.join(tmp, 'home-skills'), path.join(tmp, 'home-dist'), 'home');
  home = await serveDir(path.join(tmp, 'home-dist'));
  aOfHome = await registry('a', ['a-skill'], [{ name: 'home', url: home.url }]);
  local = await loadSkills(path.join(tmp, 'home-skills'), 'home');
});

afterAll(async () => {
  await Promise.all([b, a, home, aOfHome].map((s) => s?.close()));
  await rm(tmp, { recursive: true, force: true });
});

const configOf = (peers: Array<{ name: string; url: string }>) =>
  SkillpressConfig.parse({ registry: { name: 'home' }, federation: { reexport: true, peers } });
const find = (catalog: Catalog, name: string): Skill => catalog.skills.find((s) => s.name === name)!;
const route = (s: Skill) => ({
  registry: s.registry,
  ...(s.source.kind === 'peer' ? { peer: s.source.peer, via: s.source.via } : {}),
});

describe('origin kept across federation', () => {
  it("B → A → us: B's skill is attributed to B, via A; A's own skill to A", async () => {
    const result = await federate(local, configOf([{ name: 'a', url: a.url }]), { cacheDir: cacheDir() });
    expect(route(find(result, 'b-skill'))).toEqual({ registry: 'b', peer: 'a', via: ['a'] });
    expect(route(find(result, 'a-skill'))).toEqual({ registry: 'a', peer: 'a', via: undefined });
    expect(result.problems).toEqual([]);
  });

  it('our feed publishes the origin and the route, and the next registry extends it', async () => {
    const config = configOf([{ name: 'a', url: a.url }]);
    const result = await federate(local, config, { cacheDir: cacheDir() });
    const out = path.join(tmp, `ours-${++n}`);
    await writeFeed(result, { outDir: out, config, sourceDateEpoch: 1_767_225_600 });
    const card = JSON.parse(await readFile(path.join(out, 'feed/v1/skills/b-skill.json'), 'utf8')).card;
    expect([card.registry, card.via]).toEqual(['b', ['a']]);
    const ours = await serveDir(out);
    try {
      const next = await federate(
        { skills: [], problems: [] },
        SkillpressConfig.parse({ registry: { name: 'd' }, federation: { peers: [{ name: 'home', url: ours.url }] } }),
        { cacheDir: cacheDir() },
      );
      expect(route(find(next, 'b-skill'))).toEqual({ registry: 'b', peer: 'home', via: ['a', 'home'] });
      expect(route(find(next, 'home-skill'))).toEqual({ registry: 'home', peer: 'home', via: undefined });
    } finally {
      await ours.close();
    }
  });

  it.each([
    ['A first', ['a', 'b']],
    ['B first', ['b', 'a']],
  ])('the same skill by two routes (%s) is imported once, by the shorter route', async (_label, order) => {
    const urls: Record<string, string> = { a: a.url, b: b.url };
    const logs: string[] = [];
    const result = await federate(local, configOf(order.map((name) => ({ name, url: urls[name]! }))), {
      cacheDir: cacheDir(),
      log: (l) => logs.push(l),
    });
    expect(result.skills.filter((s) => s.name === 'b-skill').map(route)).toEqual([
      { registry: 'b', peer: 'b', via: undefined },
    ]);
    expect(result.problems).toEqual([]);
    expect(logs.join('\n')).toContain('peer a: 2 skill(s) fetched');
    expect(logs.join('\n')).toContain('1 already imported by a shorter route');
  });

  it('routes of the same length: config order decides', async () => {
    const result = await federate(
      local,
      configOf([
        { name: 'a2', url: a.url },
        { name: 'a', url: a.url },
      ]),
      { cacheDir: cacheDir() },
    );
    expect(route(find(result, 'b-skill'))).toEqual({ registry: 'b', peer: 'a2', via: ['a2'] });
    // A's own skill under two peer names is two origins: a name clash, reported.
    expect(result.problems.map((p) => [p.skill, p.rule])).toEqual([['peer:a', 'federation-name-clash']]);
  });

  it('us → A → us: our own skill coming back is an import cycle, reported and not imported', async () => {
    const result = await federate(local, configOf([{ name: 'a', url: aOfHome.url }]), { cacheDir: cacheDir() });
    expect(route(find(result, 'home-skill'))).toEqual({ registry: 'home' });
    expect(result.skills.filter((s) => s.name === 'home-skill')).toHaveLength(1);
    expect(route(find(result, 'a-skill'))).toEqual({ registry: 'a', peer: 'a', via: undefined });
    const cycle = result.problems.filter((p) => p.rule === 'federation-cycle');
    expect(cycle).toHaveLength(1);
    expect(cycle[0]).toMatchObject({ severity: 'warning', skill: 'peer:a', file: 'skills/home-skill' });
    expect(cycle[0]!.message).toContain(
      '"home-skill" came by home → a; a skill that passed through this registry ("home") is an import cycle and is not imported back',
    );
    expect(result.problems.filter((p) => p.rule === 'federation-name-clash')).toEqual([]);
  });
});
