/**
 * Getting skillpress as a user does, outside this repository: the packed tarball installed
 * globally into a temporary prefix (`npm install -g`), then `skillpress init` in a small skills
 * repository of the user's (a synthetic one in a temp folder), which builds, and `skillpress
 * preview`, whose page carries the catalog's own title and loads its stylesheet; `npx --package <tarball>`;
 * a global install of a folder (a clone with its lib/ built); a project install from a git URL
 * (npm's global install from git skips the build step, npm/cli#8440: the docs say so).
 * Dependencies come from npm's cache when it has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNpmEnv } from '../helpers/npm-env.ts';
import { typeCheckProject } from '../helpers/type-check.ts';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');
const pkg = JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { version: string; files: string[] };
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-lib.ts'];
const env = userNpmEnv(node);
const NPM_QUIET = ['--prefer-offline', '--no-audit', '--no-fund'];

let work: string;
let packageDir: string;
let tarball: string;

async function run(cmd: string, args: string[], cwd: string, timeout = 300_000) {
  return promisify(execFile)(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
}

/** A skills repository as a user has one: two skills, a .gitignore, a GitHub remote. */
async function userRepository(dir: string): Promise<void> {
  for (const [name, description] of [
    ['invoice-review', 'Use when checking an invoice against the purchase order.'],
    ['meeting-notes', 'Use when turning a meeting transcript into notes with owners and dates.'],
  ]) {
    await mkdir(path.join(dir, 'skills', name!), { recursive: true });
    await writeFile(
      path.join(dir, 'skills', name!, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
    );
  }
  await writeFile(path.join(dir, '.gitignore'), 'node_modules/\n');
  await run('git', ['init', '-q', '-b', 'main'], dir);
  await run('git', ['remote', 'add', 'origin', 'https://github.com/acme/team-skills.git'], dir);
}

/** `skillpress preview` from `cwd` until it prints its URL; the caller stops it. */
function startPreview(bin: string, cwd: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(bin, ['preview', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/\S*) /.exec(output)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`skillpress preview exited with ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skillpress-install-'));
  packageDir = path.join(work, 'package');
  for (const entry of [...pkg.files.filter((f) => !f.startsWith('lib')), ...BUILD_INPUTS])
    await cp(path.join(repo, entry), path.join(packageDir, entry), { recursive: true });
  await symlink(path.join(repo, 'node_modules'), path.join(packageDir, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], packageDir);
  tarball = path.join(work, (JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }])[0].filename);
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('skillpress installed as a user installs it', () => {
  it('npm install -g <tarball>, then init + build + preview in a skills repository outside this one', async () => {
    const prefix = path.join(work, 'global');
    await run('npm', ['install', '-g', '--prefix', prefix, ...NPM_QUIET, tarball], work);
    const bin = path.join(prefix, 'bin', 'skillpress');
    expect((await run(bin, ['--version'], work)).stdout.trim()).toBe(pkg.version);

    const userRepo = path.join(work, 'team-skills');
    await userRepository(userRepo);
    const init = await run(bin, ['init', '--site-url', 'https://acme.github.io/team-skills/'], userRepo);
    expect(init.stdout).toContain('registry "acme-team-skills", titled "acme/team-skills"');
    expect(init.stdout).toMatch(/built 2 skill\(s\) into dist/);

    const preview = await startPreview(bin, userRepo);
    try {
      expect(new URL(preview.url).pathname).toBe('/team-skills/');
      const html = await (await fetch(preview.url)).text();
      expect(html).toMatch(/<title>[^<]*acme\/team-skills[^<]*<\/title>/);
      expect(html).not.toContain('skillpress example skills');
      const stylesheet = /<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/.exec(html)?.[1];
      expect(stylesheet).toBeDefined();
      expect((await fetch(new URL(stylesheet!, preview.url))).status).toBe(200);
    } finally {
      preview.stop();
    }
  }, 600_000);

  it('importing the installed library on an older Node.js says which Node.js it needs', async (ctx) => {
    // The system's Node.js, when it is older than 22.18 (Node 20 on the machines this runs on);
    // `node` on PATH is this repository's Node 22 under `npm test`.
    const system = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p));
    const older = system ? (await run(system, ['-p', 'process.versions.node'], work, 10_000)).stdout.trim() : '';
    const [major = 0, minor = 0] = older.split('.').map(Number);
    if (!system || major > 22 || (major === 22 && minor >= 18)) return ctx.skip();
    const lib = path.join(work, 'global/lib/node_modules/skillpress/lib/index.js');
    const script = `import(${JSON.stringify(lib)}).then(() => console.log('loaded'), (e) => console.log(e.message))`;
    const { stdout } = await promisify(execFile)(system, ['--input-type=module', '-e', script], {
      cwd: work,
      env: process.env,
    });
    expect(stdout.trim()).toBe(`skillpress needs Node.js 22.18 or later; this is Node.js ${older}`);
  }, 60_000);

  it("type-checks a consumer with skipLibCheck: false (no package's broken declarations leak through)", async () => {
    const project = path.join(work, 'consumer');
    await mkdir(path.join(project, 'node_modules'), { recursive: true });
    await symlink(path.join(work, 'global/lib/node_modules/skillpress'), path.join(project, 'node_modules/skillpress'));
    await writeFile(
      path.join(project, 'check.ts'),
      `import { build, init, type BuildResult } from 'skillpress';
import { SkillSearch } from 'skillpress/search';
import { SkillpressConfig } from 'skillpress/model';
import { createServer } from 'skillpress/mcp';
import { createClient } from 'skillpress/elasticsearch';
const result: BuildResult | undefined = undefined;
console.log(build, init, result, SkillSearch, SkillpressConfig, createServer, createClient);
`,
    );
    await typeCheckProject(project, repo, { skipLibCheck: false, env });
  }, 300_000);

  it('npx --package <tarball> skillpress runs the command', async () => {
    const { stdout } = await run('npx', ['--yes', '--package', tarball, 'skillpress', '--version'], work);
    expect(stdout.trim()).toBe(pkg.version);
  }, 300_000);

  it('npm install -g <folder>: a checkout with its lib/ built', async () => {
    const prefix = path.join(work, 'global-folder');
    await run('npm', ['install', '-g', '--prefix', prefix, ...NPM_QUIET, packageDir], work);
    const { stdout } = await run(path.join(prefix, 'bin', 'skillpress'), ['validate', path.join(repo, 'skills')], work);
    expect(stdout).toMatch(/^valid \(lenient\): \d+ valid skill/m);
  }, 300_000);

  it('npm install git+file://<clone> into a project: prepare builds lib/, the bin runs', async () => {
    const clone = path.join(work, 'clone');
    await run('git', ['clone', '-q', '--depth', '1', `file://${repo}`, clone], work);
    const project = path.join(work, 'from-git');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'from-git', private: true }));
    await run('npm', ['install', ...NPM_QUIET, `git+file://${clone}`], project, 900_000);
    const bin = path.join(project, 'node_modules/.bin/skillpress');
    expect((await run(bin, ['--version'], project)).stdout.trim()).toBe(pkg.version);
  }, 900_000);
});
