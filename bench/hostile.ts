/**
 * What the worst inputs of issue 11 cost to build: long runs of one character at the size
 * limit, random text at the size limit, 10,000 files in one skill, 66,000 files in one skill
 * (a ZIP64 archive). Each case is generated into a temp folder and built cold in its own
 * process (`build()` with the feed, archives and search index, no site) under `ulimit -n 1024`.
 *
 *   npm run bench:hostile              # every case
 *   npm run bench:hostile -- runs 10k  # chosen cases (runs, random, 10k, 66k)
 *   npm run bench:hostile -- routing --catalogs <dir>   # a keyword-stuffed skill in six public catalogs
 *
 * Baselines measured in the same run on the same files: reading and sha256-hashing every file
 * (what any tool that looks at the bytes must do), and writing a copy of every file (the floor
 * of a feed that publishes each file as its own URL). "fixed" is the build of a one-skill
 * catalog: Node start-up, module loading, the tokenizer's tables. Goals: the build within 3×
 * of hashing the same bytes (past the fixed cost), peak RSS under 500 MB. The 66,000-file
 * archive is checked with `unzip -t` and Python's zipfile when they are installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildResult } from '../src/build.ts';
import { xorshift32 } from './lib/prng.ts';
import { table } from './lib/table.ts';
import { stuffedRouting } from './lib/stuffed-routing.ts';
import { cacheTamperRows } from './hostile-cache.ts';

const MIB = 1024 * 1024;
const TIME_GOAL = 3;
const RSS_GOAL_MB = 500;
const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-hostile-'));

const front = (name: string, body: string): string =>
  `---\nname: ${name}\ndescription: The ${name} case of bench/hostile.ts.\n---\n${body}`;

function put(root: string, rel: string, data: string): void {
  const abs = path.join(root, ...rel.split('/'));
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, data);
}

function randomText(seed: number, chars: number, alphabet: string): string {
  const next = xorshift32(seed);
  let s = '';
  for (let i = 0; i < chars; i++) s += alphabet[next() % alphabet.length];
  return s;
}

/** Case names, and `--catalogs <dir>` (the public catalogs the routing case needs). */
function caseArgs(argv: string[]): { wanted: string[]; catalogs: string | undefined } {
  const at = argv.indexOf('--catalogs');
  if (at < 0) return { wanted: argv, catalogs: undefined };
  return { wanted: argv.filter((_, i) => i !== at && i !== at + 1), catalogs: argv[at + 1] };
}

/**
 * The routing case: a keyword-stuffed skill in the six public repositories (bench/lib/stuffed-routing.ts).
 * Runs when asked for (`routing`), or with every case when `--catalogs` is given; `only`: nothing else was asked for.
 */
