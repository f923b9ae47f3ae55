/**
 * The cache-tampering cases of `bench:hostile`: whoever can write to `.cache/` (a CI cache
 * restored from another run) tries to get a build to publish bytes it did not make. A catalog is
 * built with the site (a cold build, then a warm rebuild for reference); each attack then alters
 * `.cache/` and rebuilds, and the output is checked against what a build from nothing publishes.
 * Figures: whether the tampered bytes reached the output, the warnings naming refused entries,
 * and the rebuild's time against the warm rebuild and the cold build.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../scripts/skillpress.mjs', import.meta.url));
const SKILLS = 30;
const sha = (b: string | Buffer): string => createHash('sha256').update(b).digest('hex');

interface Run {
  seconds: number;
  /** Lines of stderr that name a refused cache entry or folder. */
  warnings: string[];
}

function build(cwd: string, skills: string, out: string, site: boolean, env: Record<string, string> = {}): Run {
  const started = performance.now();
  const args = [BIN, 'build', '--skills', skills, '--out', out, ...(site ? [] : ['--no-site'])];
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true', ...env } });
  if (r.status !== 0) throw new Error(`build failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const warnings = r.stderr.split('\n').filter((l) => l.startsWith('cache: '));
  return { seconds: (performance.now() - started) / 1000, warnings };
}

function makeCatalog(skills: string): void {
  for (let s = 0; s < SKILLS; s++) {
    const dir = path.join(skills, `skill-${s}`);
    mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: skill-${s}\ndescription: Skill ${s} of the cache bench.\n---\n\n# Skill ${s}\n\nSee [notes](notes.txt).\n`,
    );
    writeFileSync(path.join(dir, 'notes.txt'), `notes of skill ${s}\n`.repeat(50));
    writeFileSync(path.join(dir, 'scripts', 'run.js'), `console.log(${s});\n`);
  }
}

const cacheNames = (work: string, sub: string): string[] =>
  readdirSync(path.join(work, '.cache', sub)).filter((n) => !n.startsWith('.'));

interface Attack {
  name: string;
  site: boolean;
  /** Alter the cache (or the folder's `.cache`); returns the check of the output after the rebuild. */
  tamper: (work: string, out: string) => () => boolean;
  env?: Record<string, string>;
}

const ATTACKS: Attack[] = [
  {
    name: 'raw file renamed to the digest of evil bytes',
    site: false,
    tamper: (work, out) => {
      const honest = readFileSync(path.join(out, 'feed/v1/files/skill-0/notes.txt'));
      rmSync(path.join(work, '.cache/feed/files', `${sha(honest)}.${sha(honest)}`));
      writeFileSync(path.join(work, '.cache/feed/files', `${sha(honest)}.${sha('evil')}`), 'evil');
      return () => readFileSync(path.join(out, 'feed/v1/files/skill-0/notes.txt')).equals(honest);
    },
  },
  {
    name: 'archive gains a file (digest recomputed, tag kept)',
    site: false,
    tamper: (work, out) => {
      const archive = path.join(out, '.well-known/agent-skills/skill-0.tar.gz');
      const honest = sha(readFileSync(archive));
      const name = cacheNames(work, 'feed/archives').find((n) => n.split('.')[1] === honest)!;
      const [key, , tag] = name.split('.');
      const evil = Buffer.concat([readFileSync(archive), Buffer.from('an extra file')]);
      rmSync(path.join(work, '.cache/feed/archives', name));
      writeFileSync(path.join(work, '.cache/feed/archives', `${key}.${sha(evil)}.${tag}`), evil);
      return () => sha(readFileSync(archive)) === honest;
    },
  },
  {
    name: 'rendered SKILL.md with <script src> (unsigned)',
    site: true,
    tamper: (work, out) => {
      const dir = path.join(work, '.cache/site/skill-html');
      for (const name of cacheNames(work, 'site/skill-html')) {
        const html = `${readFileSync(path.join(dir, name), 'utf8')}<script src="/feed/v1/files/skill-0/scripts/run.js"></script>`;
        rmSync(path.join(dir, name));
        writeFileSync(path.join(dir, `${name.split('.')[0]}.${sha(html)}`), html);
      }
      return () =>
        !readFileSync(path.join(out, 'skills/skill-0/index.html'), 'utf8').includes('scripts/run.js"></script>');
    },
  },
  {
    name: 'raw file entry is a symbolic link',
    site: false,
    tamper: (work, out) => {
      const honest = readFileSync(path.join(out, 'feed/v1/files/skill-1/notes.txt'));
      const target = path.join(work, 'outside.txt');
      writeFileSync(target, honest);
      const entry = path.join(work, '.cache/feed/files', `${sha(honest)}.${sha(honest)}`);
      rmSync(entry);
      symlinkSync(target, entry);
      return () => lstatSync(path.join(out, 'feed/v1/files/skill-1/notes.txt')).isFile();
    },
  },
  {
    name: 'cache folder feed/archives is a symbolic link',
    site: false,
    tamper: (work) => {
      const elsewhere = path.join(work, 'elsewhere');
      mkdirSync(elsewhere, { recursive: true });
      rmSync(path.join(work, '.cache/feed/archives'), { recursive: true });
      symlinkSync(elsewhere, path.join(work, '.cache/feed/archives'));
      return () => readdirSync(elsewhere).length === 0;
    },
  },
  {
    name: 'CI cache restored, built with another key (every derived entry unsigned for it)',
    site: true,
    env: { SKILLPRESS_CACHE_KEY: 'another-machine-or-workflow-key-0123456789' },
    tamper: () => () => true,
  },
];

/** Run every attack on a fresh copy of the warm cache; the rows of the table. */
export function cacheTamperRows(work: string): { rows: string[][]; header: string[]; note: string } {
  const base = path.join(work, 'cache-bench');
  const skills = path.join(base, 'skills');
  makeCatalog(skills);
  const ref = path.join(base, 'ref');
  mkdirSync(ref, { recursive: true });
  const cold = build(ref, skills, path.join(ref, 'out'), true).seconds;
  const warm = { site: build(ref, skills, path.join(ref, 'out'), true).seconds, feed: 0 };
  const rows: string[][] = [];
  for (const [i, attack] of ATTACKS.entries()) {
    // Each attack on its own copy of the warm folder, so none sees another's damage.
    const cwd = path.join(base, `attack-${i}`);
    cpSync(ref, cwd, { recursive: true, verbatimSymlinks: true });
    const out = path.join(cwd, 'out');
    if (!attack.site && warm.feed === 0) warm.feed = build(cwd, skills, out, false).seconds;
    const check = attack.tamper(cwd, out);
    const run = build(cwd, skills, out, attack.site, attack.env);
    rows.push([
      attack.name,
      check() ? 'no' : 'YES',
      String(run.warnings.length),
      run.seconds.toFixed(2),
      (attack.site ? warm.site : warm.feed).toFixed(2),
      cold.toFixed(2),
    ]);
    rmSync(cwd, { recursive: true, force: true });
  }
  rmSync(base, { recursive: true, force: true });
  return {
    header: [
      'attack on .cache/',
      'tampered bytes published',
      'warnings',
      'rebuild s',
      'warm rebuild s',
      'cold build s',
    ],
    rows,
    note: `${SKILLS} skills (SKILL.md, notes.txt, scripts/run.js each), built with the site; "warm rebuild" is the same build (with or without the site, as the attack's rebuild) on the untouched cache; every build through the CLI in its own process`,
  };
}
