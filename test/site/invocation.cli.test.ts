/**
 * A skill its author keeps for people to start (`disable-model-invocation: true`) says so on its
 * page, where a reader decides whether to install it; other skills say nothing about it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFixtureSkills } from './helpers/fixture.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-invocation-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

it(
  'shows "Started by people" on the page of a skill kept for people to start, and only there',
  { timeout: 120_000 },
  async () => {
    await writeFixtureSkills(path.join(tmp, 'skills'), [
      {
        name: 'deploy-prod',
        frontmatter: 'name: deploy-prod\ndescription: Deploy to production.\ndisable-model-invocation: true',
        body: '# Deploy\n',
      },
      {
        name: 'explain-code',
        frontmatter: 'name: explain-code\ndescription: Explain a piece of code.',
        body: '# Explain\n',
      },
    ]);
    const args = [path.join(REPO, 'scripts/skillpress.mjs'), 'build', '--skills', 'skills', '--out', 'dist', '--quiet'];
    await run(path.join(REPO, 'node_modules/.bin/node'), args, { cwd: tmp, env: { ...process.env, CI: 'true' } });
    const page = (id: string) => readFile(path.join(tmp, `dist/skills/${id}/index.html`), 'utf8');
    expect(await page('deploy-prod')).toMatch(
      /<dt>Started by<\/dt><dd data-invocation>People, by name: agents do not pick it on their own/,
    );
    expect(await page('explain-code')).not.toContain('data-invocation');
  },
);
