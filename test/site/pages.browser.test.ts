/**
 * Every page type of the site in Chromium, as a phone and as a screen reader would meet it:
 * no horizontal overflow at 390 px, and axe-core (npm axe-core) finds no serious or critical
 * violation, in the light and the dark scheme. Also: the filter column appears only when the
 * catalog has tags or domains to filter by; a skill page leads with how to use the skill.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildFixtureSite, type BuiltFixture, type FixtureSkill } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { slug } from '../../src/site/urls.ts';
import { axeViolations } from './helpers/axe.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

/** One URL of each page type, and how to tell it has finished rendering. */
const PAGE_TYPES: Array<{ type: string; path: string; ready?: (page: Page) => Promise<unknown> }> = [
  { type: 'home', path: '' },
  {
    type: 'search results',
    path: '?q=invoice',
    ready: (page) => page.waitForSelector('#results[data-state^="invoice|"]'),
  },
  { type: 'tag', path: 'tags/accounting/' },
  { type: 'tags', path: 'tags/' },
  { type: 'domain', path: 'domains/finance/' },
  { type: 'skill', path: 'skills/pdf-toolkit/' },
  {
    type: 'file view',
    path: 'skills/pdf-toolkit/files/scripts/extract.py/',
    ready: (page) => page.waitForSelector('[data-viewer] .t-keyword'),
  },
  { type: 'file view (opened in place)', path: 'skills/pdf-toolkit/', ready: openInPlace },
  { type: 'about', path: 'about/' },
  { type: '404', path: 'no/such/page/' },
];

async function openInPlace(page: Page): Promise<void> {
  await page.click('.file-tree a:has-text("extract.py")');
  await page.waitForSelector('[data-viewer] .t-keyword');
}

const SCREENSHOTS = path.resolve('test-results/screenshots');
const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let plain: BuiltFixture;
let server: StaticServer;
let plainServer: StaticServer;
let browser: Browser;

/** A file name longer than the tree column is wide, in words joined by `_`, `-` and `.`. */
const LONG_FILE_NAME = 'anomaly_detection_results-summary.by-region.json';

/** A folder name wider than the tree column, with nowhere to break it but inside a word. */
const LONG_FOLDER_NAME = 'QuarterlyAnomalyDetectionRegionalSummaries';

/** One line of prose far wider than the file view, in a markdown reference file. */
const LONG_LINE = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of one long unbroken line of prose.`).join(
  ' ',
);

/** As long as the longest public descriptions (docx's runs to 1,000 characters). */
const LONG_DESCRIPTION = ' Use it whenever notes must be kept, found, merged, renamed or cleaned up later.'.repeat(10);

/**
 * Two skills with no tags and no domain, as most public catalogs are; their versions written as
 * google/skills writes them (`v1`) and as a number.
 */
const UNTAGGED: FixtureSkill[] = [
  ['alpha-notes', 'v2'],
  ['beta-notes', '"1.4"'],
].map(([name, version]) => ({
  name: name!,
  frontmatter: `name: ${name}\ndescription: Keeps ${name} in plain text files for later.${name === 'beta-notes' ? LONG_DESCRIPTION : ''}\nmetadata:\n  version: ${version}`,
  body: `# ${name}\n\nNothing to filter by here.\n`,
  ...(name === 'beta-notes' && {
    files: {
      [`references/${LONG_FILE_NAME}`]: '{}\n',
      'references/long-line.md': `# Long line\n\n${LONG_LINE}\n\nA short line after it.\n`,
      'references/long-line.txt': `${LONG_LINE}\n`,
      'scripts/long_line.py': `MESSAGE = ${JSON.stringify(LONG_LINE)}\nprint(MESSAGE)\n`,
      [`${LONG_FOLDER_NAME}/summary.md`]: '# Summary\n',
      // Enough files that the tree scrolls in its own box on a phone.
      ...Object.fromEntries(
        Array.from({ length: 16 }, (_, i) => [`notes/note-${String(i + 1).padStart(2, '0')}.md`, '# A note\n']),
      ),
    },
  }),
}));

