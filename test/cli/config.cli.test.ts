/**
 * Config mistakes stop `skillpress build` with exit 2 and a message naming the file and the key;
 * the build says which config it used, found from the skills folder's repository, not the
 * working directory (this repository's config/ must not leak into another catalog).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;
let skills: string;

async function build(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = [
    path.join(REPO, 'scripts/skillpress.mjs'),
    'build',
    '--no-site',
    '--out',
    path.join(tmp, 'out'),
    ...args,
  ];
  return promisify(execFile)(path.join(REPO, 'node_modules/.bin/node'), argv, {
    cwd: REPO, // inside this repository, whose config/ names the bundled examples
    env: { ...process.env, CI: 'true', ELASTICSEARCH_URL: '' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'sp-config-cli-'));
  skills = path.join(tmp, 'catalog', 'skills');
  await mkdir(path.join(skills, 'one-skill'), { recursive: true });
  await writeFile(
    path.join(skills, 'one-skill/SKILL.md'),
    '---\nname: one-skill\ndescription: Use for one thing.\n---\n\nBody.\n',
  );
  await mkdir(path.join(tmp, 'catalog', '.git'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('build and its config', () => {
  it("a catalog built from inside this repository does not get this repository's config", async () => {
    const r = await build(skills, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`config: no skillpress.json or config/skillpress.json in ${skills}`);
    expect(JSON.parse(r.stdout)).toMatchObject({ config: null });
    const index = JSON.parse(await readFile(path.join(tmp, 'out/feed/v1/index.json'), 'utf8'));
    expect(index.registry).toMatchObject({ name: 'local', title: 'Skills catalog' });
  });

  it("uses the catalog's own skillpress.json and says so", async () => {
    await writeFile(
      path.join(tmp, 'catalog', 'skillpress.json'),
      JSON.stringify({ registry: { title: 'Our skills' } }),
    );
    const r = await build(skills);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`config: ${path.relative(REPO, path.join(tmp, 'catalog', 'skillpress.json'))}`);
    await rm(path.join(tmp, 'catalog', 'skillpress.json'));
  });

  it('exits 2 for a --config that is missing, a folder without skillpress.json, or an unknown key', async () => {
    const missing = await build(skills, '--config', path.join(tmp, 'nope'));
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('nope: no such file or folder')]);

    await mkdir(path.join(tmp, 'empty'));
    const empty = await build(skills, '--config', path.join(tmp, 'empty'));
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('no skillpress.json in this folder')]);

    const file = path.join(tmp, 'typo.json');
    await writeFile(file, JSON.stringify({ registry: { titel: 'Ours' } }));
    const typo = await build(skills, '--config', file);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`${file}: registry.titel: unknown key (did you mean "title"?)`);
  });
});
