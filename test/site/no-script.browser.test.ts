/**
 * A catalog of more than one page (50 skills: the list is 48 a page) as a reader without
 * JavaScript meets it, and as axe-core and a screen reader meet its paging: every skill is
 * reachable through the pages, a skill's page and a file's page work, a query says that search
 * needs script instead of coming back as the whole list unexplained; the paging passes axe-core
 * in both schemes (pages 2… with an h1 of their own too), and the search box's focus shows as strongly as every other control's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture, type FixtureSkill } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { axeViolations } from './helpers/axe.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const SKILLS: FixtureSkill[] = Array.from({ length: 50 }, (_, i) => {
  const name = `note-${String(i + 1).padStart(2, '0')}`;
  return {
    name,
    frontmatter: `name: ${name}\ndescription: Keeps note ${i + 1} in a plain text file.`,
    body: `# ${name}\n\nRun [the script](scripts/run.py).\n`,
    files: { 'scripts/run.py': 'print("a note")\n' },
  };
});

const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;
let noScript: BrowserContext;

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite({ skills: SKILLS });
  server = await serveStatic({ root: fixture.outDir });
  browser = await launchChromium();
  noScript = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  await noScript?.close();
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

const cardIds = (page: Page): Promise<string[]> =>
  page.$$eval('#results > li', (l) => l.map((c) => (c as HTMLElement).dataset.id!));

describe.skipIf(skip)('without JavaScript', () => {
  it('lists every skill through the pages, and opens a skill and its files', async () => {
    const page = await noScript.newPage();
    await page.goto(server.url);
    const first = await cardIds(page);
    expect(first).toHaveLength(48);
    await page.click('.pagination a[rel="next"]');
    await page.waitForURL(`${server.url}page/2/`);
    const second = await cardIds(page);
    expect([...first, ...second].sort()).toEqual(SKILLS.map((s) => s.name));
    await page.click('#results a:has-text("note-50")');
    await page.waitForURL(`${server.url}skills/note-50/`);
    await page.click('.file-tree a:has-text("run.py")');
    await page.waitForURL(`${server.url}skills/note-50/files/scripts/run.py/`);
    expect(await page.textContent('[data-file-panel] pre')).toContain('print("a note")');
    await page.close();
  });

  it('says that search needs JavaScript, where a query would otherwise bring back the whole list', async () => {
    const page = await noScript.newPage();
    await page.goto(server.url);
    await page.fill('#q', 'note-07');
    await page.press('#q', 'Enter');
    await page.waitForURL(`${server.url}?q=note-07`);
    expect(await page.locator('[data-noscript]').isVisible()).toBe(true);
    expect(await page.textContent('[data-noscript]')).toContain('Search needs JavaScript');
    // With JavaScript the search works, and the note is not there.
    const withScript = await browser.newPage();
    await withScript.goto(`${server.url}?q=note-07`);
    await withScript.waitForSelector('#results[data-state^="note-07|"]');
    expect((await cardIds(withScript))[0]).toBe('note-07');
    expect(await withScript.locator('[data-noscript]').count()).toBe(0);
    await withScript.close();
    await page.close();
  });
});

describe.skipIf(skip)('paging for assistive technology', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`passes axe-core on the first and the last page of the list (${scheme})`, async () => {
      const page = await browser.newPage({ colorScheme: scheme });
      const found: string[] = [];
      for (const path of ['', 'page/2/']) {
        await page.goto(`${server.url}${path}`);
        const violations = await axeViolations(page);
        // Serious ones, and a page of the list without its own h1 (moderate, but it leaves the page unnamed).
        const counted = (x: { id: string; impact: string | null }) =>
          x.impact === 'serious' || x.impact === 'critical' || x.id === 'page-has-heading-one';
        for (const v of violations.filter(counted))
          found.push(`/${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
      expect(found).toEqual([]);
      await page.close();
    });
  }

  it('rings the focused search box in the accent colour, as strong as every other focus outline', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ colorScheme: scheme });
      await page.goto(server.url);
      await page.focus('#q');
      const { ring, accent } = await page.evaluate(async () => {
        const box = document.querySelector<HTMLElement>('#q')!;
        // The ring fades in: read it once the transition is over.
        await Promise.all(box.getAnimations().map((a) => a.finished));
        const probe = document.body.appendChild(document.createElement('span'));
        probe.style.color = 'var(--accent)';
        const accent = getComputedStyle(probe).color;
        probe.remove();
        return { ring: getComputedStyle(box).boxShadow, accent };
      });
      // `rgb(79, 70, 229) 0px 0px 0px 2px, …`: the first ring is the accent, 2 px or wider.
      const first = /^(rgba?\([^)]*\)) 0px 0px 0px (\d+(?:\.\d+)?)px/.exec(ring);
      expect(first?.[1], `${scheme}: ${ring}`).toBe(accent);
      expect(Number(first?.[2])).toBeGreaterThanOrEqual(2);
      await page.close();
    }
  });
});