/** Untagged skills in category folders (as openai/skills has), one of them in a lone `general` domain. */
const FOLDERED: FixtureSkill[] = [
  ['.curated/gamma-notes', ''],
  ['.curated/delta-notes', '\nmetadata:\n  domain: general'],
  ['.system/epsilon-notes', ''],
  // A folder name longer than the filter column is wide.
  ['incident-response-and-troubleshooting-runbooks/zeta-notes', ''],
].map(([dir, extra]) => {
  const name = dir!.split('/')[1]!;
  return {
    name: dir!,
    frontmatter: `name: ${name}\ndescription: Keeps ${name} in plain text files for later.${extra}`,
    body: `# ${name}\n\nFiled in a folder.\n`,
  };
});
let foldered: BuiltFixture;
let folderedServer: StaticServer;

beforeAll(async () => {
  if (skip) return;
  // A long registry title: the header must still fit a phone.
  const config = { registry: { name: 'local', title: 'The Rather Long-Named Internal Catalog of Agent Skills' } };
  [fixture, plain] = await Promise.all([buildFixtureSite({ config }), buildFixtureSite({ skills: UNTAGGED })]);
  server = await serveStatic({ root: fixture.outDir });
  plainServer = await serveStatic({ root: plain.outDir });
  foldered = await buildFixtureSite({ skills: FOLDERED });
  folderedServer = await serveStatic({ root: foldered.outDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await plainServer?.close();
  await fixture?.cleanup();
  await plain?.cleanup();
  await folderedServer?.close();
  await foldered?.cleanup();
});

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const violations = await axeViolations(page);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(skip)('every page type', () => {
  it('has no horizontal overflow at 390 px', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const overflowing: string[] = [];
    for (const { type, path, ready } of PAGE_TYPES) {
      await page.goto(`${server.url}${path}`);
      await ready?.(page);
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      if (scroll > client) overflowing.push(`${type}: ${scroll} px wide`);
    }
    // The header's navigation is on screen and not cut.
    const last = await page.locator('.nav-list li:last-child a').boundingBox();
    expect(last!.x + last!.width).toBeLessThanOrEqual(390);
    expect(overflowing).toEqual([]);
    // A long request's summary gets the whole width, the sort going below it rather than beside.
    const long = 'reconcile the supplier invoices against last quarter purchase orders';
    await page.goto(`${server.url}?q=${encodeURIComponent(long)}`);
    await page.waitForSelector(`#results[data-state^="${long}|"]`);
    const summary = (await page.locator('.results-count').boundingBox())!;
    const sort = (await page.locator('[data-sort]').boundingBox())!;
    expect(summary.width).toBeGreaterThan(300);
    expect(sort.y).toBeGreaterThanOrEqual(summary.y + summary.height);
    await page.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`passes axe-core with no serious or critical violation (${scheme})`, async () => {
      const page = await browser.newPage({ colorScheme: scheme });
      const found: string[] = [];
      for (const { type, path, ready } of PAGE_TYPES) {
        await page.goto(`${server.url}${path}`);
        await ready?.(page);
        for (const v of await seriousViolations(page)) found.push(`${type}: ${v}`);
      }
      expect(found).toEqual([]);
      await page.close();
    });
  }
});

describe.skipIf(skip)('headings', () => {
  it("keep their order on a tag's, a domain's and a folder's page (a heading over the list before the cards' names)", async () => {
    const page = await browser.newPage();
    const found: string[] = [];
    for (const url of [
      `${server.url}tags/accounting/`,
      `${server.url}domains/finance/`,
      `${folderedServer.url}folders/${slug('.curated')}/`,
    ]) {
      await page.goto(url);
      const ids = (await axeViolations(page, { runOnly: ['heading-order'] })).map((v) => v.id);
      for (const id of ids) found.push(`${url}: ${id}`);
    }
    expect(found).toEqual([]);
    await page.close();
  });
});

describe.skipIf(skip)('filters', () => {
  it('shows the filter column only when there is something to filter by', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    expect(await page.locator('aside.filters').count()).toBe(1);
    await page.goto(plainServer.url);
    expect(await page.locator('aside.filters').count()).toBe(0);
    // The list takes the whole width, and search still works.
    const list = await page.locator('#results').boundingBox();
    const body = await page.locator('.catalog-body').boundingBox();
    expect(list!.width).toBeGreaterThan(body!.width - 2);
    await page.fill('#q', 'beta');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.startsWith('beta|'),
    );
    expect(await page.$$eval('#results > li', (l) => l.map((c) => (c as HTMLElement).dataset.id))).toEqual([
      'beta-notes',
    ]);
    await page.close();
  });
});

