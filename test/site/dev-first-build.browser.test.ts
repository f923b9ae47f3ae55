/**
 * `skillpress dev` from its first second: an edit saved while the first build runs is built next
 * (the watcher starts before that build), and the warning it brings (a name written as a title)
 * shows in the terminal and, folded under its count, on the open page.
 */
import { readFile, writeFile } from 'node:fs/promises';
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
  tmp = await fixtureProject('skillpress-dev-first-');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopDev(dev, tmp);
});

describe.skipIf(skip)('skillpress dev, first build', () => {
  it('builds an edit saved during the first build, and shows its warning in the terminal and on the page', async () => {
    dev = startDev(tmp);
    await dev.shows('stderr', 'dev: build 1 started');
    const skillMd = path.join(tmp, 'skills/budget-forecaster/SKILL.md');
    const original = await readFile(skillMd, 'utf8');
    // A name written as a title: served under the folder's name, with a warning.
    await writeFile(skillMd, original.replace('name: budget-forecaster', 'name: Budget Forecaster'));
    // The edit landed while the first build ran (an Astro build takes seconds).
    expect(dev.stderr()).not.toContain('dev: build 1:');

    // The watcher saw the edit, so a second build runs; the first may already have read the new
    // text (it reads the skills after saying it started), so the warning is in either summary.
    await dev.shows('stderr', 'dev: build 2:');
    expect(dev.stderr()).toMatch(
      /dev: 1 (new )?warning\(s\)[^\n]*\n {2}[^\n]*budget-forecaster\/SKILL\.md[^\n]*name-normalized/,
    );

    const url = await dev.url();
    const page = await browser.newPage();
    await page.goto(`${url}skills/budget-forecaster/`);
    expect(await page.textContent('h1')).toBe('Budget Forecaster');
    const warnings = page.locator('#skillpress-dev-warnings');
    await warnings.waitFor({ timeout: 60_000 });
    expect(await warnings.locator('summary').textContent()).toMatch(/skillpress dev: 1 warning in this catalog/);
    await warnings.locator('summary').click();
    expect(await warnings.locator('pre').textContent()).toContain('budget-forecaster/SKILL.md');
    await page.close();
    // Two Astro builds back to back: tens of seconds on a loaded 2-core CI machine.
  }, 300_000);
});
