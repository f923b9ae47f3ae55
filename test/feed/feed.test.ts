import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { loadCatalog } from '../../src/load/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';
import { Cards, Changes, DiscoveryIndex, FeedIndex, FeedSkill, PUBLISHED_SCHEMAS } from '../../src/model/feed.ts';
import { writeFeed, type FeedSummary } from '../../src/emit/feed/index.ts';
import { SkillSearch } from '../../src/search/index.ts';
import { decodeSkillVectors } from '../../src/semantic/feed-vectors.ts';
import {
  GROUP_MARKER,
  IGNORED_MARKER,
  MAX_FILE_BYTES,
  PRIVATE_MARKER,
  PRIVATE_NAMES,
  UNUSUAL_NAMES,
  makeFixture,
  type Fixture,
} from './fixture.ts';
import { everyText, readTarGz, readZip, walk } from './archive-reader.ts';

const EPOCH = 1_700_000_000;
const sha256 = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

let fx: Fixture;
let config: SkillpressConfig;
let catalog: Catalog;
let out: string;
let summary: FeedSummary;
let feedDir: string;

async function build(
  outDir: string,
  cat = catalog,
  cfg = config,
  extra: Partial<Parameters<typeof writeFeed>[1]> = {},
): Promise<FeedSummary> {
  return writeFeed(cat, { outDir, config: cfg, sourceDateEpoch: EPOCH, ...extra });
}

beforeAll(async () => {
  fx = makeFixture();
  config = SkillpressConfig.parse(json(path.join(fx.config, 'skillpress.json')));
  catalog = await loadCatalog(fx.skills, {
    maxFileBytes: config.skills.max_file_bytes,
    registry: config.registry.name,
    sourceDateEpoch: EPOCH,
  });
  out = path.join(fx.dir, 'out');
  summary = await build(out);
  feedDir = path.join(out, 'feed', 'v1');
});

