/**
 * `skillpress init` in a user's skills repository (a temp folder outside this one): infers the
 * registry's name and title from the git remote (or the folder), the base from --site-url, writes
 * skillpress.json, the .gitignore lines (once) and the Pages workflow, builds once, and refuses to
 * replace a config without --force.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NODE = path.join(REPO, 'node_modules/.bin/node');
const CLI = path.join(REPO, 'scripts/skillpress.mjs');

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'sp-init-'));
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

async function skillpress(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(NODE, [CLI, ...args], { cwd, env: { ...process.env, CI: 'true' }, timeout: 240_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

async function putSkill(dir: string, folder: string): Promise<void> {
  const name = path.basename(folder);
  await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(
    path.join(dir, folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Use when ${name} is asked.\n---\n\n# ${name}\n`,
  );
}

async function userRepo(name: string, remote?: string): Promise<string> {
  const dir = path.join(tmp, name);
  for (const skill of ['pdf-tools', 'release-notes']) {
    await mkdir(path.join(dir, 'skills', skill), { recursive: true });
    await writeFile(
      path.join(dir, 'skills', skill, 'SKILL.md'),
      `---\nname: ${skill}\ndescription: Use when working with ${skill.replace('-', ' ')}.\n---\n\n# ${skill}\n`,
    );
  }
  await writeFile(path.join(dir, '.gitignore'), 'node_modules\n/dist\n');
  await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir]);
  if (remote) await promisify(execFile)('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
  return dir;
}

describe('skillpress init', () => {
  it('infers the identity from the git remote, writes config, .gitignore and workflow, and builds once', async () => {
    const dir = await userRepo('checkout', 'git@github.com:acme/agent-skills.git');
    const r = await skillpress(
      dir,
      'init',
      '--site-url',
      'https://acme.github.io/agent-skills/',
      '--package',
      'git+https://example.org/skillpress.git',
    );
    expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8'));
    expect(config).toEqual({
      registry: { name: 'acme-agent-skills', title: 'acme/agent-skills', url: 'https://acme.github.io/agent-skills/' },
      skills: { root: 'skills' },
      site: { base: '/agent-skills/' },
    });
    // `/dist` was there already; only `.cache/` is added.
    expect(await readFile(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n/dist\n.cache/\n');
    const workflow = await readFile(path.join(dir, '.github/workflows/skillpress.yml'), 'utf8');
    expect(workflow).toContain('SKILLPRESS_PACKAGE: "git+https://example.org/skillpress.git"');
    expect(workflow).toContain('branches: ["main"]');
    // A shorter secret stops the build: the workflow and init's last steps say how long it must be.
    expect(workflow).toMatch(/secret, at least 32\s+# characters: `openssl rand -hex 32`/);
    expect(r.stdout).toMatch(/Source "GitHub Actions".*SKILLPRESS_CACHE_KEY of at least 32 characters/);
    expect(workflow).toContain('build skills --out dist --base "${{ steps.pages.outputs.base_path }}/"');
    for (const action of [
      'checkout@v6',
      'setup-node@v6',
      'configure-pages@v6',
      'upload-pages-artifact@v5',
      'deploy-pages@v5',
    ])
      expect(workflow).toContain(`actions/${action}`);
    expect(r.stderr).toContain('config: skillpress.json');
    const home = await readFile(path.join(dir, 'dist/index.html'), 'utf8');
    expect(home).toMatch(/<title>[^<]*acme\/agent-skills[^<]*<\/title>/);
    expect(JSON.parse(await readFile(path.join(dir, 'dist/.skillpress.json'), 'utf8')).base).toBe('/agent-skills/');
  }, 240_000);

  it('names the catalog after its folder without a remote, and never duplicates .gitignore lines', async () => {
    const dir = await userRepo('My Skills');
    await writeFile(path.join(dir, '.gitignore'), 'dist/\n.cache/');
    const r = await skillpress(tmp, 'init', dir, '--no-build');
    expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8'));
    expect(config.registry).toEqual({ name: 'my-skills', title: 'My Skills' });
    expect(await readFile(path.join(dir, '.gitignore'), 'utf8')).toBe('dist/\n.cache/');
    expect(r.stdout).toContain('edit SKILLPRESS_PACKAGE');
    expect(existsSync(path.join(dir, 'dist'))).toBe(false);
  });

  it('names a clone whose origin is a path on this machine after its folder, not after that path', async () => {
    for (const [folder, origin] of [
      ['team-clone', '/srv/git/team-skills.git'],
      ['file-clone', 'file:///srv/git/team-skills'],
    ] as const) {
      const dir = await userRepo(folder, origin);
      const r = await skillpress(tmp, 'init', dir, '--no-build');
      expect(r.code, r.stderr).toBe(0);
      const config = JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8'));
      expect(config.registry).toEqual({ name: folder, title: folder });
    }
  });

  it('finds the skills of every plugin (plugins/<plugin>/skills/<name>/), not only the first one', async () => {
    const dir = path.join(tmp, 'plugins-repo');
    for (const folder of [
      'plugins/audit/skills/audit-diff',
      'plugins/audit/skills/audit-deps',
      'plugins/docs/skills/write-docs',
    ])
      await putSkill(dir, folder);
    const r = await skillpress(tmp, 'init', dir, '--no-build');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8')).skills).toEqual({ root: 'plugins' });
    const validated = await skillpress(dir, 'validate', 'plugins', '--json');
    expect(JSON.parse(validated.stdout)).toMatchObject({ skills: 3 });
  });

  it('sets up skills kept in several places (.claude/skills and plugins): the repository is the skills folder, and it builds again and again', async () => {
    const dir = path.join(tmp, 'mixed-repo');
    for (const folder of ['.claude/skills/team-review', 'plugins/audit/skills/audit-diff']) await putSkill(dir, folder);
    await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir]);
    const r = await skillpress(dir, 'init');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8')).skills).toEqual({ root: '.' });
    const workflow = await readFile(path.join(dir, '.github/workflows/skillpress.yml'), 'utf8');
    expect(workflow).toContain('build . --out dist');
    expect(existsSync(path.join(dir, 'dist/feed/v1/files/audit-diff/SKILL.md'))).toBe(true);
    // What the workflow runs, on a folder that now holds dist/ too: its copies are not skills.
    const again = await skillpress(dir, 'build', '.', '--out', 'dist', '--no-site', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, skills: 2, problems: [] });
  }, 240_000);

  it("has the workflow install skillpress from where the repository's package.json does (a git URL), not a placeholder, and ignores node_modules/", async () => {
    const dir = await userRepo('with-package');
    const manifest = { devDependencies: { skillpress: 'git+https://example.org/acme/skillpress.git#v0.1.0' } };
    await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
    await rm(path.join(dir, '.gitignore'));
    const r = await skillpress(dir, 'init', '--no-build');
    expect(r.code, r.stderr).toBe(0);
    // skillpress is installed into the repository: its node_modules/ stays out of git too.
    expect(await readFile(path.join(dir, '.gitignore'), 'utf8')).toBe('dist/\n.cache/\nnode_modules/\n');
    const workflow = await readFile(path.join(dir, '.github/workflows/skillpress.yml'), 'utf8');
    expect(workflow).toContain('SKILLPRESS_PACKAGE: "git+https://example.org/acme/skillpress.git#v0.1.0"');
    expect(r.stdout).not.toContain('edit SKILLPRESS_PACKAGE');
    // A path exists only on this machine: CI could not install from it.
    manifest.devDependencies.skillpress = 'file:../skillpress-0.1.0.tgz';
    await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
    const local = await skillpress(dir, 'init', '--no-build', '--force');
    expect(await readFile(path.join(dir, '.github/workflows/skillpress.yml'), 'utf8')).not.toContain('file:');
    expect(local.stdout).toContain('edit SKILLPRESS_PACKAGE');
  });

  it("an aggregator's first build names its name clashes and the skills.precedence that settles them", async () => {
    const dir = path.join(tmp, 'aggregator');
    for (const folder of ['anthropics+skills/skills/pdf', 'openai+skills/pdf', 'openai+skills/docx'])
      await putSkill(dir, folder);
    await writeFile(path.join(dir, 'openai+skills/pdf/SKILL.md'), '---\nname: pdf\ndescription: Use for PDFs.\n---\n');
    await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir]);
    const r = await skillpress(dir, 'init', '--package', 'skillpress');
    expect(r.code).toBe(1); // an error is an error: the clash is unresolved
    expect(r.stdout).toContain(
      "1 skill(s) left out: their names clash with another folder's (name-unique); choose which folder wins with " +
        'skills.precedence in skillpress.json, e.g. "skills": { "precedence": ["anthropics+skills", "openai+skills"] }\n',
    );
    // The closing line does not read as a success.
    expect(r.stdout).toMatch(
      /\nbuilt 2 skill\(s\) into dist; 1 left out \(errors above\): exit 1 \(`skillpress preview/,
    );

    const config = JSON.parse(await readFile(path.join(dir, 'skillpress.json'), 'utf8'));
    config.skills.precedence = ['anthropics+skills', 'openai+skills'];
    await writeFile(path.join(dir, 'skillpress.json'), JSON.stringify(config));
    const settled = await skillpress(dir, 'build', '.', '--out', 'dist', '--no-site', '--json');
    expect(settled.code, settled.stderr).toBe(0);
    expect(JSON.parse(settled.stdout)).toMatchObject({ ok: true, skills: 2, invalid: 0, name_clashes: 0 });
  }, 240_000);

  it("a large catalog's first build lists its errors and counts its warnings instead of printing hundreds", async () => {
    const dir = path.join(tmp, 'large');
    for (let i = 0; i < 22; i++) {
      await mkdir(path.join(dir, 'skills', `tool-${i}`), { recursive: true });
      await writeFile(
        path.join(dir, 'skills', `tool-${i}`, 'SKILL.md'),
        `---\nname: tool-${i}\ndescription: Use when tool ${i} is asked for.\ncolour: blue\n---\n\n# Tool ${i}\n`,
      );
    }
    await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir]);
    // Set up from the folder above it: the command that lists each warning is run in the repository.
    const r = await skillpress(tmp, 'init', 'large', '--package', 'skillpress');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('warning [unknown-field]');
    // 22 unknown fields, and the look-alike skills' near duplicates.
    expect(r.stdout).toMatch(
      /\n\d+ warnings, not listed here \(counted by rule below\): `skillpress build` in large lists each\n/,
    );
    expect(r.stdout).toMatch(/\nby rule: warnings: .*unknown-field 22/);
    // The build itself lists each one.
    const built = await skillpress(dir, 'build', '--no-site');
    expect(built.stdout.split('\n').filter((l) => l.includes('warning [unknown-field]'))).toHaveLength(22);
  }, 240_000);

  it('set up from another folder (init ../repo), builds in the repository: its .cache/ is there, not in the working directory', async () => {
    const dir = await userRepo('team');
    await writeFile(
      path.join(dir, 'skills', 'pdf-tools', 'SKILL.md'),
      '---\nname: pdf-tools\ndescription: Use when working with pdf tools.\ncolour: blue\n---\n\n# pdf-tools\n',
    );
    const here = path.join(tmp, 'elsewhere');
    await mkdir(here);
    const r = await skillpress(here, 'init', '../team', '--package', 'skillpress');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'dist/feed/v1/index.json'))).toBe(true);
    expect(existsSync(path.join(dir, '.cache'))).toBe(true);
    expect(existsSync(path.join(here, '.cache'))).toBe(false);
    // Problems are named as paths from the working directory, where the user can open them.
    expect(r.stdout).toContain('../team/skills/pdf-tools/SKILL.md');
    expect(r.stdout).toContain('built 2 skill(s) into ../team/dist');
  }, 240_000);

  it('refuses to replace a config without --force (exit 2)', async () => {
    const dir = await userRepo('again');
    await writeFile(path.join(dir, 'skillpress.json'), '{"registry":{"title":"Mine"}}\n');
    const r = await skillpress(dir, 'init', '--no-build');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('skillpress.json exists; pass --force to replace it');
    expect(await readFile(path.join(dir, 'skillpress.json'), 'utf8')).toContain('Mine');
    expect((await skillpress(dir, 'init', '--no-build', '--force')).code).toBe(0);
    expect(await readFile(path.join(dir, 'skillpress.json'), 'utf8')).toContain('"title": "again"');
  });

  it('refuses a --package that is a path on this machine, which the CI workflow could not install from (exit 2)', async () => {
    const dir = await userRepo('local-package');
    for (const spec of ['../skillpress-0.1.0.tgz', '/tmp/skillpress.tgz', 'file:../skillpress']) {
      const r = await skillpress(dir, 'init', '--no-build', '--package', spec);
      expect(r.code, spec).toBe(2);
      expect(r.stderr).toContain(`--package ${spec} is a path on this machine, which CI does not have`);
    }
    expect(existsSync(path.join(dir, 'skillpress.json'))).toBe(false);
    const url = 'https://example.org/skillpress-0.1.0.tgz';
    expect((await skillpress(dir, 'init', '--no-build', '--package', url)).code).toBe(0);
    expect(await readFile(path.join(dir, '.github/workflows/skillpress.yml'), 'utf8')).toContain(url);
  });

  it('in a repository without skills, says how to start one (exit 2), and writes nothing', async () => {
    const dir = path.join(tmp, 'no-skills');
    await mkdir(dir);
    const r = await skillpress(dir, 'init');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'no skills/ folder and no SKILL.md below it; add your skills as skills/<name>/SKILL.md first (`skillpress new <name>` makes one to fill in)',
    );
    expect(existsSync(path.join(dir, 'skillpress.json'))).toBe(false);
  });
});