async function routingCase(wanted: string[], catalogs: string | undefined, only: boolean): Promise<void> {
  if (!(wanted.includes('routing') || (wanted.length === 0 && catalogs))) return;
  if (!catalogs) throw new Error('the routing case needs --catalogs <folder holding <owner>+<repo>/ catalogs>');
  const rows = await stuffedRouting(path.join(here, '..'), catalogs, work);
  console.log(`
routing: one stuffed skill added to the six public repositories (290 + 1 skills, 259 requests)
`);
  console.log(
    table(
      [
        'stuffed skill',
        "among best_skill's 5 candidates",
        'rule picks it: displacing the right skill',
        '…where none fits',
        'an obedient judge picks it',
      ],
      rows.map((r) => [
        r.variant,
        `${r.candidate}/${r.requests}`,
        String(r.ruleDisplacing),
        String(r.ruleNoneFits),
        `${r.obedient}/${r.requests}`,
      ]),
    ),
  );
  if (only) {
    rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
}

interface Case {
  name: string;
  what: string;
  make: (skills: string) => void;
  /** Check the .zip of this skill with unzip and Python. */
  zipOf?: string;
}

const CASES: Case[] = [
  {
    name: 'runs',
    what: '4 skills, each a SKILL.md body and 8 files that are runs of one character at the 1 MiB limit',
    make: (skills) => {
      for (let s = 0; s < 4; s++) {
        put(skills, `runs-${s}/SKILL.md`, front(`runs-${s}`, 'a'.repeat(MIB - 200)));
        ['a', ' ', '.', '[', '`', '\n', '1'].forEach((c, i) => put(skills, `runs-${s}/run-${i}.txt`, c.repeat(MIB)));
        put(skills, `runs-${s}/run-e.txt`, 'é'.repeat(MIB / 2));
      }
    },
  },
  {
    name: 'random',
    what: '8 files of random letters (no blanks) or CJK at the 1 MiB limit',
    make: (skills) => {
      put(skills, 'random/SKILL.md', front('random', '# Random text\n'));
      for (let i = 0; i < 4; i++)
        put(skills, `random/letters-${i}.txt`, randomText(i + 1, MIB, 'abcdefghijklmnopqrstuvwxyz'));
      for (let i = 0; i < 4; i++) put(skills, `random/cjk-${i}.txt`, randomText(i + 11, MIB / 3, '日本語文字漢字仮名'));
    },
  },
  { name: '10k', what: '10,000 small files in one skill', make: (skills) => manyFiles(skills, 'ten-thousand', 10_000) },
  {
    name: '66k',
    what: '66,000 small files in one skill (ZIP64)',
    make: (skills) => manyFiles(skills, 'sixty-six-thousand', 66_000),
    zipOf: 'sixty-six-thousand',
  },
];

function manyFiles(skills: string, name: string, count: number): void {
  put(skills, `${name}/SKILL.md`, front(name, `# ${name}\n`));
  for (let i = 1; i < count; i++)
    put(skills, `${name}/d${i % 100}/file-${i}.md`, `# File ${i}\n\n${'Some reference text. '.repeat(1 + (i % 8))}\n`);
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Seconds to read and sha256 every file, and the bytes read. */
function hashBaseline(files: string[]): { seconds: number; bytes: number } {
  const started = performance.now();
  let bytes = 0;
  for (const f of files) {
    const data = readFileSync(f);
    bytes += data.byteLength;
    createHash('sha256').update(data).digest();
  }
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Seconds to write a copy of every file into a new folder (each file created). */
function copyBaseline(root: string, files: string[]): number {
  const copy = mkdtempSync(path.join(work, 'copy-'));
  const started = performance.now();
  const made = new Set<string>();
  for (const f of files) {
    const to = path.join(copy, path.relative(root, f));
    const dir = path.dirname(to);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true });
    made.add(dir);
    writeFileSync(to, readFileSync(f));
  }
  const seconds = (performance.now() - started) / 1000;
  rmSync(copy, { recursive: true, force: true });
  return seconds;
}

/** Build `skills` cold in a child process under ulimit -n 1024: wall seconds, peak RSS, result. */
function measureBuild(skills: string, out: string): { seconds: number; rssMB: number; result: BuildResult } {
  const started = performance.now();
  const r = spawnSync(
    'sh',
    ['-c', 'ulimit -n 1024 && exec "$@"', 'sh', process.execPath, path.join(here, 'lib/measure-build.ts'), skills, out],
    { encoding: 'utf8', env: { ...process.env, CI: 'true' }, maxBuffer: 1 << 30 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`build of ${skills} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const { rssMB, result } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { rssMB: number; result: BuildResult };
  return { seconds, rssMB, result };
}

function zipCheck(file: string): string {
  const ok = (cmd: string, args: string[]): string => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return r.error ? 'n/a' : r.status === 0 ? 'ok' : 'FAILED';
  };
  const python =
    'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(len(z.namelist()))';
  return `unzip -t ${ok('unzip', ['-tq', file])}, python ${ok('python3', ['-c', python, file])}`;
}

const { wanted, catalogs } = caseArgs(process.argv.slice(2));
const cases = CASES.filter((c) => wanted.length === 0 || wanted.includes(c.name));
await routingCase(wanted, catalogs, cases.length === 0);

/** The cache-tampering cases (`npm run bench:hostile -- cache`), in bench/hostile-cache.ts. */
function printCacheTampering(): void {
  const { header, rows, note } = cacheTamperRows(work);
  console.log(`\n${table(header, rows)}\n\n${note}`);
}
try {
  const fixedDir = mkdtempSync(path.join(work, 'fixed-'));
  put(fixedDir, 'one/SKILL.md', front('one', '# One\n'));
  const fixed = measureBuild(fixedDir, path.join(work, 'fixed-out'));
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const c of cases) {
    const skills = path.join(work, c.name);
    c.make(skills);
    const files = filesBelow(skills);
    const hash = hashBaseline(files);
    const copy = copyBaseline(skills, files);
    const out = path.join(work, `${c.name}-out`);
    const built = measureBuild(skills, out);
    if (!built.result.ok)
      notes.push(
        `${c.name}: build reported errors: ${built.result.problems
          .filter((p) => p.severity === 'error')
          .slice(0, 3)
          .map((p) => p.message)
          .join('; ')}`,
      );
    const past = Math.max(built.seconds - fixed.seconds, 0);
    rows.push([
      c.name,
      files.length.toLocaleString('en-US'),
      (hash.bytes / MIB).toFixed(1),
      built.seconds.toFixed(2),
      hash.seconds.toFixed(3),
      copy.toFixed(2),
      (past / hash.seconds).toFixed(1),
      (past / (hash.seconds + copy)).toFixed(2),
      built.rssMB.toFixed(0),
      c.zipOf ? zipCheck(path.join(out, '.well-known/agent-skills', `${c.zipOf}.zip`)) : '',
    ]);
    notes.push(`${c.name}: ${c.what}`);
    rmSync(skills, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
  console.log(
    `\nbuild() cold in its own process (feed, archives, search index; no site), ulimit -n 1024; fixed cost (a one-skill catalog) ${fixed.seconds.toFixed(2)} s, ${fixed.rssMB.toFixed(0)} MB; Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    table(
      [
        'case',
        'files',
        'MiB',
        'build s',
        'hash s',
        'copy s',
        '(build−fixed)/hash',
        '(build−fixed)/(hash+copy)',
        'peak RSS MB',
        'zip',
      ],
      rows,
    ),
  );
  console.log(`\n${notes.join('\n')}`);
  console.log(`goals: (build − fixed) ≤ ${TIME_GOAL}× hash; peak RSS < ${RSS_GOAL_MB} MB`);
  if (wanted.length === 0 || wanted.includes('cache')) printCacheTampering();
} finally {
  rmSync(work, { recursive: true, force: true });
}
