/**
 * Builds cost what changed: `skillpress build` keeps token counts, rendered SKILL.md, archives,
 * the skill pages and the file pages in `.cache/`, keyed by what they are made of. A rebuild with
 * one skill changed makes only that skill's parts again (its own summary says so) and writes the
 * same bytes a build from nothing writes; a damaged cache (or an output edited in place, which
 * shares its files with the cache) is found and made again; deleting the cache is always safe.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureSkills } from './helpers/fixture.ts';
import type { BuildJson } from '../../src/cli/commands/build.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;
/** The working folder of the builds that keep a cache, and one without (cold builds). */
let warm: string;
let cold: string;
const skills = (): string => path.join(tmp, 'skills');

async function build(
  cwd: string,
  out: string,
  json = true,
  extra: string[] = [],
): Promise<{ result?: BuildJson; stdout: string }> {
  const args = [
    path.join(REPO, 'scripts/skillpress.mjs'),
    'build',
    '--skills',
    skills(),
    '--out',
    out,
    ...(json ? ['--json'] : []),
    ...extra,
  ];
  const { stdout } = await run(path.join(REPO, 'node_modules/.bin/node'), args, {
    cwd,
    env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: '1767225600' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { result: json ? (JSON.parse(stdout) as BuildJson) : undefined, stdout };
}

/** Every file of a build's output by path, as its sha256 (the files themselves may be shared with the cache). */
async function digests(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  const sums = await Promise.all(
    files.map(
      async (f) =>
        [
          f,
          createHash('sha256')
            .update(await readFile(path.join(dir, f)))
            .digest('hex'),
        ] as const,
    ),
  );
  return Object.fromEntries(sums.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The same build from nothing: no cache, the same previous output (so the change list agrees). */
async function coldBuild(previous: string): Promise<{ result: BuildJson; files: Record<string, string> }> {
  const out = path.join(cold, 'out');
  await rm(cold, { recursive: true, force: true });
  await mkdir(cold, { recursive: true });
  await cp(previous, out, { recursive: true });
  const { result } = await build(cold, out);
  return { result: result!, files: await digests(out) };
}

/** Flip the first byte of a file in place. */
async function damage(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes[0] = bytes[0]! ^ 0xff;
  await writeFile(file, bytes);
}

/**
 * An entry of a cache folder (`<key>.<sha256>.<tag>` entries, signed with the machine's cache key) that the last build used: the one used
 * last (a build touches what it reads). A folder can also hold entries of earlier inputs, which
 * no build reads again, so damaging one of those would prove nothing.
 */
async function entryOf(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => /^[0-9a-f]{64}\.[0-9a-f]{64}\.[0-9a-f]{32}$/.test(n));
  const used = await Promise.all(names.map(async (n) => ({ n, at: (await stat(path.join(dir, n))).mtimeMs })));
  return path.join(dir, used.sort((a, b) => b.at - a.at)[0]!.n);
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-'));
  warm = path.join(tmp, 'warm');
  cold = path.join(tmp, 'cold');
  await mkdir(warm);
  await writeFixtureSkills(skills());
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('builds cost what changed', () => {
  const out = (): string => path.join(warm, 'out');
  const previous = (): string => path.join(tmp, 'previous');
  /** Keep the output as it is before a build, for the cold build to compare with. */
  const keepPrevious = async (): Promise<void> => {
    await rm(previous(), { recursive: true, force: true });
    await cp(out(), previous(), { recursive: true });
  };

  it(
    'makes only what one changed skill needs, says so, and writes what a build from nothing writes',
    { timeout: 180_000 },
    async () => {
      const first = (await build(warm, out())).result!;
      expect(first.site).toMatchObject({
        skills: 6,
        rendered: 6,
        cached: 0,
        skill_pages: { rendered: 6, reused: 0, moved: 0 },
        file_views: { reused: 0 },
      });
      expect(first.reused.archives).toEqual({ built: 6, reused: 0 });

      // Nothing changed: no skill's page or file pages made again (only the catalog's own pages);
      // each skill's folder is moved from the output being replaced, every file of it checked.
      await keepPrevious();
      const shard = (): string => path.join(out(), '_model/tokens-0.bin');
      const shardInode = (await stat(shard())).ino;
      const again = (await build(warm, out())).result!;
      // The model's files (thousands of shards) are moved from the output being replaced, not written again.
      expect((await stat(shard())).ino).toBe(shardInode);
      expect(again.reused.tokens.counted).toBe(0);
      expect(again.reused.archives).toEqual({ built: 0, reused: 6 });
      expect(again.site).toMatchObject({
        rendered: 0,
        cached: 6,
        skill_pages: { rendered: 0, reused: 6, moved: 6 },
        file_views: { written: 0 },
      });
      expect(await digests(out())).toEqual((await coldBuild(previous())).files);

      const file = path.join(skills(), 'budget-forecaster/SKILL.md');
      await writeFile(
        file,
        (await readFile(file, 'utf8')).replace(
          'Fits a seasonal model.',
          'Fits a seasonal model with **holiday effects**.',
        ),
      );
      await keepPrevious();
      const { stdout } = await build(warm, out(), false);
      expect(stdout).toContain('SKILL.md to HTML: 1 converted, 5 from .cache/');
      expect(stdout).toMatch(/reused from \.cache\/: token counts of \d+ of \d+ texts, archives of 5 of 6 skills/);
      expect(stdout).toMatch(
        /skill pages: 1 rendered, 5 reused unchanged \(5 moved from the previous output\); file views: \d+ written, [1-9]\d* reused/,
      );
      expect(await readFile(path.join(out(), 'skills/budget-forecaster/index.html'), 'utf8')).toContain(
        '<strong>holiday effects</strong>',
      );

      const fresh = await coldBuild(previous());
      expect(fresh.result.site).toMatchObject({ rendered: 6, cached: 0, skill_pages: { reused: 0 } });
      expect(await digests(out())).toEqual(fresh.files);
    },
  );

  it('finds a damaged cache, or an output edited in place, and makes it again', { timeout: 120_000 }, async () => {
    await keepPrevious();
    const cache = path.join(warm, '.cache');
    await damage(await entryOf(path.join(cache, 'site/skill-html')));
    // A kept file page of pdf-toolkit and the kept page of budget-forecaster, through the output they are linked to.
    await damage(path.join(out(), 'skills/pdf-toolkit/files/scripts/extract.py/index.html'));
    await damage(path.join(out(), 'skills/budget-forecaster/index.html'));
    // Through the hard links they share with the archive cache and the raw files' cache.
    await damage(path.join(out(), '.well-known/agent-skills/budget-forecaster.tar.gz'));
    await damage(path.join(out(), 'feed/v1/files/pdf-toolkit/scripts/extract.py'));
    await damage(await entryOf(path.join(cache, 'feed/body-terms')));
    await damage(path.join(out(), '_model/tokens-1.bin'));
    await damage(await entryOf(path.join(cache, 'duplicates')));
    const tokens = JSON.parse(await readFile(path.join(cache, 'tokens.json'), 'utf8')) as {
      counts: Record<string, number>;
    };
    const [sha] = Object.keys(tokens.counts);
    tokens.counts[sha!] = tokens.counts[sha!]! + 1;
    await writeFile(path.join(cache, 'tokens.json'), JSON.stringify(tokens));

    const result = (await build(warm, out())).result!;
    expect(result.site!.rendered).toBe(1);
    expect(result.site!.skill_pages).toEqual({ rendered: 1, reused: 5, moved: 4 });
    expect(result.site!.file_views.written).toBe(4);
    expect(result.reused.archives).toEqual({ built: 1, reused: 5 });
    expect(result.reused.tokens.reused).toBe(0);
    expect(await digests(out())).toEqual((await coldBuild(previous())).files);
  });

  it(
    'never carries over a file the previous output holds that this build would not write',
    { timeout: 120_000 },
    async () => {
      await writeFile(path.join(out(), 'skills/invoice-reconciler/stray.html'), '<p>not ours</p>');
      await keepPrevious();
      const result = (await build(warm, out())).result!;
      // Its pages come from the cache instead: nothing is rendered again.
      expect(result.site!.skill_pages).toEqual({ rendered: 0, reused: 6, moved: 5 });
      const files = await digests(out());
      expect(files['skills/invoice-reconciler/stray.html']).toBeUndefined();
      expect(files).toEqual((await coldBuild(previous())).files);
    },
  );

  it('renders every page again for another base URL', { timeout: 120_000 }, async () => {
    const result = (await build(warm, out(), true, ['--base', '/catalog/'])).result!;
    expect(result.site!.skill_pages).toEqual({ rendered: 6, reused: 0, moved: 0 });
    expect(result.site!.file_views.reused).toBe(0);
    expect(
      await readFile(path.join(out(), 'skills/pdf-toolkit/files/scripts/extract.py/index.html'), 'utf8'),
    ).toContain('href="/catalog/');
    await build(warm, out());
  });

  it('gives the same output when the cache is deleted', { timeout: 120_000 }, async () => {
    await keepPrevious();
    await rm(path.join(warm, '.cache'), { recursive: true, force: true });
    const result = (await build(warm, out())).result!;
    expect(result.site).toMatchObject({
      rendered: 6,
      cached: 0,
      skill_pages: { reused: 0 },
      file_views: { reused: 0 },
    });
    // Every file page made again, from the stored files the unchanged skills keep in the output
    // being replaced (moved into the new feed after the site is built).
    expect(result.reused.file_folders).toBe(6);
    expect(await digests(out())).toEqual((await coldBuild(previous())).files);
  });
});