describe.skipIf(skip)('facets from what the catalog has', () => {
  const navLabels = (page: Page) => page.$$eval('.nav-list a', (l) => l.map((a) => a.textContent?.trim()));

  it('offers no Tags page for a catalog without tags or folders', async () => {
    const page = await browser.newPage();
    await page.goto(plainServer.url);
    expect(await navLabels(page)).toEqual(['Catalog', 'About']);
    await page.close();
  });

  it('shows a version written with its v once: "v2", not "vv2", on cards, search results and the skill page', async () => {
    const page = await browser.newPage();
    const versions = () =>
      page.$$eval('#results .card', (l) =>
        l.map((c) => `${(c as HTMLElement).dataset.id} ${c.querySelector('.card-version')?.textContent}`).sort(),
      );
    await page.goto(plainServer.url);
    expect(await versions()).toEqual(['alpha-notes v2', 'beta-notes v1.4']);
    await page.goto(`${plainServer.url}?q=notes`);
    await page.waitForSelector('#results[data-state^="notes|"]');
    expect(await versions()).toEqual(['alpha-notes v2', 'beta-notes v1.4']);
    await page.goto(`${plainServer.url}skills/alpha-notes/`);
    expect(await page.locator('.badge', { hasText: /^v/ }).allTextContents()).toEqual(['v2']);
    await page.close();
  });

  it('turns category folders into a facet, and shows no domain column for one domain', async () => {
    const page = await browser.newPage();
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(folderedServer.url);
    expect(await navLabels(page)).toEqual(['Catalog', 'Folders', 'About']);
    expect(await page.locator('[data-facet="domain"]').count()).toBe(0);
    expect(await page.locator('[data-facet="tag"]').count()).toBe(0);
    const folders = await page.$$eval('[data-facet="folder"] .facet-item', (l) =>
      l.map((a) => a.textContent?.replace(/\s+/g, ' ').trim()),
    );
    expect(folders).toEqual(['.curated/ 2', '.system/ 1', 'incident-response-and-troubleshooting-runbooks/ 1']);
    // A long folder name wraps within the column: all of it is readable, and every count stays
    // in view beside its name.
    const column = (await page.locator('.filters').boundingBox())!;
    for (const count of await page.locator('[data-facet="folder"] .count').all()) {
      const box = (await count.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width);
    }
    const names = await page.$$eval('[data-facet="folder"] .facet-name', (l) =>
      l.map((e) => ({ text: e.textContent, clipped: e.scrollWidth > e.clientWidth })),
    );
    expect(names.filter((n) => n.clipped)).toEqual([]);
    // …and its whole name is also the item's tooltip.
    expect(await page.getAttribute('[data-facet="folder"] .facet-item:has-text("incident-response")', 'title')).toBe(
      'incident-response-and-troubleshooting-runbooks/',
    );
    // Choosing a folder narrows the results in place, as a tag does, and the URL keeps it.
    await page.click('[data-facet="folder"] .facet-item:has-text(".curated/")');
    await page.waitForSelector('#results[data-state*="+folder:.curated|"]');
    const cardIds = () => page.$$eval('#results > li', (l) => l.map((c) => (c as HTMLElement).dataset.id).sort());
    expect(await cardIds()).toEqual(['delta-notes', 'gamma-notes']);
    expect(new URL(page.url()).searchParams.get('folder')).toBe('.curated');
    // The skills' folders come from the site's small folders/skills.json, not the feed's cards.
    expect(fetched).toContain('/folders/skills.json');
    expect(fetched.filter((p) => p.endsWith('/cards.json'))).toEqual([]);
    expect(await page.getAttribute('[data-facet="folder"] .facet-item:has-text(".curated/")', 'aria-pressed')).toBe(
      'true',
    );
    // A query narrows within the folder; the folder's count is what the query leaves there.
    await page.fill('#q', 'gamma');
    await page.waitForSelector('#results[data-state^="gamma||+folder:.curated|"]');
    expect(await cardIds()).toEqual(['gamma-notes']);
    // A shared link gives the same results; the chip takes the folder off again.
    await page.goto(`${folderedServer.url}?folder=.system`);
    await page.waitForSelector('#results[data-state*="+folder:.system|"]');
    expect(await cardIds()).toEqual(['epsilon-notes']);
    await page.click('.active-filters .chip');
    await page.waitForSelector('#results[data-state^="|||relevance|"]');
    expect(await cardIds()).toHaveLength(4);
    // The folder's page still lists it, and offers its search.
    await page.goto(`${folderedServer.url}folders/${slug('.curated')}/`);
    const ids = await page.$$eval('.card', (l) => l.map((c) => (c as HTMLElement).dataset.id).sort());
    expect(ids).toEqual(['delta-notes', 'gamma-notes']);
    await page.click('a:has-text("search within these")');
    await page.waitForSelector('#results[data-state*="+folder:.curated|"]');
    expect(await cardIds()).toEqual(['delta-notes', 'gamma-notes']);
    // The browse page lists the folders, and no empty Tags section.
    await page.goto(`${folderedServer.url}tags/`);
    expect(await page.locator('#folders-h').count()).toBe(1);
    expect(await page.locator('#tags-h').count()).toBe(0);
    await page.close();
  });

  it("names the folder a skill comes from on its page, linked to the folder's page, where folders are a facet", async () => {
    const page = await browser.newPage();
    await page.goto(`${folderedServer.url}skills/gamma-notes/`);
    const link = page.locator('[data-folder-link]');
    expect(await link.textContent()).toBe('.curated/');
    await link.click();
    await page.waitForSelector('h1:has-text(".curated/")');
    // Without folders as a facet there is no folder to name.
    await page.goto(`${plainServer.url}skills/alpha-notes/`);
    expect(await page.locator('[data-folder-link]').count()).toBe(0);
    await page.close();
  });
});

