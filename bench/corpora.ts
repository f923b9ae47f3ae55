/**
 * The corpus check (issue 13): build every catalog in a folder of catalogs (each immediate
 * sub-folder is one, e.g. a public skills repository checked out) as a new user would, check
 * every published file, archive and discovery entry against its digest, and print per catalog:
 * SKILL.md files found, skills published, copies merged, skills left out (with the rule), the
 * exit code, and build seconds for the feeds only and with the site.
 *
 *   npm run bench:corpora -- <folder of catalogs> [--feeds-only]
 *
 * Each build runs cold in its own process (bench/lib/measure-build.ts) with the default
 * configuration, lenient as `skillpress build` is. The catalogs are read, never changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildResult } from '../src/build.ts';
import { DEFAULT_IGNORE, ignoreMatcher } from '../src/lib/ignore.ts';
import { table } from './lib/table.ts';
import { verifyOutput } from './lib/verify-output.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const feedsOnly = args.includes('--feeds-only');
const root = args.find((a) => !a.startsWith('--'));

interface Built {
  seconds: number;
  result: BuildResult;
}

/** Build `skills` into `out` in a fresh process; the exit code is what `skillpress build` would give. */
function measureBuild(skills: string, out: string, site: boolean): Built {
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [path.join(here, 'lib/measure-build.ts'), skills, out, ...(site ? ['--site'] : [])],
    { encoding: 'utf8', env: { ...process.env, CI: 'true' }, maxBuffer: 1 << 30 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`build of ${skills} crashed (${r.status}): ${r.stderr.slice(-2000)}`);
  const { result } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { result: BuildResult };
  return { seconds, result };
}

/** Files named SKILL.md below `dir`, skipping what the loader ignores and never following links. */
function countSkillMd(dir: string): number {
  const ignore = ignoreMatcher(DEFAULT_IGNORE);
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !ignore.dir(e.name)) n += countSkillMd(path.join(dir, e.name));
    else if (e.name === 'SKILL.md' && (e.isFile() || e.isSymbolicLink())) n++;
  }
  return n;
}

/** Skills left out, by folder: the rules of their errors. */
function leftOut(result: BuildResult): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of result.problems.filter((x) => x.severity === 'error'))
    out.set(p.skill, [...new Set([...(out.get(p.skill) ?? []), p.rule])]);
  return out;
}

const count = (result: BuildResult, rule: string): number => result.problems.filter((p) => p.rule === rule).length;

/** Copies left out as committed twice: a `duplicate-copy` warning says "committed N times". */
function copiesMerged(result: BuildResult): number {
  return result.problems
    .filter((p) => p.rule === 'duplicate-copy')
    .reduce((n, p) => n + Number(/committed (\d+) times/.exec(p.message)?.[1] ?? 1) - 1, 0);
}

function byRule(left: Map<string, string[]>): string {
  const rules = new Map<string, number>();
  for (const list of left.values()) for (const r of list) rules.set(r, (rules.get(r) ?? 0) + 1);
  return [...rules].map(([r, n]) => `${r} ×${n}`).join(', ') || '—';
}

if (!root) {
  console.log('usage: npm run bench:corpora -- <folder of catalogs> [--feeds-only]   (skipped: no folder given)');
  process.exit(0);
}

const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-corpora-'));
try {
  const catalogs = readdirSync(root)
    .filter((name) => statSync(path.join(root, name)).isDirectory())
    .sort();
  const rows: string[][] = [];
  const details: string[] = [];
  for (const name of catalogs) {
    const skills = path.join(root, name);
    const feeds = measureBuild(skills, path.join(work, `${name}-feeds`), false);
    const verified = await verifyOutput(path.join(work, `${name}-feeds`));
    const site = feedsOnly ? undefined : measureBuild(skills, path.join(work, `${name}-site`), true);
    const left = leftOut(feeds.result);
    const r = feeds.result;
    rows.push([
      name,
      String(countSkillMd(skills)),
      String(r.skills),
      String(copiesMerged(r)),
      String(count(r, 'name-normalized')),
      `${left.size} (${byRule(left)})`,
      String(r.withheld),
      r.ok ? '0' : '1',
      feeds.seconds.toFixed(1),
      site ? site.seconds.toFixed(1) : '—',
      `${verified.checked} / ${verified.mismatches.length}`,
    ]);
    for (const [folder, rules] of left) details.push(`${name}: ${folder}: ${rules.join(', ')}`);
    for (const m of verified.mismatches.slice(0, 10)) details.push(`${name}: MISMATCH ${m}`);
    rmSync(path.join(work, `${name}-feeds`), { recursive: true, force: true });
    rmSync(path.join(work, `${name}-site`), { recursive: true, force: true });
  }
  console.log(
    `\nskillpress build (lenient, default config), each catalog cold in its own process; Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    table(
      [
        'catalog',
        'SKILL.md',
        'published',
        'copies merged',
        'names normalized',
        'left out (rule)',
        'withheld',
        'exit',
        'feeds s',
        'with site s',
        'digests checked / mismatched',
      ],
      rows,
    ),
  );
  if (details.length > 0) console.log(`\nleft out, and mismatches:\n${details.join('\n')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
