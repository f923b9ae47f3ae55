/**
 * `skillpress validate` as a user runs it: the real binary in a child process, on folders of
 * skills built in a temp dir. Checks exit codes (0 valid, 1 invalid, 2 usage), that every
 * broken skill folder is named with its rule, and the --json output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidationSummary } from '../../src/cli/commands/validate.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');

function skillpress(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(node, [path.join(repo, 'scripts/skillpress.mjs'), ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const front = (fields: string, body = 'Body\n'): string => `---\n${fields}\n---\n${body}`;

let tmp: string;
let broken: string;
let edges: string;
let warnings: string;

async function put(root: string, rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

/** Broken skill folders, each with the rule that must be reported for it (in either mode). */
const BROKEN: Record<string, { skillMd: string; rule: string; lenient: 'error' | 'warning'; lenientRule?: string }> = {
  'missing-front-matter': {
    skillMd: '# Just markdown, no front matter\n',
    rule: 'frontmatter-missing',
    lenient: 'error',
  },
  'bad-yaml': {
    skillMd: front('name: bad-yaml\ndescription: [never closed'),
    rule: 'frontmatter-yaml',
    lenient: 'error',
  },
  'folder-name': {
    skillMd: front('name: another-name\ndescription: The name is not the folder name.'),
    rule: 'name-matches-folder',
    lenient: 'warning',
  },
  Uppercase: {
    skillMd: front('name: Uppercase\ndescription: An uppercase name.'),
    rule: 'name-lowercase',
    lenient: 'warning',
    lenientRule: 'name-normalized',
  },
  'double--hyphen': {
    skillMd: front('name: double--hyphen\ndescription: Two hyphens in a row.'),
    rule: 'name-double-hyphen',
    lenient: 'warning',
    lenientRule: 'name-normalized',
  },
  ['n'.repeat(65)]: {
    skillMd: front(`name: ${'n'.repeat(65)}\ndescription: A 65-character name.`),
    rule: 'name-length',
    lenient: 'warning',
  },
  'long-description': {
    skillMd: front(`name: long-description\ndescription: ${'é'.repeat(1025)}`),
    rule: 'description-length',
    lenient: 'warning',
  },
  'missing-description': {
    skillMd: front('name: missing-description'),
    rule: 'description-required',
    lenient: 'error',
  },
  'empty-description': {
    skillMd: front('name: empty-description\ndescription: ""'),
    rule: 'description-required',
    lenient: 'error',
  },
  'long-compatibility': {
    skillMd: front(`name: long-compatibility\ndescription: Too much compatibility.\ncompatibility: ${'c'.repeat(501)}`),
    rule: 'compatibility-length',
    lenient: 'warning',
  },
  'escaping-symlink': {
    skillMd: front('name: escaping-symlink\ndescription: Links outside its folder.'),
    rule: 'symlink-escape',
    lenient: 'error',
  },
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cli-'));
  broken = path.join(tmp, 'broken');
  for (const [folder, { skillMd }] of Object.entries(BROKEN)) await put(broken, `${folder}/SKILL.md`, skillMd);
  await writeFile(path.join(tmp, 'outside.txt'), 'not part of any skill');
  await symlink(path.join(tmp, 'outside.txt'), path.join(broken, 'escaping-symlink', 'outside.txt'));

  // Right at every limit, in characters not bytes: all valid.
  edges = path.join(tmp, 'edges');
  await put(
    edges,
    `${'a'.repeat(64)}/SKILL.md`,
    front(`name: ${'a'.repeat(64)}\ndescription: ${'é'.repeat(1024)}\ncompatibility: ${'ü'.repeat(500)}`),
  );
  await put(edges, 'x/SKILL.md', front('name: x\ndescription: "\\u00e9"'));

  // Valid skills that still deserve warnings, plus one duplicate name.
  warnings = path.join(tmp, 'warnings');
  await put(
    warnings,
    'linker/SKILL.md',
    front(
      'name: linker\ndescription: Links to files.',
      '# Linker\n\nRead [the guide](references/guide.md).\n\nThen [the missing one](references/missing.md).\n',
    ),
  );
  await put(warnings, 'linker/references/guide.md', '# Guide\n');
  await put(
    warnings,
    'long-skill/SKILL.md',
    front(
      'name: long-skill\ndescription: A very long SKILL.md.',
      Array.from({ length: 600 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
    ),
  );
  await put(warnings, 'dup-name/SKILL.md', front('name: dup-name\ndescription: The first of two.'));
  await put(warnings, 'team/dup-name/SKILL.md', front('name: dup-name\ndescription: The second of two.'));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Output lines about one skill folder. */
const linesFor = (stdout: string, root: string, folder: string): string[] =>
  stdout.split('\n').filter((l) => l.startsWith(`${root}/${folder}/`));

describe('skillpress validate', () => {
  it('exits 0 on the bundled skills', () => {
    const r = skillpress('validate', 'skills');
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(
      /^valid \(lenient\): \d+ valid skill\(s\), \d+ file\(s\); 0 invalid skill\(s\); 0 error\(s\)/m,
    );
  });

  it('runs as `npx skillpress validate skills` through the package bin', () => {
    const r = spawnSync('npx', ['--no-install', 'skillpress', 'validate', 'skills'], {
      cwd: repo,
      encoding: 'utf8',
      // The first npx of a checkout links it into npm's npx cache and would run its `prepare`:
      // lib/ rebuilt here while other tests run the CLI from it.
      env: { ...process.env, CI: 'true', npm_config_ignore_scripts: 'true' },
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^valid \(lenient\)/m);
  });

  // The machine's own Node (not the Node 22 `npm run` gives): an old one gets a clear message.
  const systemNode = spawnSync('/usr/bin/env', ['node', '--version'], {
    encoding: 'utf8',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  }).stdout.trim();
  const [major = 0, minor = 0] = systemNode.replace(/^v/, '').split('.').map(Number);
  it.skipIf(!systemNode || major > 22 || (major === 22 && minor >= 18))(
    `says which Node it needs when run on an older one (${systemNode || 'none'})`,
    () => {
      const r = spawnSync('/usr/bin/env', ['node', path.join(repo, 'scripts/skillpress.mjs'), 'validate', 'skills'], {
        cwd: repo,
        encoding: 'utf8',
        env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/needs Node\.js 22\.18 or later; this is v/);
    },
  );

  it.skipIf(!systemNode || major > 22 || (major === 22 && minor >= 18))(
    `installed in a project, tells an older Node (${systemNode || 'none'}) how to get Node 22 there, not the repository's npm scripts`,
    () => {
      // The check runs before anything is imported: the bin alone, where npm installs it, shows it.
      const project = mkdtempSync(path.join(tmpdir(), 'skillpress-old-node-'));
      try {
        const bin = path.join(project, 'node_modules/skillpress/scripts/skillpress.mjs');
        mkdirSync(path.dirname(bin), { recursive: true });
        copyFileSync(path.join(repo, 'scripts/skillpress.mjs'), bin);
        const r = spawnSync('/usr/bin/env', ['node', bin, '--version'], {
          cwd: project,
          encoding: 'utf8',
          env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
        });
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/needs Node\.js 22\.18 or later; this is v.*npm install -D node@22/);
        expect(r.stderr).not.toMatch(/In the repository/);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  it('exits 1 on broken skills and names every broken folder with its rule', () => {
    const r = skillpress('validate', broken);
    expect(r.code).toBe(1);
    for (const [folder, { rule, lenient, lenientRule }] of Object.entries(BROKEN)) {
      const lines = linesFor(r.stdout, broken, folder);
      expect(
        lines.some((l) => l.includes(`: ${lenient} [${lenientRule ?? rule}]`)),
        `${folder}: ${rule}\n${r.stdout}`,
      ).toBe(true);
    }
    expect(r.stdout).toMatch(
      /^invalid \(lenient\): 6 valid skill\(s\), 6 file\(s\); 5 invalid skill\(s\); 5 error\(s\), 6 warning\(s\)$/m,
    );
  });

  it('counts the problems by rule before the verdict, errors first, as many as it printed', () => {
    const text = skillpress('validate', broken).stdout.trimEnd().split('\n');
    const { problems } = JSON.parse(skillpress('validate', broken, '--json').stdout) as {
      problems: Array<{ severity: string; rule: string }>;
    };
    expect(text.at(-1)).toMatch(/^invalid \(lenient\): /);
    const tally = /^by rule: errors: (.+); warnings: (.+)$/.exec(text.at(-2)!)!;
    expect(tally, text.at(-2)).not.toBeNull();
    const counted = (list: string, severity: string): void => {
      const entries = list.split(', ').map((e) => e.split(' '));
      for (const [rule, n] of entries)
        expect(Number(n), rule).toBe(problems.filter((p) => p.severity === severity && p.rule === rule).length);
      expect(entries.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(
        problems.filter((p) => p.severity === severity).length,
      );
      expect(entries.map(([, n]) => Number(n))).toEqual(entries.map(([, n]) => Number(n)).sort((a, b) => b - a));
    };
    counted(tally[1]!, 'error');
    counted(tally[2]!, 'warning');
  });

  it('--quiet lists the errors only, and its tally and verdict still count every warning', () => {
    const full = skillpress('validate', broken).stdout.trimEnd().split('\n');
    const r = skillpress('validate', broken, '--quiet');
    expect(r.code).toBe(1);
    const quiet = r.stdout.trimEnd().split('\n');
    const problemsOf = (lines: string[]) => lines.filter((l) => /: (error|warning) \[/.test(l));
    expect(problemsOf(full).some((l) => l.includes(': warning ['))).toBe(true);
    expect(problemsOf(quiet)).toEqual(problemsOf(full).filter((l) => l.includes(': error [')));
    expect(quiet.slice(-2)).toEqual(full.slice(-2));
  });

  it('in --strict mode every broken folder is an error', () => {
    const r = skillpress('validate', broken, '--strict');
    expect(r.code).toBe(1);
    for (const [folder, { rule }] of Object.entries(BROKEN)) {
      expect(
        linesFor(r.stdout, broken, folder).some((l) => l.includes(`: error [${rule}]`)),
        `${folder}: ${rule}\n${r.stdout}`,
      ).toBe(true);
    }
    expect(r.stdout).toMatch(/^invalid \(strict\): 0 valid skill\(s\), 0 file\(s\); 11 invalid skill\(s\)/m);
  });

  it('gives file, line, field and an actionable message', () => {
    const r = skillpress('validate', broken);
    expect(skillpress('validate', broken, '--strict').stdout).toContain(
      `${broken}/Uppercase/SKILL.md:2: error [name-lowercase] name: name "Uppercase" must be lowercase: use "uppercase"`,
    );
    expect(r.stdout).toContain(
      `${broken}/Uppercase/SKILL.md:2: warning [name-normalized] name: name "Uppercase" is not a valid skill name (name-lowercase); the skill is published as "uppercase" (the name normalized) with "Uppercase" as its title`,
    );
    expect(r.stdout).toContain(`${broken}/bad-yaml/SKILL.md:3: error [frontmatter-yaml]`);
    expect(r.stdout).toContain(
      `${broken}/long-description/SKILL.md:3: warning [description-length] description: description is 1025 characters; the limit is 1024`,
    );
    expect(r.stdout).toContain(`${broken}/escaping-symlink/outside.txt: error [symlink-escape]`);
  });

  it('counts characters, not bytes: limits of multibyte text are valid', () => {
    const r = skillpress('validate', edges, '--strict');
    expect(r.stdout).toMatch(/^valid \(strict\): 2 valid skill\(s\)/m);
    expect(r.code).toBe(0);
  });

  it('warns about missing link targets (with the line) and long SKILL.md; errors on duplicate names', () => {
    const r = skillpress('validate', warnings);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${warnings}/linker/SKILL.md:9: warning [link-target-exists]`);
    expect(r.stdout).not.toContain('guide.md" points to no file');
    expect(r.stdout).toContain(`${warnings}/long-skill/SKILL.md:501: warning [skill-md-lines]`);
    expect(r.stdout).toMatch(
      new RegExp(
        `^${warnings}/team/dup-name/SKILL.md:2: error \\[name-unique\\] name: name "dup-name" is already used by the skill in "dup-name"`,
        'm',
      ),
    );
  });

  it('skills.precedence settles a name two sources share: a warning naming both folders, exit 0', async () => {
    const sources = path.join(tmp, 'sources');
    await put(sources, 'acme/dup-name/SKILL.md', front('name: dup-name\ndescription: Acme changed it.'));
    await put(sources, 'upstream/dup-name/SKILL.md', front('name: dup-name\ndescription: The original.'));
    await writeFile(path.join(sources, 'skillpress.json'), JSON.stringify({ skills: { precedence: ['upstream'] } }));
    const r = skillpress('validate', sources, '--config', sources);
    expect(r.stdout).toMatch(
      new RegExp(
        `^${sources}/acme/dup-name/SKILL.md:2: warning \\[name-shadowed\\] name: name "dup-name" is also used by the skill in "upstream/dup-name"`,
        'm',
      ),
    );
    expect(r.code).toBe(0);
  });

  it('--json prints the summary and every problem', () => {
    const r = skillpress('validate', broken, '--json');
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.stdout) as ValidationSummary;
    expect(summary).toMatchObject({ valid: false, mode: 'lenient', root: broken });
    expect(summary.invalid.sort()).toEqual([
      'bad-yaml',
      'empty-description',
      'escaping-symlink',
      'missing-description',
      'missing-front-matter',
    ]);
    for (const [folder, { rule, lenientRule }] of Object.entries(BROKEN)) {
      expect(summary.problems).toContainEqual(
        expect.objectContaining({
          skill: folder,
          rule: lenientRule ?? rule,
          file: expect.any(String),
          message: expect.any(String),
        }),
      );
    }
    expect(summary.errors + summary.warnings).toBe(summary.problems.length);
  });

  it('exits 2 on usage errors', () => {
    for (const args of [
      ['validate', '--no-such-flag'],
      ['validate', 'a', 'b'],
      ['validate', path.join(tmp, 'does-not-exist')],
    ]) {
      const r = skillpress(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: skillpress validate');
    }
    expect(skillpress('validate', '--skils', broken).stderr).toContain(
      'unknown option --skils (options: --skills, --strict, --quiet, --json, --config)',
    );
    expect(skillpress('validate', path.join(tmp, 'does-not-exist')).stderr).toContain('does-not-exist: not a folder');
  });

  it('takes the folder as --skills too, as build, dev and ingest do', () => {
    const r = skillpress('validate', '--skills', broken);
    expect(r.code).toBe(1);
    expect(linesFor(r.stdout, broken, 'bad-yaml')).toHaveLength(1);
    expect(skillpress('validate', '--skills', broken, broken).code).toBe(1);
  });

  it('refuses two different skills folders rather than pick one', () => {
    const r = skillpress('validate', '--skills', broken, path.join(tmp, 'other'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`two skills folders: --skills ${broken} and ${path.join(tmp, 'other')}; give one`);
  });
});
