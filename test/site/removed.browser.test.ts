/**
 * A link to a skill the catalog removed: the site's 404 page says when it was removed (from the
 * tombstone in `changes.json`) and offers a search for the skill's name; a link to a skill the
 * catalog never had keeps the plain 404, with the same search offered.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildFixtureSite, SKILLS, type BuiltFixture } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const skip = skipWithoutChromium();
const SCREENSHOTS = path.resolve('test-results/screenshots');
let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite({ skills: SKILLS.slice(0, 3), base: '/catalog/' });
  await rm(path.join(fixture.skillsDir, 'expense-auditor'), { recursive: true });
  await fixture.rebuild(); // a day later, without expense-auditor
  server = await serveStatic({ root: fixture.outDir, base: '/catalog/' });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

describe.skipIf(skip)('a link to a removed skill', () => {
  it('says when the skill was removed and searches for another', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${server.url}skills/expense-auditor/`);
    expect(res?.status()).toBe(404);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('removed'));
    expect(await page.locator('h1').textContent()).toBe('“expense-auditor” was removed from this catalog');
    expect(await page.locator('.eyebrow').textContent()).toBe('Removed');
    expect(await page.locator('.lead').textContent()).toBe(
      'It was removed on 2026-01-02. Search for another skill for the task.',
    );
    expect(await page.inputValue('#q404')).toBe('expense auditor');
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'removed-skill-390.png') });
    await page.click('button:has-text("Search")');
    await page.waitForURL(/\?q=expense\+auditor/);
    // The catalog's search takes the query.
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.startsWith('expense auditor|'),
    );
    expect(await page.inputValue('#q')).toBe('expense auditor');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the plain 404 for a skill the catalog never had, with its name to search for', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${server.url}skills/never-here/files/x.py/`);
    expect(res?.status()).toBe(404);
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#q404')?.value ?? '') !== '');
    expect(await page.inputValue('#q404')).toBe('never here');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1').textContent()).toContain('not in the catalog');
    await page.close();
  });
});
