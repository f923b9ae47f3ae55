/**
 * The site served from a sub-path (`https://org.github.io/skills/` style): built with
 * `skillpress build --base /catalog/` and served under `/catalog/` only.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;

const skip = skipWithoutChromium();

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite({ base: '/catalog/' });
  server = await serveStatic({ root: fixture.outDir, base: '/catalog/' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

describe.skipIf(skip)('served from /catalog/', () => {
  it('searches, opens a skill and downloads its files', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const outside: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (!p.startsWith('/catalog/')) outside.push(p);
    });
    await page.goto(server.url);
    // The stylesheet loaded (cards are styled) and every link stays under the base.
    expect(
      await page
        .locator('.card')
        .first()
        .evaluate((el) => getComputedStyle(el).borderTopLeftRadius),
    ).toBe('12px');
    const hrefs = await page.$$eval('a[href^="/"]', (as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs.filter((h) => !h.startsWith('/catalog/'))).toEqual([]);

    await page.fill('#q', 'scripts/extract.py');
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#results > li')?.dataset.id === 'pdf-toolkit',
    );
    await page.click('#results > li[data-id="pdf-toolkit"] h3 a');
    await page.waitForURL(`${server.url}skills/pdf-toolkit/`);
    expect(await page.locator('[data-tier="card"] h1').textContent()).toBe('pdf-toolkit');

    await page.click('.file-tree a:has-text("extract.py")');
    await page.waitForURL(`${server.url}skills/pdf-toolkit/files/scripts/extract.py/`);
    const href = await page.locator('[data-viewer] [data-raw-link]').evaluate((a: HTMLAnchorElement) => a.href);
    expect(new URL(href).pathname).toBe('/catalog/feed/v1/files/pdf-toolkit/scripts/extract.py');
    const text = await page.evaluate(async (h) => (await fetch(h)).text(), href);
    const source = await readFile(path.join(fixture.skillsDir, 'pdf-toolkit/scripts/extract.py'));
    expect(createHash('sha256').update(text).digest('hex')).toBe(createHash('sha256').update(source).digest('hex'));

    await page.click('a.pill:has-text("#pdf")');
    expect(await page.locator('h1').textContent()).toBe('#pdf');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the 404 page with working links for a missing page', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${server.url}skills/missing/`);
    expect(res?.status()).toBe(404);
    await page.click('a:has-text("Back to the catalog")');
    await page.waitForURL(server.url);
    expect(await page.locator('#results > li').count()).toBe(6);
    await page.close();
  });
});
