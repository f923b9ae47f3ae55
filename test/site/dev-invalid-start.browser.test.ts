/**
 * `skillpress dev` on a catalog that starts with an invalid skill: it serves the others (so the
 * catalog can be worked on), and says which skill it leaves out and why, in the terminal and on
 * the open pages, as `build` would. Found in a trial on the ten public catalogs together, where
 * 26 skills were left out of the served catalog without a word.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fixtureProject, startDev, stopDev, type DevProcess } from './helpers/dev-process.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const skip = skipWithoutChromium();
let tmp: string;
let dev: DevProcess | undefined;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  tmp = await fixtureProject('skillpress-dev-invalid-');
  await mkdir(path.join(tmp, 'skills/broken-start'));
  await writeFile(
    path.join(tmp, 'skills/broken-start/SKILL.md'),
    "---\nname: broken-start\ndescription: 'never closed\n---\nBody.\n",
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopDev(dev, tmp);
});

describe.skipIf(skip)('skillpress dev, a catalog that starts with an invalid skill', () => {
  it('serves the valid skills and names the one left out, in the terminal and on the page', async () => {
    dev = startDev(tmp);
    await dev.shows('stderr', 'dev: build 1:');
    expect(dev.stderr()).toMatch(
      /dev: 1 invalid skill\(s\) left out[^\n]*\n {2}skills\/broken-start\/SKILL\.md:\d+: error \[frontmatter-yaml\]/,
    );

    const url = await dev.url();
    const page = await browser.newPage();
    await page.goto(url);
    const box = page.locator('#skillpress-dev-warnings');
    await box.waitFor({ timeout: 60_000 });
    expect(await box.locator('summary').textContent()).toMatch(/skillpress dev: 1 invalid skill left out/);
    await box.locator('summary').click();
    expect(await box.locator('pre').first().textContent()).toContain('skills/broken-start/SKILL.md');
    await page.close();
  }, 300_000);
});