describe.skipIf(skip)('URLs trimmed by hand', () => {
  /** Where Chromium ends up from `from` (a redirect page sends it on at once). */
  async function landsOn(page: Page, from: string, to: string): Promise<void> {
    const res = await page.goto(from);
    expect(res?.status(), from).toBe(200);
    await page.waitForURL(to);
  }

  it("leads to the catalog, a skill's files, the folders and the domains instead of a 404", async () => {
    const page = await browser.newPage();
    // `skills/`, `page/` and `page/1/`: the catalog's list.
    for (const trimmed of ['skills/', 'page/', 'page/1/']) await landsOn(page, `${server.url}${trimmed}`, server.url);
    await page.waitForSelector('#results .card');
    // `files/` and a folder of the files: the file tree on the skill's page.
    for (const trimmed of ['files/', 'files/scripts/'])
      await landsOn(page, `${server.url}skills/pdf-toolkit/${trimmed}`, `${server.url}skills/pdf-toolkit/#files`);
    expect(await page.locator('.file-tree a:has-text("extract.py")').isVisible()).toBe(true);
    // `domains/`: every domain with its count, linked to its page.
    expect((await page.goto(`${server.url}domains/`))?.status()).toBe(200);
    const domains = await page.$$eval('.tag-cloud a', (l) => l.map((a) => a.textContent?.replace(/\s+/g, ' ').trim()));
    expect(domains).toEqual(['documents 2', 'finance 3', 'security 1']);
    await page.click('.tag-cloud a:has-text("finance")');
    await page.waitForSelector('h1:has-text("finance")');
    // `folders/`: the folders with their counts, where folders are a facet; else still a 404.
    expect((await page.goto(`${folderedServer.url}folders/`))?.status()).toBe(200);
    const folders = await page.$$eval('.tag-cloud a', (l) => l.map((a) => a.textContent?.replace(/\s+/g, ' ').trim()));
    expect(folders).toEqual(['.curated/ 2', '.system/ 1', 'incident-response-and-troubleshooting-runbooks/ 1']);
    // Where the browse page is itself called Folders, the trail does not name "Folders" twice.
    const trail = await page.$$eval('.breadcrumb li', (l) => l.map((li) => li.textContent?.trim()));
    expect(trail).toEqual(['Catalog', 'Folders']);
    expect((await page.goto(`${server.url}folders/`))?.status()).toBe(404);
    await page.close();
  });
});