afterAll(() => {
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('feed files', () => {
  it('loads the fixture as expected', () => {
    expect(catalog.skills.map((s) => s.id).sort()).toEqual([
      'hidden-group-skill',
      'hidden-private-skill',
      'kitchen-sink',
      'only-skill-md',
    ]);
    expect(summary).toMatchObject({ skills: 2, withheld: 2, imported: 0, skippedFiles: 1 });
  });

  it('stores every file byte-equal to the source, reachable through its percent-encoded url', () => {
    for (const id of ['kitchen-sink', 'only-skill-md']) {
      const skill = FeedSkill.parse(json(path.join(feedDir, 'skills', `${id}.json`)));
      for (const f of skill.files.filter((f) => !f.skipped)) {
        const source = readFileSync(path.join(fx.skills, id, ...f.path.split('/')));
        // Resolve the url the way a client does: against the feed root.
        const url = new URL(f.url!, 'https://example.test/feed/v1/');
        const rel = url.pathname.slice('/feed/v1/'.length).split('/').map(decodeURIComponent);
        expect(rel).toEqual(['files', id, ...f.path.split('/')]);
        expect(url.search + url.hash, f.path).toBe('');
        const stored = readFileSync(path.join(feedDir, ...rel));
        expect(stored.equals(source), f.path).toBe(true);
        expect(f.sha256).toBe(sha256(source));
        expect(f.size).toBe(source.length);
      }
    }
  });

  it('keeps binary, empty, invalid UTF-8, unusual and nested files with the right encoding', () => {
    const skill = FeedSkill.parse(json(path.join(feedDir, 'skills', 'kitchen-sink.json')));
    const byPath = new Map(skill.files.map((f) => [f.path, f]));
    expect(byPath.get('assets/logo.png')).toMatchObject({ encoding: 'base64', mime: 'image/png' });
    expect(byPath.get('assets/logo.png')!.tokens).toBeUndefined();
    expect(byPath.get('latin1.txt')).toMatchObject({ encoding: 'base64' });
    expect(byPath.get('empty.txt')).toMatchObject({ size: 0, encoding: 'utf-8', tokens: 0 });
    expect(byPath.get('a/b/c/deep.txt')!.tokens).toBeGreaterThan(0);
    for (const n of UNUSUAL_NAMES) expect(byPath.has(`odd/${n}`)).toBe(true);
    expect(byPath.get('odd/#hash ?q%20.txt')!.url).toBe('files/kitchen-sink/odd/%23hash%20%3Fq%2520.txt');
  });

  it('lists the over-limit file with its reason and stores nothing for it', () => {
    const skill = FeedSkill.parse(json(path.join(feedDir, 'skills', 'kitchen-sink.json')));
    const big = skill.files.find((f) => f.path === 'big.bin')!;
    expect(big.skipped?.reason).toMatch(
      /^file is 4\.0 KiB \(4097 bytes\), over the 4 KiB limit \(skills\.max_file_bytes\)$/,
    );
    expect(big.url).toBeUndefined();
    expect(big.size).toBe(MAX_FILE_BYTES + 1);
    expect(existsSync(path.join(feedDir, 'files', 'kitchen-sink', 'big.bin'))).toBe(false);
  });

  it('publishes nothing that the ignore rules leave out', async () => {
    const all = walk(out);
    expect(all.filter((p) => /\.DS_Store|__pycache__|\.pyc$|node_modules/.test(p))).toEqual([]);
    for (const text of await everyText(out)) expect(text.includes(IGNORED_MARKER)).toBe(false);
    const skill = FeedSkill.parse(json(path.join(feedDir, 'skills', 'kitchen-sink.json')));
    expect(skill.files.map((f) => f.path).filter((p) => /DS_Store|pycache|\.pyc|node_modules/.test(p))).toEqual([]);
  });

  it('summarizes the skill: scoped tools and resources, tokens, links', () => {
    const skill = FeedSkill.parse(json(path.join(feedDir, 'skills', 'kitchen-sink.json')));
    expect(skill.summary.tools).toEqual([{ name: 'get_plan', description: 'Explain a query.' }]);
    expect(skill.summary.resources).toEqual([{ uri: 'resource://kitchen/rules.md', name: 'rules' }]);
    expect(skill.card).toMatchObject({
      registry: 'test-registry',
      version: '1.0.0',
      domain: 'testing',
      tags: ['files', 'edge-cases'],
    });
    expect(skill.card.tokens).toBeGreaterThan(10);
    expect(skill.card.links).toEqual({
      skill: 'skills/kitchen-sink.json',
      page: '../../skills/kitchen-sink/',
      archive: '../../.well-known/agent-skills/kitchen-sink.tar.gz',
      zip: '../../.well-known/agent-skills/kitchen-sink.zip',
    });
    expect(skill.skill_md).toBe(readFileSync(path.join(fx.skills, 'kitchen-sink', 'SKILL.md'), 'utf8'));
  });
});

describe('skills kept for people to start', () => {
  it('carry invocation: user on their card (disable-model-invocation: true); other skills carry none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillpress-invocation-'));
    try {
      const skill = (name: string, extra: string) =>
        `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n# ${name}\n`;
      const write = (name: string, extra: string) => {
        mkdirSync(path.join(dir, 'skills', name), { recursive: true });
        writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), skill(name, extra));
      };
      write('deploy', 'disable-model-invocation: true\n');
      write('commit', "disable-model-invocation: 'true'\n");
      write('explain', 'disable-model-invocation: false\n');
      write('plain', '');
      await build(path.join(dir, 'out'), await loadCatalog(path.join(dir, 'skills')));
      const cards = Cards.parse(json(path.join(dir, 'out', 'feed', 'v1', 'cards.json'))).skills;
      expect(Object.fromEntries(cards.map((c) => [c.id, c.invocation]))).toEqual({
        commit: 'user',
        deploy: 'user',
        explain: undefined,
        plain: undefined,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('private and group skills', () => {
  it('appear nowhere in the output: feeds, files, archives, discovery, search indexes', async () => {
    const needles = [PRIVATE_MARKER, GROUP_MARKER, ...PRIVATE_NAMES, 'alice'];
    // Also their base64 forms at each alignment, as binary files are stored in base64.
    for (const m of [PRIVATE_MARKER, GROUP_MARKER]) {
      for (let i = 0; i < 3; i++)
        needles.push(
          Buffer.from('xxx'.slice(0, i) + m)
            .toString('base64')
            .slice(4, -4),
        );
    }
    const texts = await everyText(out);
    expect(texts.length).toBeGreaterThan(20);
    for (const t of texts) for (const n of needles) expect(t.toLowerCase().includes(n.toLowerCase()), n).toBe(false);
    expect(walk(out).filter((p) => p.includes('hidden'))).toEqual([]);
  });

  it('are counted as withheld in the index', () => {
    const index = FeedIndex.parse(json(path.join(feedDir, 'index.json')));
    // kitchen-sink stores 10 files (big.bin is only listed), only-skill-md 1.
    expect(index.counts).toEqual({ skills: 2, files: 11, withheld: 2, imported: 0 });
  });
});

describe('discovery index and archives', () => {
  const wk = (): string => path.join(out, '.well-known', 'agent-skills');

  it('follows RFC v0.2.0 and its digests verify', () => {
    const index = DiscoveryIndex.parse(json(path.join(wk(), 'index.json')));
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.map((s) => [s.name, s.type, s.url])).toEqual([
      ['kitchen-sink', 'archive', 'kitchen-sink.tar.gz'],
      ['only-skill-md', 'skill-md', 'only-skill-md/SKILL.md'],
    ]);
    for (const s of index.skills) {
      const artifact = readFileSync(
        path.join(
          wk(),
          ...new URL(s.url, 'https://x.test/.well-known/agent-skills/index.json').pathname
            .split('/')
            .slice(3)
            .map(decodeURIComponent),
        ),
      );
      expect(s.digest).toBe(`sha256:${sha256(artifact)}`);
    }
    expect(
      readFileSync(path.join(wk(), 'only-skill-md', 'SKILL.md')).equals(
        readFileSync(path.join(fx.skills, 'only-skill-md', 'SKILL.md')),
      ),
    ).toBe(true);
  });

  it('each archive unpacks to exactly the skill’s stored files, SKILL.md at the root', async () => {
    for (const id of ['kitchen-sink', 'only-skill-md']) {
      const skill = catalog.skills.find((s) => s.id === id)!;
      const expected = skill.files
        .filter((f) => !f.skipped)
        .map((f) => f.path)
        .sort();
      const tar = await readTarGz(readFileSync(path.join(wk(), `${id}.tar.gz`)));
      const zip = readZip(readFileSync(path.join(wk(), `${id}.zip`)));
      for (const entries of [tar, zip]) {
        expect(entries[0]!.path).toBe('SKILL.md');
        expect(entries.map((e) => e.path).sort()).toEqual(expected);
        for (const e of entries) {
          expect(e.type).toBe('file');
          expect(e.path.startsWith('/') || e.path.split('/').includes('..')).toBe(false);
          expect(e.bytes.equals(readFileSync(path.join(fx.skills, id, ...e.path.split('/')))), e.path).toBe(true);
        }
      }
      if (id === 'kitchen-sink') {
        expect(tar.find((e) => e.path === 'scripts/run.sh')!.mode).toBe(0o755);
        expect(tar.find((e) => e.path === 'empty.txt')!.mode).toBe(0o644);
      }
    }
  });
});

describe('feed documents', () => {
  it('validate against the zod schemas, and index.json digests verify every part and skill', () => {
    const index = FeedIndex.parse(json(path.join(feedDir, 'index.json')));
    expect(index.registry).toEqual({ name: 'test-registry', title: 'Test registry' });
    expect(index.generated_at).toBe(new Date(EPOCH * 1000).toISOString());
    for (const [, part] of Object.entries(index.parts)) {
      const bytes = readFileSync(path.join(feedDir, ...part.url.split('/').map(decodeURIComponent)));
      expect(sha256(bytes)).toBe(part.sha256);
      expect(bytes.length).toBe(part.bytes);
    }
    expect(Object.keys(index.parts).sort()).toEqual(
      [
        'cards',
        'changes',
        'search',
        'search_body',
        'skill_vectors',
        ...Object.keys(PUBLISHED_SCHEMAS).map((n) => `schema:${n}`),
      ].sort(),
    );
    for (const s of index.skills) {
      const bytes = readFileSync(path.join(feedDir, ...s.url.split('/').map(decodeURIComponent)));
      expect(sha256(bytes)).toBe(s.sha256);
      expect(FeedSkill.parse(JSON.parse(bytes.toString('utf8'))).card.digest).toBe(s.digest);
    }
    const cards = Cards.parse(json(path.join(feedDir, 'cards.json')));
    expect(cards.skills.map((c) => c.id)).toEqual(['kitchen-sink', 'only-skill-md']);
    Changes.parse(json(path.join(feedDir, 'changes.json')));
    // One row of sign bits per skill, in search.json's order: 20 bytes of header and a float32 weight per
    // dimension, then a byte of scale and 256 / 8 bytes of signs a skill.
    const vectors = decodeSkillVectors(readFileSync(path.join(feedDir, 'skill-vectors.bin')));
    expect(vectors.count).toBe(cards.skills.length);
    expect(vectors.signs.length).toBe(cards.skills.length * (vectors.dims / 8));
    expect(index.parts.skill_vectors!.bytes).toBe(20 + 4 * vectors.dims + cards.skills.length * (1 + vectors.dims / 8));
  });

  it('publishes a JSON Schema for each document', () => {
    for (const name of Object.keys(PUBLISHED_SCHEMAS)) {
      const schema = json(path.join(feedDir, 'schemas', `${name}.schema.json`)) as Record<string, unknown>;
      expect(schema.$schema, name).toMatch(/json-schema\.org/);
      expect(schema.$ref, name).toBe(`#/$defs/${name}`);
      const def = (schema.$defs as Record<string, { type: string; properties: object }>)[name]!;
      expect(def.type, name).toBe('object');
      expect(Object.keys(def.properties).length, name).toBeGreaterThan(1);
    }
  });

  it('serves a search index that finds skills by name, path and body, and a body index apart', () => {
    const search = SkillSearch.load(json(path.join(feedDir, 'search.json')));
    expect(search.size).toBe(2);
    expect(search.search('scripts/run.sh', { mode: 'all' })[0]?.id).toBe('kitchen-sink');
    expect(search.search('kitchn-sink')[0]?.id).toBe('kitchen-sink');
    expect(search.search('helpers')).toEqual([]);
    search.attachBody(json(path.join(feedDir, 'search-body.json')));
    expect(search.search('helpers')[0]?.id).toBe('kitchen-sink');
  });
});

describe('reproducibility', () => {
  it('gives byte-identical output for the same input and SOURCE_DATE_EPOCH', async () => {
    const again = path.join(fx.dir, 'out-again');
    // A fresh load too: nothing may depend on timing or file system order.
    const catalog2 = await loadCatalog(fx.skills, {
      maxFileBytes: config.skills.max_file_bytes,
      registry: config.registry.name,
      sourceDateEpoch: EPOCH,
    });
    await build(again, catalog2);
    const a = walk(out).sort();
    expect(walk(again).sort()).toEqual(a);
    for (const rel of a)
      expect(readFileSync(path.join(again, rel)).equals(readFileSync(path.join(out, rel))), rel).toBe(true);
  });
});

describe('imported skills', () => {
  const imported = (from: Skill): Skill => ({
    ...from,
    id: 'peer-skill',
    name: 'peer-skill',
    frontmatter: { ...from.frontmatter, name: 'peer-skill' },
    registry: 'peer-one',
    source: { kind: 'peer', peer: 'peer-one', feed_url: 'http://peer.test/feed/v1/index.json' },
  });

  it('are left out of the published feed unless federation.reexport is on, and kept in the site catalog', async () => {
    const only = catalog.skills.find((s) => s.id === 'only-skill-md')!;
    const withPeer: Catalog = { ...catalog, skills: [...catalog.skills, imported(only)] };
    const dir = path.join(fx.dir, 'out-imported');
    const published = await build(dir, withPeer);
    expect(published).toMatchObject({ skills: 2, imported: 0, importedNotExported: 1 });
    expect(existsSync(path.join(dir, 'feed/v1/skills/peer-skill.json'))).toBe(false);
    const site = await build(dir, withPeer, config, { scope: 'catalog' });
    expect(site).toMatchObject({ skills: 3, imported: 1 });
    const peer = FeedSkill.parse(json(path.join(dir, 'catalog/v1/skills/peer-skill.json')));
    expect(peer.card.registry).toBe('peer-one');
    expect(peer.summary.source_url).toBe('http://peer.test/feed/v1/index.json');
    expect(peer.card.links.archive).toBeUndefined();

    const reexport = SkillpressConfig.parse({ ...config, federation: { reexport: true } });
    const dir2 = path.join(fx.dir, 'out-reexport');
    expect(await build(dir2, withPeer, reexport)).toMatchObject({ skills: 3, imported: 1, importedNotExported: 0 });
    const disc = DiscoveryIndex.parse(json(path.join(dir2, '.well-known/agent-skills/index.json')));
    expect(disc.skills.map((s) => s.name)).toContain('peer-skill');
  });
});

describe('unsafe file paths', () => {
  it('are refused with a problem and nothing is written outside the output folder', async () => {
    const only = catalog.skills.find((s) => s.id === 'only-skill-md')!;
    const evil: Skill = {
      ...only,
      files: [
        ...only.files,
        ...['../escape.txt', '/abs.txt', 'a\\b.txt', 'nul\0.txt'].map((p) => ({ ...only.files[0]!, path: p, name: p })),
      ],
    };
    const root = path.join(fx.dir, 'evil');
    const dir = path.join(root, 'out');
    const result = await build(dir, { skills: [evil], problems: [] });
    expect(result.problems.filter((p) => p.rule === 'feed-path')).toHaveLength(4);
    expect(walk(root).every((p) => p.startsWith('out/'))).toBe(true);
    expect(existsSync(path.join(dir, 'feed/v1/files/escape.txt'))).toBe(false);
    expect(statSync(path.join(dir, 'feed/v1/files/only-skill-md/SKILL.md')).isFile()).toBe(true);
    const listed = FeedSkill.parse(json(path.join(dir, 'feed/v1/skills/only-skill-md.json'))).files.filter(
      (f) => f.path !== 'SKILL.md',
    );
    expect(listed.map((f) => [f.url, f.skipped?.reason.startsWith('not published: path ')])).toEqual(
      Array(4).fill([undefined, true]),
    );
  });
});
