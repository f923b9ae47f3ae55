/**
 * `skillpress dev` as someone editing skills uses it: the CLI serves the catalog, an edit to a
 * SKILL.md on disk shows on the open page within seconds without a restart, and a broken edit
 * shows its problem on the page and in the terminal while the last good build stays served.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fixtureProject, startDev, stopDev, type DevProcess } from './helpers/dev-process.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const skip = skipWithoutChromium();
let tmp: string;
let dev: DevProcess | undefined;
let url: string;
let browser: Browser;

/** Resolves once the dev server's stderr holds `text` (a build line). */
const terminalShows = (text: string): Promise<void> => dev!.shows('stderr', text, 60_000);

beforeAll(async () => {
  if (skip) return;
  tmp = await fixtureProject('skillpress-dev-');
  dev = startDev(tmp);
  url = await dev.url();
  await terminalShows('dev: build 1:');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopDev(dev, tmp);
});

describe.skipIf(skip)('skillpress dev', () => {
  it('shows an edit on the open page, and keeps the last good build when an edit breaks a skill', async () => {
    const skillMd = path.join(tmp, 'skills/budget-forecaster/SKILL.md');
    const original = await readFile(skillMd, 'utf8');
    const page = await browser.newPage();
    await page.goto(`${url}skills/budget-forecaster/`);
    expect(await page.textContent('[data-skill-body]')).toContain('Fits a seasonal model.');

    // An edit on disk: the open page reloads itself with it.
    await writeFile(skillMd, original.replace('Fits a seasonal model.', 'Fits a seasonal model with holiday effects.'));
    await page.waitForFunction(
      () => document.querySelector('[data-skill-body]')?.textContent?.includes('holiday effects'),
      undefined,
      { timeout: 60_000 },
    );
    await terminalShows('dev: build 2:');
    expect(dev!.stderr()).toContain('rendered 1 of 6 skills, 5 from cache');

    // A broken edit: the problem shows on the page and in the terminal; the page stays served.
    await writeFile(skillMd, '---\nname: budget-forecaster\ndescription: [unclosed\n---\n\nBroken.\n');
    const overlay = page.locator('#skillpress-dev-problems');
    await overlay.waitFor({ timeout: 60_000 });
    expect(await overlay.textContent()).toContain('budget-forecaster/SKILL.md:3: error [frontmatter-yaml]');
    await terminalShows('has new errors; still serving build 2');
    expect(dev!.stderr()).toContain('budget-forecaster/SKILL.md:3: error [frontmatter-yaml]');
    await page.reload();
    expect(await page.textContent('[data-skill-body]')).toContain('holiday effects');
    await overlay.waitFor();
    // Still broken after another edit: the good build is still the one served.
    await writeFile(skillMd, '---\nname: budget-forecaster\ndescription: [still unclosed\n---\n\nBroken again.\n');
    await terminalShows('dev: build 4 has new errors; still serving build 2');
    await page.reload();
    expect(await page.textContent('[data-skill-body]')).toContain('holiday effects');

    // Fixed again: served, the problem gone.
    await writeFile(skillMd, original);
    await page.waitForFunction(
      () => document.querySelector('[data-skill-body]')?.textContent?.includes('Fits a seasonal model.'),
      undefined,
      { timeout: 60_000 },
    );
    expect(await overlay.count()).toBe(0);
    await page.close();
    // Four rebuilds: each is seconds idle, tens of seconds on a loaded 2-core CI machine.
  }, 300_000);

  it('renders pages on request: the page of a file, and a skill added while it runs', async () => {
    const page = await browser.newPage();
    // A file's page, filled in from its skill's template as the static build does.
    await page.goto(`${url}skills/pdf-toolkit/files/scripts/extract.py/`);
    expect(await page.textContent('[data-file-panel] .file-path')).toBe('scripts/extract.py');
    expect(await page.textContent('[data-file-panel] pre code')).toContain('def ');

    // A new skill folder: its page exists once the rebuild is served (Astro lists its pages again).
    await mkdir(path.join(tmp, 'skills/new-skill'));
    await writeFile(
      path.join(tmp, 'skills/new-skill/SKILL.md'),
      '---\nname: new-skill\ndescription: Added while dev runs.\n---\n\nFresh instructions.\n',
    );
    await expect
      .poll(async () => (await page.goto(`${url}skills/new-skill/`))?.status(), { timeout: 240_000, interval: 500 })
      .toBe(200);
    expect(await page.textContent('[data-skill-body]')).toContain('Fresh instructions.');
    await page.goto(url);
    expect(await page.locator('a[href$="/skills/new-skill/"]').count()).toBeGreaterThan(0);
    await page.close();
  }, 300_000);
});
