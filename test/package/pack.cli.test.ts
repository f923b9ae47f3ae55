/**
 * skillpress as others install it: `npm pack` (which runs `prepare`: the compiled library and
 * the bundled bin), the tarball installed into a new project, then the library imported by name
 * (building the example skills with the site, searching the built index), the installed bin
 * (`validate`, `--version`, `mcp` answering an SDK client over stdio) and the type declarations
 * (tsc on a file importing every entry point).
 *
 * The package is packed from a copy of its files, so the rebuild of lib/ never races the other
 * suites' CLI runs in this working tree. Dependencies come from npm's cache when it has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNpmEnv } from '../helpers/npm-env.ts';
import { typeCheckProject } from '../helpers/type-check.ts';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');
const pkg = JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { version: string; files: string[] };
/** What `prepare` reads besides the published files. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-lib.ts'];

let work: string;
let project: string;
/** PATH with this repository's Node 22 first, without npm's run context (see the helper). */
const env = userNpmEnv(node);

async function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeout = 300_000,
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
}

/** The published files and the build inputs, copied beside this repository's node_modules. */
async function copyPackage(to: string): Promise<void> {
  const entries = [...pkg.files.filter((f) => !f.startsWith('lib')), ...BUILD_INPUTS];
  for (const entry of entries) await cp(path.join(repo, entry), path.join(to, entry), { recursive: true });
  await symlink(path.join(repo, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

async function packAndInstall(): Promise<void> {
  const source = path.join(work, 'package');
  await copyPackage(source);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], source);
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-skillpress', private: true, type: 'module' }),
  );
  await run(
    'npm',
    ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(work, filename)],
    project,
  );
  await cp(path.join(repo, 'skills'), path.join(project, 'skills'), { recursive: true });
}

/** Runs an ES module in the project; it prints one JSON line. */
async function script(name: string, code: string): Promise<any> {
  await writeFile(path.join(project, name), code);
  const { stdout } = await run(node, [name], project);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** Packages a module loads (its own and those below it), reported by a resolve hook. */
const LOADED_PACKAGES = `
import module from 'node:module';
const loaded = new Set();
module.registerHooks({ resolve(specifier, context, next) {
  const found = next(specifier, context);
  const name = /node_modules\\/((@[^/]+\\/)?[^/]+)\\//.exec(found.url)?.[1];
  if (name) loaded.add(name);
  return found;
} });
`;

async function skillFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries
    .filter((e) => path.basename(e) === 'SKILL.md')
    .map((e) => path.basename(path.dirname(e)))
    .sort();
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skillpress-pack-'));
  project = path.join(work, 'project');
  await packAndInstall();
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package, installed into a new project', () => {
  it("builds the example skills with the site: import { build } from 'skillpress'", async () => {
    const result = await script(
      'build.mjs',
      `import { build } from 'skillpress';
const r = await build({ skills: 'skills', out: 'dist' });
console.log(JSON.stringify({ ok: r.ok, skills: r.skills, problems: r.problems }));`,
    );
    expect(result).toEqual({ ok: true, skills: (await skillFolders(path.join(repo, 'skills'))).length, problems: [] });
    for (const name of await skillFolders(path.join(repo, 'skills'))) {
      expect(existsSync(path.join(project, 'dist/skills', name, 'index.html')), `page of ${name}`).toBe(true);
      expect(existsSync(path.join(project, 'dist/feed/v1/skills', `${name}.json`)), `feed entry of ${name}`).toBe(true);
    }
    expect(await readFile(path.join(project, 'dist/index.html'), 'utf8')).toContain('<html');
  }, 300_000);

  it("searches the built index: import { SkillSearch } from 'skillpress/search', without loading Astro or Elasticsearch", async () => {
    const result = await script(
      'search.mjs',
      `${LOADED_PACKAGES}
const { readFileSync } = await import('node:fs');
const { SkillSearch } = await import('skillpress/search');
const search = SkillSearch.load(readFileSync('dist/feed/v1/search.json', 'utf8'));
const hits = search.search('trino query').map((h) => h.id);
const searchLoaded = [...loaded];
await import('skillpress');
console.log(JSON.stringify({ hits, searchLoaded, mainLoaded: [...loaded] }));`,
    );
    expect(result.hits[0]).toBe('trino-debug');
    for (const heavy of ['astro', '@elastic/elasticsearch']) {
      expect(result.searchLoaded).not.toContain(heavy);
      expect(result.mainLoaded).not.toContain(heavy);
    }
  }, 120_000);

  it('runs the installed bin: validate and --version', async () => {
    const bin = path.join(project, 'node_modules/.bin/skillpress');
    const validate = await run(bin, ['validate', 'skills'], project);
    expect(validate.stdout).toMatch(/^valid \(lenient\): \d+ valid skill/m);
    expect((await run(bin, ['--version'], project)).stdout.trim()).toBe(pkg.version);
  }, 120_000);

  it('serves MCP from the installed bin: tools/list, and best_skill ranking by meaning with the shipped model', async () => {
    const client = new Client({ name: 'pack-test', version: '1' });
    const transport = new StdioClientTransport({
      command: path.join(project, 'node_modules/.bin/skillpress'),
      args: ['mcp', '--feed', 'dist'],
      cwd: project,
      env,
      stderr: 'ignore',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('skills_search');
      const best = await client.callTool({
        name: 'best_skill',
        arguments: { query: 'check an expense report against the policy', judge: 'rule' },
      });
      const { candidates } = best.structuredContent as { candidates: Array<{ name: string; meaning?: number }> };
      // `meaning` is there only when models/ was packed and its digests checked out.
      expect(candidates[0]).toMatchObject({ meaning: expect.any(Number) });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('has types that resolve: tsc on a file importing every entry point', async () => {
    await writeFile(
      path.join(project, 'check.ts'),
      `import { build, UsageError, type BuildResult } from 'skillpress';
import { SkillSearch } from 'skillpress/search';
import { SkillpressConfig } from 'skillpress/model';
import { createServer } from 'skillpress/mcp';
import { createClient } from 'skillpress/elasticsearch';
import { RULE } from 'skillpress/internal';
const result: BuildResult = await build({ skills: 'skills', site: false });
console.log(result.ok, result.skillsRoot, SkillpressConfig.parse({}).registry.name, new UsageError('x').code, SkillSearch, createServer, createClient, RULE.threshold);
// Each line below is an error only while the types resolve (an unresolved import is 'any').
// @ts-expect-error: options, not a folder name
await build('skills');
// @ts-expect-error: a load, not a constructor
new SkillSearch();
// @ts-expect-error: registry.name is a string
SkillpressConfig.parse({}).registry.name satisfies number;
// @ts-expect-error: a catalog reference and options
createServer();
// @ts-expect-error: connection options
createClient('http://127.0.0.1:9200');
// @ts-expect-error: the library's result is camelCase (snake_case is only in \`skillpress build --json\`)
void result.skills_root;
// @ts-expect-error: a number
RULE.threshold satisfies string;
`,
    );
    await typeCheckProject(project, repo, { skipLibCheck: true, env });
  }, 120_000);
});
