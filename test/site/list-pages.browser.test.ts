/**
 * Long tag, domain and folder lists in pages, and the page about the feed, as a reader meets them
 * in Chromium: a list of 50 skills is 48 and 2 on two pages with working Previous and Next, a
 * list of 48 or fewer has no page navigation, a URL trimmed by hand (`<list>/page/`,
 * `<list>/page/1/`) leads to the list's first page; `/feed/` says what the feed is, links its
 * manifest and shows the manifest's true sha256, and `/feed/v1/` leads to it. One catalog tagged
 * (tags and domains are the facets) and one untagged in folders (folders are).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture, type FixtureSkill } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { axeViolations } from './helpers/axe.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

/** 50 skills in one list (one more page than 48 holds) and 2 in another. */
function skills(meta: (big: boolean) => string, dir: (big: boolean) => string): FixtureSkill[] {
  return Array.from({ length: 52 }, (_, i) => {
    const big = i < 50;
    const name = `${big ? 'note' : 'memo'}-${String(i + 1).padStart(2, '0')}`;
    return {
      name: `${dir(big)}${name}`,
      frontmatter: `name: ${name}\ndescription: Keeps note ${i + 1} in a plain text file.${meta(big)}`,
      body: `# ${name}\n\nA note.\n`,
    };
  });
}

const TAGGED = skills(
  (big) => `\nmetadata:\n  tags: ${big ? 'bulk' : 'small'}\n  domain: ${big ? 'notes' : 'memos'}`,
  () => '',
);
const FOLDERED = skills(
  () => '',
  (big) => (big ? 'bulk/' : 'small/'),
);
const BIG = TAGGED.slice(0, 50).map((s) => s.name);

const skip = skipWithoutChromium();
let tagged: BuiltFixture;
let foldered: BuiltFixture;
let server: StaticServer;
let folderServer: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  [tagged, foldered] = await Promise.all([
    buildFixtureSite({ skills: TAGGED }),
    buildFixtureSite({ skills: FOLDERED }),
  ]);
  server = await serveStatic({ root: tagged.outDir });
  folderServer = await serveStatic({ root: foldered.outDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await folderServer?.close();
  await tagged?.cleanup();
  await foldered?.cleanup();
});

const cardIds = (page: Page): Promise<string[]> =>
  page.$$eval('.card-grid > li', (l) => l.map((c) => c.querySelector('h3')?.textContent?.trim() ?? ''));

async function landsOn(page: Page, from: string, to: string): Promise<void> {
  const res = await page.goto(from);
  expect(res?.status(), from).toBe(200);
  await page.waitForURL(to);
}