describe.skipIf(skip)('skill page', () => {
  for (const width of [390, 1280]) {
    it(`leads with how to use the skill at ${width} px: the install command above SKILL.md, not scrolling sideways`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${server.url}skills/invoice-reconciler/`);
      const install = (await page.locator('#skills-add-snippet').boundingBox())!;
      const mcp = (await page.locator('#mcp-snippet').boundingBox())!;
      const body = (await page.locator('[data-skill-body]').boundingBox())!;
      expect(install.y + install.height).toBeLessThan(body.y);
      expect(mcp.y + mcp.height).toBeLessThan(body.y);
      // On a screen, the command is in the first view.
      if (width >= 1280) expect(install.y + install.height).toBeLessThan(900);
      // The command wraps instead of scrolling, and its copy button is shown.
      const scrolls = await page.$eval('#skills-add-snippet', (e) => e.scrollWidth > e.clientWidth);
      expect(scrolls).toBe(false);
      // …between its words, never inside an option: `--skill` stays on one line at every width.
      const split = await page.$eval('#skills-add-snippet', (pre) => {
        const option = [...pre.querySelectorAll('.option')].find((e) => e.textContent === '--skill')!;
        const widths: number[] = [];
        for (let ch = 12; ch <= 60; ch++) {
          (pre as HTMLElement).style.width = `${ch}ch`;
          if (option.getClientRects().length > 1) widths.push(ch);
        }
        (pre as HTMLElement).style.width = '';
        return widths;
      });
      expect(split).toEqual([]);
      expect(await page.textContent('#skills-add-snippet')).toMatch(/^npx skills add \S+ --skill invoice-reconciler$/);
      expect(await page.locator('[data-copy="skills-add-snippet"]').isVisible()).toBe(true);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `skill-${width}.png`), fullPage: true });
      await page.close();
    });
  }
});

describe.skipIf(skip)('file page', () => {
  it("shows the file in the first view on a phone, however long the skill's description", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${plainServer.url}skills/beta-notes/files/SKILL.md/`);
    const viewer = (await page.locator('[data-viewer] .file-path').boundingBox())!;
    expect(viewer.y + viewer.height).toBeLessThan(844);
    // Cut short on screen, the description is all there (for screen readers, and whole on the skill page).
    expect(await page.locator('.page-head .lead').textContent()).toContain(LONG_DESCRIPTION.trim());
    await page.close();
  });

  it("scrolls the tree's own box on a phone to the file shown, and not the page", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${plainServer.url}skills/beta-notes/files/references/${LONG_FILE_NAME}/`);
    // The row is revealed on the first frame after the script runs: wait for it (it fails if it never is).
    const shown = await page
      .waitForFunction(
        () => {
          const tree = document.querySelector('.file-tree')!.getBoundingClientRect();
          const row = document.querySelector('.file-tree a[aria-current="page"]')!.getBoundingClientRect();
          return row.top >= tree.top && row.bottom <= tree.bottom;
        },
        undefined,
        { timeout: 5_000 },
      )
      .then(
        () => true,
        () => false,
      );
    expect(shown).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.close();
  });

  it('wraps a long file name in the tree between its words, not inside one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${plainServer.url}skills/beta-notes/files/SKILL.md/`);
    const lines = await laidOutLines(page.locator('.file-tree .tree-name', { hasText: 'anomaly_' }));
    expect(lines.join('')).toBe(LONG_FILE_NAME);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line, lines.join(' | ')).toMatch(/[_.-]$/);
    await page.close();
  });

  for (const width of [1280, 390]) {
    it(`wraps prose at the view's width at ${width} px, a long line's rows past its number, and scrolls code sideways`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      for (const file of ['references/long-line.md', 'references/long-line.txt']) {
        await page.goto(`${plainServer.url}skills/beta-notes/files/${file}/`);
        await page.waitForSelector('[data-viewer] pre.code .line');
        const view = await page.$eval('[data-viewer] pre.code', (pre) => ({
          scrolls: pre.scrollWidth > pre.clientWidth,
          text: pre.textContent,
        }));
        expect(view.scrolls, file).toBe(false);
        expect(view.text, file).toContain(LONG_LINE);
        // The long line takes several rows; its number stands once, beside the first, and every
        // row starts past the numbers, where the line's first row starts.
        const line = page.locator('[data-viewer] pre.code .line', { hasText: 'Sentence 1 ' });
        const rows = (await laidOutRows(line)).map((row) => row.left).filter(Number.isFinite);
        expect(rows.length, file).toBeGreaterThan(1);
        for (const left of rows) expect(Math.abs(left - rows[0]!), file).toBeLessThan(1);
        const gutter = await line.evaluate((el) => el.getBoundingClientRect().left);
        expect(rows[0]! - gutter, file).toBeGreaterThan(20);
      }
      // Code keeps its lines whole: it scrolls sideways instead.
      await page.goto(`${plainServer.url}skills/beta-notes/files/scripts/long_line.py/`);
      await page.waitForSelector('[data-viewer] pre.code .line');
      expect(await page.$eval('[data-viewer] pre.code', (pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.goto(`${plainServer.url}skills/beta-notes/files/references/long-line.md/`);
      await page.waitForSelector('[data-viewer] pre.code .line');
      await page.screenshot({ path: path.join(SCREENSHOTS, `file-prose-${width}.png`) });
      await page.close();
    });

    it(`shows a long folder name whole in the tree at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${plainServer.url}skills/beta-notes/files/${LONG_FOLDER_NAME}/summary.md/`);
      const dir = page.locator('.file-tree .tree-dir-name', { hasText: 'Quarterly' });
      expect(await dir.textContent()).toBe(`${LONG_FOLDER_NAME}/`);
      expect(await dir.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      // Nor does the tree's box scroll sideways to show it.
      expect(await page.$eval('.file-tree', (t) => t.scrollWidth <= t.clientWidth)).toBe(true);
      await page.close();
    });
  }

  it('never starts a line of the breadcrumb with a separator on a phone', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${plainServer.url}skills/beta-notes/files/references/${LONG_FILE_NAME}/`);
    const items = await page.$$eval('.breadcrumb li', (lis) =>
      lis.map((li) => {
        // The rows of the item's own text (a separator is drawn by the stylesheet, outside it).
        const range = document.createRange();
        range.selectNodeContents(li);
        const rows = [...range.getClientRects()].filter((r) => r.width > 0);
        const sep = (pseudo: string): boolean => getComputedStyle(li, pseudo).content.includes('/');
        return {
          text: li.textContent,
          firstTop: rows[0]!.top,
          lastTop: rows[rows.length - 1]!.top,
          lastBottom: rows[rows.length - 1]!.bottom,
          bottom: li.getBoundingClientRect().bottom,
          lineHeight: parseFloat(getComputedStyle(li).lineHeight),
          before: sep('::before'),
          after: sep('::after'),
        };
      }),
    );
    expect(items.map((i) => i.text)).toEqual(['Catalog', 'beta-notes', `references/${LONG_FILE_NAME}`]);
    // The trail does wrap at this width (else there is nothing to test).
    expect(items[2]!.lastTop).toBeGreaterThan(items[0]!.firstTop);
    for (const [i, item] of items.entries()) {
      const half = item.lineHeight / 2;
      // A separator drawn before an item sits on the row where the item before it ends…
      if (item.before) expect(Math.abs(item.firstTop - items[i - 1]!.lastTop), item.text).toBeLessThan(half);
      // …and one drawn after an item on the row of its last word, not alone on a row below it.
      if (item.after) expect(item.bottom - item.lastBottom, item.text).toBeLessThan(half);
    }
    expect(items.filter((i) => i.before || i.after).length).toBe(2);
    await page.close();
  });

  it("wraps a long path in the file panel's heading between its words on a phone, not inside one", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${plainServer.url}skills/beta-notes/files/references/${LONG_FILE_NAME}/`);
    const lines = await laidOutLines(page.locator('[data-viewer] .file-path'));
    expect(lines.join('')).toBe(`references/${LONG_FILE_NAME}`);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line, lines.join(' | ')).toMatch(/[_./-]$/);
    await page.close();
  });
});

