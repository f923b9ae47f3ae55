/**
 * Kept skill pages and the catalog's facets: a skill page shows the folder facet (its folder's
 * link, the navigation's Folders), so a build whose facets changed renders the unchanged skills'
 * pages again instead of keeping ones that say what the catalog no longer is.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFixtureSkills, type FixtureSkill } from './helpers/fixture.ts';
import type { BuildJson } from '../../src/cli/commands/build.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;

const inFolder = (dir: string): FixtureSkill => {
  const name = path.basename(dir);
  return { name: dir, frontmatter: `name: ${name}\ndescription: Keeps ${name} for later.`, body: `# ${name}\n` };
};

async function build(): Promise<BuildJson> {
  const args = [path.join(REPO, 'scripts/skillpress.mjs'), 'build', '--skills', 'skills', '--out', 'dist', '--json'];
  const { stdout } = await run(path.join(REPO, 'node_modules/.bin/node'), args, {
    cwd: tmp,
    env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: '1767225600' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as BuildJson;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-facets-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

it('renders kept skill pages again when a new skill makes folders a facet', { timeout: 120_000 }, async () => {
  // One folder: nothing to sort by, no folder facet.
  await writeFixtureSkills(path.join(tmp, 'skills'), [inFolder('notes/alpha-notes'), inFolder('notes/beta-notes')]);
  await build();
  const page = () => readFile(path.join(tmp, 'dist/skills/alpha-notes/index.html'), 'utf8');
  expect(await page()).not.toContain('data-folder-link');
  // A second folder: the facet appears, and alpha-notes (unchanged) now names its folder.
  // A plugin's skills (trailofbits: plugins/<plugin>/skills/<name>/) are filed under the plugin, and named so.
  await writeFixtureSkills(path.join(tmp, 'skills'), [inFolder('tools/skills/gamma-tools')]);
  const result = await build();
  expect(result.site!.skill_pages.rendered).toBe(3);
  expect(await page()).toMatch(/<a href="\/folders\/notes\/" data-folder-link>notes\/<\/a>/);
  const gamma = await readFile(path.join(tmp, 'dist/skills/gamma-tools/index.html'), 'utf8');
  expect(gamma).toMatch(/<a href="\/folders\/tools\/" data-folder-link title="tools\/skills\/">tools\/<\/a>/);
});