describe.skipIf(skip)('a long list in pages', () => {
  for (const { kind, list } of [
    { kind: 'tag', list: 'tags/bulk/' },
    { kind: 'domain', list: 'domains/notes/' },
    { kind: 'folder', list: 'folders/bulk/' },
  ]) {
    it(`shows a ${kind}'s 50 skills as 48 and 2, with Previous and Next between the pages`, async () => {
      const base = kind === 'folder' ? folderServer.url : server.url;
      const page = await browser.newPage();
      await page.goto(`${base}${list}`);
      const first = await cardIds(page);
      expect(first).toHaveLength(48);
      expect(await page.textContent('.page-head .lead')).toContain('50 skills · search within these');
      expect(await page.locator('.pagination [rel="prev"]').count()).toBe(0);
      await page.click('.pagination a[rel="next"]');
      await page.waitForURL(`${base}${list}page/2/`);
      const second = await cardIds(page);
      expect([...first, ...second].sort()).toEqual(BIG.map((n) => n.replace(/^.*\//, '')));
      // Page 2 names itself: its title and its h1 (the lead stays).
      expect(await page.title()).toMatch(/, page 2 · /);
      expect(await page.textContent('h1')).toContain('page 2 of 2');
      expect(await page.textContent('.page-head .lead')).toContain('50 skills');
      expect(await page.locator('.pagination [rel="next"]').count()).toBe(0);
      await page.click('.pagination a[rel="prev"]');
      await page.waitForURL(`${base}${list}`);
      expect(await cardIds(page)).toEqual(first);
      await page.close();
    });
  }

  it('keeps a list of 48 or fewer on one page, with no page navigation and no page/ URLs', async () => {
    const page = await browser.newPage();
    for (const [base, list] of [
      [server.url, 'tags/small/'],
      [server.url, 'domains/memos/'],
      [folderServer.url, 'folders/small/'],
    ] as const) {
      expect((await page.goto(`${base}${list}`))?.status()).toBe(200);
      expect(await cardIds(page)).toHaveLength(2);
      expect(await page.locator('.pagination').count(), list).toBe(0);
      expect((await page.goto(`${base}${list}page/2/`))?.status()).toBe(404);
    }
    await page.close();
  });

  it("leads a list's page URL trimmed by hand (page/, page/1/) to its first page", async () => {
    const page = await browser.newPage();
    for (const trimmed of ['page/', 'page/1/']) {
      await landsOn(page, `${server.url}tags/bulk/${trimmed}`, `${server.url}tags/bulk/`);
      await landsOn(page, `${server.url}domains/notes/${trimmed}`, `${server.url}domains/notes/`);
      await landsOn(page, `${folderServer.url}folders/bulk/${trimmed}`, `${folderServer.url}folders/bulk/`);
    }
    expect(await cardIds(page)).toHaveLength(48);
    await page.close();
  });
});

describe.skipIf(skip)('the page about the feed', () => {
  it("says what the feed is for, links its manifest with the manifest's sha256, and is linked from every page", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.click('.site-footer a:has-text("Feed")');
    await page.waitForURL(`${server.url}feed/`);
    expect(await page.textContent('main')).toMatch(/peer|federat/i);
    expect(await page.textContent('main')).toContain('skillpress mcp');
    const manifest = await page.getAttribute('main a:has-text("feed/v1/index.json")', 'href');
    expect(manifest).toBe('/feed/v1/index.json');
    const res = await page.request.get(new URL(manifest!, server.url).href);
    expect(res.status()).toBe(200);
    const bytes = await res.body();
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ counts: { skills: 52 } });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await page.textContent('.feed-facts')).toContain(sha256);
    // Every part the manifest lists is linked, with its own sha256.
    const index = JSON.parse(bytes.toString('utf8')) as { parts: Record<string, { url: string; sha256: string }> };
    const text = await page.textContent('.feed-list');
    for (const part of Object.values(index.parts)) {
      expect(await page.locator(`.feed-list a[href="/feed/v1/${part.url}"]`).count(), part.url).toBe(1);
      expect(text).toContain(part.sha256);
    }
    await page.close();
  });

  it('is where /feed/v1/ (the manifest URL trimmed by hand) leads', async () => {
    const page = await browser.newPage();
    await landsOn(page, `${server.url}feed/v1/`, `${server.url}feed/`);
    expect(await page.textContent('h1')).toContain('feed');
    await page.close();
  });

  it('fits a phone: no horizontal overflow at 390 px, sha256 digests included', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(`${server.url}feed/`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});

describe.skipIf(skip)('for assistive technology', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`passes axe-core on page 2 of a list and on the feed's page (${scheme})`, async () => {
      const page = await browser.newPage({ colorScheme: scheme });
      const found: string[] = [];
      for (const path of ['tags/bulk/page/2/', 'feed/']) {
        await page.goto(`${server.url}${path}`);
        const counted = (x: { id: string; impact: string | null }) =>
          x.impact === 'serious' || x.impact === 'critical' || x.id === 'page-has-heading-one';
        for (const v of (await axeViolations(page)).filter(counted))
          found.push(`/${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
      expect(found).toEqual([]);
      await page.close();
    });
  }
});
