/**
 * `skillpress validate` and `build` as a user runs them, on hostile skill folders made here
 * (issue 11): thousands of files under a low `ulimit -n`, file names that would forge problem
 * lines or drive the terminal, an output folder inside the skills folder; and a ZIP64 archive
 * read by `unzip -t` and Python's zipfile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildJson } from '../../src/cli/commands/build.ts';
import type { ValidationSummary } from '../../src/cli/commands/validate.ts';
import { zip } from '../../src/emit/feed/index.ts';
import { plainSkillMd as front, write as put } from '../feed/fixture.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');
const cli = path.join(repo, 'scripts/skillpress.mjs');

/** Runs the CLI under `ulimit -n <openFiles>` (through sh, as a user's shell would set it). */
function skillpress(args: string[], openFiles = 1024): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-c', `ulimit -n ${openFiles} && exec "$@"`, 'sh', node, cli, ...args], {
    cwd: tmp,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let tmp: string;

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-hostile-cli-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('skillpress build', () => {
  it('builds 20 skills of 150 files and one of 3,000 under ulimit -n 256', () => {
    const skills = path.join(tmp, 'many');
    for (let s = 0; s < 20; s++) {
      put(skills, `s${s}/SKILL.md`, front(`s${s}`));
      for (let i = 0; i < 150; i++) put(skills, `s${s}/refs/${i}.md`, `reference ${s}.${i}\n`);
    }
    put(skills, 'big/SKILL.md', front('big'));
    for (let i = 0; i < 3000; i++) put(skills, `big/f/${i}.txt`, `file ${i}\n`);
    const out = path.join(tmp, 'many-out');
    const r = skillpress(['build', '--skills', skills, '--out', out, '--no-site', '--json'], 256);
    expect(r.code, r.stderr + r.stdout.slice(0, 2000)).toBe(0);
    const result = JSON.parse(r.stdout) as BuildJson;
    expect(result).toMatchObject({ ok: true, skills: 21, files: 20 * 151 + 3001, problems: [] });
    expect(readdirSync(path.join(out, 'feed/v1/files/big/f'))).toHaveLength(3000);
  });

  it('refuses an output folder inside a skill folder with exit 2', () => {
    const skills = path.join(tmp, 'inside');
    put(skills, 'a/SKILL.md', front('a'));
    const r = skillpress(['build', '--skills', skills, '--out', path.join(skills, 'a/dist'), '--no-site']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is inside the skill folder');
  });
});

describe('problem lines', () => {
  const NAMES = [
    'evil\nSKILL.md:1: error [pwned] forged.md',
    'esc\u001b[2J\u001b[31mred.md',
    'tab\tname.md',
    'del\u007f.md',
    'c:notes.txt',
  ];

  it('escape newline, ESC, tab and DEL in file names; --json keeps them exact', () => {
    const skills = path.join(tmp, 'names');
    put(skills, 'names/SKILL.md', front('names'));
    for (const n of NAMES) put(skills, `names/${n}`, 'x\n');
    const text = skillpress(['validate', skills]);
    expect(text.code).toBe(0);
    // Nothing but newlines ends or drives a line, and every line is a problem of this folder or the summary.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(NAMES.length + 2);
    for (const line of lines.slice(0, -2)) expect(line).toMatch(new RegExp(`^"?${skills}/names/`));
    expect(lines.at(-2)).toBe(`by rule: warnings: path-unpublishable ${NAMES.length}`);
    expect(lines.at(-1)).toMatch(/^valid \(lenient\): 1 valid skill\(s\), 1 file\(s\)/);
    expect(text.stdout).toContain(
      `"${skills}/names/evil\\nSKILL.md:1: error [pwned] forged.md": warning [path-unpublishable]`,
    );
    expect(text.stdout).toContain('esc\\u001b[2J\\u001b[31mred.md');
    expect(text.stdout).toContain('del\\u007f.md');

    const json = JSON.parse(skillpress(['validate', skills, '--json']).stdout) as ValidationSummary;
    expect(json.problems.map((p) => p.file).sort()).toEqual([...NAMES].sort());

    const build = skillpress(['build', '--skills', skills, '--out', path.join(tmp, 'names-out'), '--no-site']);
    expect(build.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(build.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(build.stdout).toContain('tab\\tname.md');
  });
});

describe('ZIP64', () => {
  it.skipIf(!has('unzip') || !has('python3'))(
    'an archive of 66,000 entries passes unzip -t and Python zipfile',
    async () => {
      const entries = Array.from({ length: 66_000 }, (_, i) => ({
        path: i === 0 ? 'SKILL.md' : `d${i % 66}/f${i}.txt`,
        bytes: Buffer.from(`file ${i}\n`.repeat((i % 7) + 1)),
      }));
      const file = path.join(tmp, 'big.zip');
      writeFileSync(file, await zip(entries, 1_700_000_000));
      const unzip = spawnSync('unzip', ['-tq', file], { encoding: 'utf8' });
      expect(unzip.status, unzip.stdout + unzip.stderr).toBe(0);
      const script =
        'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(len(z.namelist()), z.read("d65/f65999.txt").decode().count("file"))';
      const python = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(python.stderr).toBe('');
      expect(python.stdout.trim()).toBe(`66000 ${(65999 % 7) + 1}`);
    },
  );
});