/** The text of each line an element is laid out on, from where each of its characters lands. */
async function laidOutLines(element: Locator): Promise<string[]> {
  return (await laidOutRows(element)).map((row) => row.text);
}

/** Each row an element is laid out on, top to bottom: its text and where its first drawn character starts. */
function laidOutRows(element: Locator): Promise<Array<{ text: string; left: number }>> {
  return element.evaluate((el) => {
    const rows = new Map<number, { text: string; left: number }>();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        const top = Math.round(box.top);
        const row = rows.get(top) ?? { text: '', left: Infinity };
        row.text += node.textContent![i];
        // A character drawn with no width (a collapsed space) does not say where the row starts.
        if (box.width > 0) row.left = Math.min(row.left, box.left);
        rows.set(top, row);
      }
    }
    return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  });
}

describe.skipIf(skip)('search shortcuts', () => {
  it('focuses search with / and Ctrl-K, and Esc clears it, then leaves it', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    const focused = () => page.evaluate(() => document.activeElement?.id);
    await page.keyboard.press('/');
    expect(await focused()).toBe('q');
    // The '/' focused the box and was not typed into it.
    expect(await page.inputValue('#q')).toBe('');
    await page.keyboard.type('invoice');
    await page.waitForSelector('#results[data-state^="invoice|"]');
    await page.keyboard.press('Escape');
    expect(await page.inputValue('#q')).toBe('');
    await page.waitForSelector('#results[data-state^="|"]');
    expect(await focused()).toBe('q');
    await page.keyboard.press('Escape');
    expect(await focused()).not.toBe('q');
    await page.keyboard.press('Control+k');
    expect(await focused()).toBe('q');
    await page.close();
  });

  it('keeps the focus on a filter chosen from the keyboard, on and off again (tags, folders, chips)', async () => {
    const page = await browser.newPage();
    const current = () =>
      page.evaluate(() => {
        const e = document.activeElement as HTMLElement;
        return `${e.dataset.facetValue} ${e.getAttribute('aria-pressed')}`;
      });
    for (const [url, facet, value, state] of [
      [server.url, 'tag', 'audit', '|audit|'],
      [folderedServer.url, 'folder', '.system', '+folder:.system|'],
    ] as const) {
      await page.goto(url);
      await page.focus(`[data-facet="${facet}"] [data-facet-value="${value}"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`#results[data-state*="${state}"]`);
      expect(await current()).toBe(`${value} true`);
      // Space takes it off again: the focus stays on it.
      await page.keyboard.press('Space');
      await page.waitForFunction(
        (s) => !document.querySelector('#results')?.getAttribute('data-state')?.includes(s),
        state,
      );
      expect(await current()).toBe(`${value} false`);
    }
    // Removing a filter by its chip hands the focus to the next chip, then to the search box.
    await page.goto(`${server.url}?tag=audit&tag=accounting`);
    await page.waitForSelector('#results[data-state*="|audit,accounting|"]');
    await page.focus('.active-filters .chip');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#results[data-state*="|accounting|"]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Remove filter #accounting',
    );
    await page.keyboard.press('Enter');
    await page.waitForSelector('#results[data-state^="|||"]');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.close();
  });
});
