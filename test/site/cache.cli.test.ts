/**
 * Builds cost what changed: `skillpress build` renders SKILL.md through a cache in `.cache/`
 * keyed by content digest. A second build with one skill changed re-renders only that skill (its
 * own summary says so), the pages are the same as a build from nothing, and deleting the cache is
 * always safe.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureSkills } from './helpers/fixture.ts';
import type { BuildResult } from '../../src/build.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;

async function build(json = true): Promise<{ result?: BuildResult; stdout: string }> {
  const args = [path.join(REPO, 'scripts/skillpress.mjs'), 'build', '--skills', 'skills', '--out', 'out', ...(json ? ['--json'] : [])];
  const { stdout } = await run(path.join(REPO, 'node_modules/.bin/node'), args, { cwd: tmp, env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: '1767225600' }, maxBuffer: 16 * 1024 * 1024 });
  return { result: json ? (JSON.parse(stdout) as BuildResult) : undefined, stdout };
}

/** Every skill page of the last build, by id. */
async function skillPages(): Promise<Record<string, string>> {
  const ids = await readdir(path.join(tmp, 'out/skills'));
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await readFile(path.join(tmp, 'out/skills', id, 'index.html'), 'utf8')] as const)));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-'));
  await writeFixtureSkills(path.join(tmp, 'skills'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the render cache', () => {
  it('renders every skill once, then only the one that changed, and says so', async () => {
    const first = (await build()).result!;
    expect(first.site).toMatchObject({ skills: 6, rendered: 6, cached: 0 });

    const file = path.join(tmp, 'skills/budget-forecaster/SKILL.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Fits a seasonal model.', 'Fits a seasonal model with **holiday effects**.'));
    const { stdout } = await build(false);
    expect(stdout).toContain('site: rendered 1 of 6 skills, 5 from cache');
    const pages = await skillPages();
    expect(pages['budget-forecaster']).toContain('<strong>holiday effects</strong>');

    // Nothing changed: nothing rendered.
    expect((await build()).result!.site).toMatchObject({ rendered: 0, cached: 6 });

    // Without the cache the same pages come out.
    await rm(path.join(tmp, '.cache'), { recursive: true, force: true });
    const fresh = (await build()).result!;
    expect(fresh.site).toMatchObject({ rendered: 6, cached: 0 });
    expect(await skillPages()).toEqual(pages);
  });
});
