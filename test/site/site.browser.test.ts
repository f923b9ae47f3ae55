/**
 * The catalog site in a real Chromium (Debian's package, driven by playwright-core): search,
 * filters, the skill page and its files, hostile content, and screenshots for people to look at.
 * The fixture site is built once, with the real `skillpress build`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildFixtureSite, ODD_NAMES, type BuiltFixture } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const SCREENSHOTS = path.resolve('test-results/screenshots');

let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;
/** A query the fixture answers with strong matches and weaker ones (folded). */
const FOLDED_QUERY = 'audit';

/** A page that records what a hostile skill might try: dialogs, page errors, console errors. */
interface Watched {
  page: Page;
  dialogs: string[];
  errors: string[];
}

async function open(url: string, options: { width?: number } = {}): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1280, height: 900 } });
  const watched: Watched = { page, dialogs: [], errors: [] };
  page.on('dialog', (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => watched.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') watched.errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  return watched;
}

/** Ids of the listed skills, in order. */
const listed = (page: Page): Promise<string[]> =>
  page.$$eval('#results > li.card', (cards) => cards.map((c) => (c as HTMLElement).dataset.id!));

async function searchFor(page: Page, query: string, expectFirst: string): Promise<string[]> {
  await page.fill('#q', query);
  await page
    .waitForFunction(
      ([q, id]) =>
        document.querySelector('#results')?.getAttribute('data-state')?.startsWith(`${q}|`) &&
        document.querySelector<HTMLElement>('#results > li')?.dataset.id === id,
      [query, expectFirst] as const,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  return listed(page);
}

const skip = skipWithoutChromium();

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite();
  server = await serveStatic({ root: fixture.outDir });
  browser = await launchChromium();
  await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

describe.skipIf(skip)('catalog and search', () => {
  it('lists every skill without JavaScript, with the total and filter links', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(server.url);
    expect(await listed(page)).toEqual([
      'budget-forecaster',
      'expense-auditor',
      'invoice-reconciler',
      'odd-file-names',
      'pdf-toolkit',
      'xss-attempt',
    ]);
    expect(await page.textContent('[data-results-count]')).toContain('6 skills');
    expect(await page.getAttribute('[data-facet="domain"] a[data-facet-value="finance"]', 'href')).toBe(
      '/domains/finance/',
    );
    await page.click('[data-facet="domain"] a[data-facet-value="finance"]');
    expect(await page.$$eval('ol.card-grid > li', (l) => l.map((c) => (c as HTMLElement).dataset.id))).toEqual([
      'budget-forecaster',
      'expense-auditor',
      'invoice-reconciler',
    ]);
    await page.close();
  });

  it('loads nothing for search before the first focus, then only search.json', async () => {
    const { page, errors } = await open(server.url);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.waitForLoadState('networkidle');
    expect(requests.filter((p) => p.includes('/feed/'))).toEqual([]);
    await page.focus('#q');
    await page.waitForResponse((r) => r.url().endsWith('/feed/v1/search.json'));
    expect(requests.filter((p) => p.includes('/feed/'))).toEqual(['/feed/v1/search.json']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('finds a skill by name, misspelt name, body-only word and file path, first', async () => {
    const { page, errors } = await open(server.url);
    expect((await searchFor(page, 'invoice-reconciler', 'invoice-reconciler'))[0]).toBe('invoice-reconciler');
    expect((await searchFor(page, 'invoce reconciler', 'invoice-reconciler'))[0]).toBe('invoice-reconciler');
    expect((await searchFor(page, 'reconcilr', 'invoice-reconciler'))[0]).toBe('invoice-reconciler');
    // Only in expense-auditor's SKILL.md body: found once the body index has loaded.
    expect((await searchFor(page, 'quokkanomics', 'expense-auditor'))[0]).toBe('expense-auditor');
    expect((await searchFor(page, 'scripts/extract.py', 'pdf-toolkit'))[0]).toBe('pdf-toolkit');
    // Written once typing pauses, not per keystroke.
    await page.waitForURL((url) => url.searchParams.get('q') === 'scripts/extract.py');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'search.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the query in the URL: a shared link shows the same results', async () => {
    const { page } = await open(`${server.url}?q=${encodeURIComponent('budget')}`);
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.startsWith('budget|'),
    );
    expect(await page.inputValue('#q')).toBe('budget');
    expect((await listed(page))[0]).toBe('budget-forecaster');
    await page.close();
  });

  it('keeps the query in the history entry when a result is opened before typing pauses', async () => {
    const { page } = await open(server.url);
    await searchFor(page, 'invoice', 'invoice-reconciler');
    // Typed and opened in one task: well before the pause that writes the URL.
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      input.value = 'budget';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      document.querySelector<HTMLAnchorElement>('#results > li a')!.click();
    });
    await page.waitForURL(/\/skills\/budget-forecaster\/$/);
    await page.goBack();
    expect(new URL(page.url()).searchParams.get('q')).toBe('budget');
    await page.close();
  });

  it('narrows with tag and domain filters whose counts match the results', async () => {
    const { page, errors } = await open(server.url);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'home.png'), fullPage: true });
    const count = async (facet: string, value: string) =>
      Number(await page.textContent(`[data-facet="${facet}"] [data-facet-value="${value}"] .count`));

    await page.click('[data-facet="domain"] [data-facet-value="finance"]');
    await page.waitForSelector('[data-facet="domain"] button[aria-pressed="true"]');
    expect(await listed(page)).toEqual(['budget-forecaster', 'expense-auditor', 'invoice-reconciler']);
    expect(await page.textContent('[data-results-count]')).toContain('3 skills');
    expect(new URL(page.url()).searchParams.get('domain')).toBe('finance');

    const accounting = await count('tag', 'accounting');
    await page.click('[data-facet="tag"] [data-facet-value="accounting"]');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.includes('|accounting|'),
    );
    const ids = await listed(page);
    expect(ids).toEqual(['budget-forecaster', 'invoice-reconciler']);
    expect(ids.length).toBe(accounting);
    // Every tag's count is the number of results it would leave.
    const tagCounts = await page.$$eval('[data-facet="tag"] [data-facet-value]', (items) =>
      items.map(
        (i) => [(i as HTMLElement).dataset.facetValue!, Number(i.querySelector('.count')!.textContent)] as const,
      ),
    );
    for (const [, n] of tagCounts) expect(n).toBeLessThanOrEqual(ids.length);
    expect(Object.fromEntries(tagCounts).audit).toBe(1);

    // Sorting by name keeps the filtered set; removing the filters brings everything back.
    await page.selectOption('#sort', 'name');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.includes('|name|'),
    );
    expect(await listed(page)).toEqual(['budget-forecaster', 'invoice-reconciler']);
    expect(await page.locator('#results .card-updated').count()).toBe(0);
    // Sorted by when skills changed, each card says when: the date cards.json gives it.
    await page.selectOption('#sort', 'updated');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.includes('|updated|'),
    );
    const dated = await page.$$eval('#results > li', (cards) =>
      cards.map((c) => {
        const time = c.querySelector('.card-updated');
        return { id: (c as HTMLElement).dataset.id!, text: time?.textContent, iso: time?.getAttribute('datetime') };
      }),
    );
    const published = await page.evaluate(async () => {
      const { skills } = (await (await fetch('feed/v1/cards.json')).json()) as {
        skills: Array<{ id: string; updated_at: string }>;
      };
      return Object.fromEntries(skills.map((c) => [c.id, c.updated_at]));
    });
    expect(dated.map((d) => d.id).sort()).toEqual(['budget-forecaster', 'invoice-reconciler']);
    for (const { id, text, iso } of dated) {
      expect(iso).toBe(published[id]);
      expect(text).toBe(`Updated ${published[id]!.slice(0, 10)}`);
    }
    await page.selectOption('#sort', 'name');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.includes('|name|'),
    );
    expect(await page.locator('#results .card-updated').count()).toBe(0);
    await page.click('.chip >> text=finance');
    await page.click('.chip >> text=#accounting');
    await page.waitForFunction(() => document.querySelectorAll('#results > li').length === 6);

    // A search nothing matches leaves no filter heading over an empty list.
    await page.fill('#q', 'zqxjvw');
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.startsWith('zqxjvw|'),
    );
    expect(await page.isHidden('[data-facet="domain"]')).toBe(true);
    expect(await page.isHidden('[data-facet="tag"]')).toBe(true);
    await page.fill('#q', '');
    await page.waitForFunction(() => document.querySelectorAll('#results > li').length === 6);
    expect(await page.isVisible('[data-facet="domain"] h2')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('facet counts beside folded weaker matches', () => {
  /** Each value of a facet with its count, as the page shows them. */
  const counts = (page: Page, facet: string): Promise<Array<readonly [string, number]>> =>
    page.$$eval(`[data-facet="${facet}"] [data-facet-value]`, (items) =>
      items.map(
        (i) => [(i as HTMLElement).dataset.facetValue!, Number(i.querySelector('.count')!.textContent)] as const,
      ),
    );
  const sum = (entries: Array<readonly [string, number]>): number => entries.reduce((n, [, c]) => n + c, 0);

  it('count the skills the list shows: the strong matches, then all of them once the fold is open', async () => {
    const { page, errors } = await open(`${server.url}?q=${encodeURIComponent(FOLDED_QUERY)}`);
    await page.waitForFunction(
      (q) => document.querySelector('#results')?.getAttribute('data-state')?.startsWith(`${q}|||relevance|body`),
      FOLDED_QUERY,
    );
    const fold = page.locator('[data-more][data-fold="weaker"]:visible');
    expect(await fold.count(), 'the query has weaker matches to fold').toBe(1);
    const strong = await listed(page);
    // Every fixture skill has one domain: the domain counts add up to the cards listed.
    expect(sum(await counts(page, 'domain'))).toBe(strong.length);
    for (const [tag, n] of await counts(page, 'tag')) expect(n, tag).toBeLessThanOrEqual(strong.length);

    await fold.click();
    await page.waitForFunction((n) => document.querySelectorAll('#results > li.card').length > n, strong.length);
    const all = await listed(page);
    expect(sum(await counts(page, 'domain'))).toBe(all.length);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The path of the file the viewer shows, once its panel is there. */
async function shownFile(page: Page, path: string): Promise<string> {
  await page.waitForSelector(`[data-viewer] [data-file-panel][data-path="${path.replace(/"/g, '\\"')}"]`);
  return (await page.textContent('[data-viewer] .file-path'))!;
}

describe.skipIf(skip)('skill page', () => {
  it('shows the card, the summary, the rendered SKILL.md and the file tree, and how to install it', async () => {
    const { page, errors } = await open(`${server.url}skills/invoice-reconciler/`);
    const card = page.locator('[data-tier="card"]');
    expect(await card.locator('h1').textContent()).toBe('invoice-reconciler');
    expect(await card.textContent()).toContain('Matches supplier invoices against purchase orders');
    expect(await card.locator('.pill').allTextContents()).toEqual(['finance', '#invoices', '#accounting', '#audit']);
    const summary = await page.locator('[data-tier="summary"]').textContent();
    for (const text of ['License', 'MIT', 'Fixture Finance Team', '1.4.0', 'Tokens']) expect(summary).toContain(text);
    const full = page.locator('[data-tier="full"]');
    expect(await full.locator('h1').textContent()).toBe('Invoice reconciler');
    expect(await full.locator('ol li').count()).toBe(2);
    expect(await page.locator('.file-tree a').allTextContents()).toEqual([
      expect.stringContaining('SKILL.md'),
      expect.stringContaining('match.py'),
    ]);
    // The ecosystem's installer first, then the MCP configuration, then (folded) skillpress.
    const snippets = await page.locator('.snippet pre').allTextContents();
    expect(snippets[0]).toBe(`npx skills add ${server.url} --skill invoice-reconciler`);
    expect(snippets[1]).toContain('"mcp"');
    expect(snippets[2]).toBe(`skillpress install ${server.url} invoice-reconciler`);
    // No file's content is on the skill page.
    expect(await page.locator('[data-file-panel]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a file in place with JavaScript: fetched, highlighted, its URL in the address bar', async () => {
    const { page, errors } = await open(`${server.url}skills/invoice-reconciler/`);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.click('.file-tree a:has-text("match.py")');
    expect(await shownFile(page, 'scripts/match.py')).toBe('scripts/match.py');
    expect(page.url()).toBe(`${server.url}skills/invoice-reconciler/files/scripts/match.py/`);
    expect(requests).toContain('/skills/invoice-reconciler/files/scripts/match.py/');
    // Still the skill page: its SKILL.md is there, the tree marks the open file.
    expect(await page.locator('[data-tier="full"] h1').textContent()).toBe('Invoice reconciler');
    expect(await page.getAttribute('.file-tree a:has-text("match.py")', 'aria-current')).toBe('page');
    await page.waitForSelector('[data-viewer] pre.code .t-keyword');
    expect(await page.locator('[data-viewer] pre.code .t-keyword').first().textContent()).toBe('def');
    await page.click('.file-tree a:has-text("SKILL.md")');
    expect(await shownFile(page, 'SKILL.md')).toBe('SKILL.md');
    await page.goBack();
    expect(await shownFile(page, 'scripts/match.py')).toBe('scripts/match.py');
    await page.goBack();
    await page.waitForFunction(() => !document.querySelector('[data-viewer] [data-file-panel]'));
    expect(page.url()).toBe(`${server.url}skills/invoice-reconciler/`);
    // A reload of a file's URL shows that file on its own page.
    await page.goto(`${server.url}skills/invoice-reconciler/files/scripts/match.py/`);
    expect(await shownFile(page, 'scripts/match.py')).toBe('scripts/match.py');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'file-view.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a file by a plain link without JavaScript', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${server.url}skills/pdf-toolkit/`);
    await page.click('.file-tree a:has-text("extract.py")');
    await page.waitForURL(`${server.url}skills/pdf-toolkit/files/scripts/extract.py/`);
    expect(await page.textContent('[data-viewer] .file-path')).toBe('scripts/extract.py');
    expect(await page.textContent('[data-viewer] pre.code')).toContain('def extract(path: str) -> str:');
    expect(await page.getAttribute('.file-tree a:has-text("extract.py")', 'aria-current')).toBe('page');
    // The relative link in SKILL.md goes to the same page.
    await page.goto(`${server.url}skills/pdf-toolkit/`);
    await page.click('[data-skill-body] a:has-text("the script")');
    await page.waitForURL(`${server.url}skills/pdf-toolkit/files/scripts/extract.py/`);
    await page.close();
  });

  it('opens the file a relative link in SKILL.md names, in place', async () => {
    const { page, errors } = await open(`${server.url}skills/pdf-toolkit/`);
    await page.click('[data-skill-body] a:has-text("the script")');
    expect(await shownFile(page, 'scripts/extract.py')).toBe('scripts/extract.py');
    expect(page.url()).toBe(`${server.url}skills/pdf-toolkit/files/scripts/extract.py/`);
    await page.click('[data-skill-body] a:has-text("logo")');
    expect(await shownFile(page, 'assets/logo.png')).toBe('assets/logo.png');
    expect(
      await page.locator('[data-viewer] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    ).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves every file byte-exact, whatever its name, from its own page, and the archives', async () => {
    for (const id of ['odd-file-names', 'pdf-toolkit']) {
      const { page, errors } = await open(`${server.url}skills/${id}/`);
      const views = await page.$$eval('.file-tree a[data-file-link]', (as) =>
        as.map((a) => (a as HTMLAnchorElement).href),
      );
      const expected =
        id === 'odd-file-names'
          ? ['SKILL.md', ...ODD_NAMES]
          : ['SKILL.md', 'assets/logo.png', 'data/sample.bin', 'scripts/extract.py'];
      const seen: string[] = [];
      for (const view of views) {
        const res = await page.goto(view);
        expect(res?.status(), view).toBe(200);
        const filePath = (await page.getAttribute('[data-file-panel]', 'data-path'))!;
        seen.push(filePath);
        const href = await page.locator('[data-download-link]').evaluate((a: HTMLAnchorElement) => a.href);
        const source = await readFile(path.join(fixture.skillsDir, id, ...filePath.split('/')));
        const got = await page.evaluate(async (h) => {
          const r = await fetch(h);
          const digest = await crypto.subtle.digest('SHA-256', await r.arrayBuffer());
          return {
            status: r.status,
            sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''),
          };
        }, href);
        expect(got, filePath).toEqual({ status: 200, sha256: createHash('sha256').update(source).digest('hex') });
      }
      expect(seen.sort()).toEqual(expected.sort());
      expect(errors).toEqual([]);
      await page.close();
    }
    const { page } = await open(`${server.url}skills/pdf-toolkit/files/data/sample.bin/`);
    expect(await page.locator('[data-file-panel] .file-note').textContent()).toContain('Binary file');
    await page.goto(`${server.url}skills/pdf-toolkit/`);
    expect(await page.locator('[data-skill-body] img').getAttribute('src')).toBe(
      '/feed/v1/files/pdf-toolkit/assets/logo.png',
    );
    // Code is highlighted when it scrolls into view (below the install snippets at the top).
    await page.locator('[data-skill-body] pre code.language-python').first().scrollIntoViewIfNeeded();
    await page.locator('[data-skill-body] pre code.language-python .t-keyword').first().waitFor();
    expect(await page.locator('[data-skill-body] pre code.language-python .t-keyword').first().textContent()).toBe(
      'from',
    );
    const zip = await page.getAttribute('a:has-text("Download .zip")', 'href');
    expect(await page.evaluate(async (href) => (await fetch(href!)).status, zip)).toBe(200);
    await page.close();
  });

  it('renders hostile content without running any of it, in the page and in file views', async () => {
    const { page, dialogs, errors } = await open(`${server.url}skills/xss-attempt/`);
    await page.waitForLoadState('networkidle');
    const body = page.locator('[data-skill-body]');
    expect(await body.textContent()).toContain('Safe text survives');
    expect(
      await page
        .locator(
          '[data-skill-body] script, [data-skill-body] iframe, [data-skill-body] svg, [data-skill-body] [onerror], [data-skill-body] [onclick], [data-skill-body] [style]',
        )
        .count(),
    ).toBe(0);
    const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs.filter((h) => /^\s*(javascript|data):/i.test(h))).toEqual([]);
    // The hostile description is text, not markup.
    expect(await page.locator('.skill-desc').textContent()).toContain('<script>');
    // Hostile files show as source, opened in place; active types are downloads, never "Raw".
    for (const file of ['evil.html', 'page.html']) {
      await page.click(`.file-tree a:has-text("${file}")`);
      await shownFile(page, file);
      expect(await page.locator('[data-viewer] pre.code').textContent()).toContain('<script>');
      expect(await page.locator('[data-viewer] [data-raw-link]').count()).toBe(0);
      expect(await page.getAttribute('[data-viewer] [data-download-link]', 'download')).toBe(file);
    }
    expect(await page.locator('[data-viewer] pre.code').textContent()).toContain("$& $' $` $1");
    // The SVG shows as an image, which never runs its script.
    await page.click('[data-skill-body] a:has-text("drawing")');
    await shownFile(page, 'evil.svg');
    await page.locator('[data-viewer] img').evaluate((img: HTMLImageElement) => img.decode().catch(() => {}));
    for (const url of [
      `${server.url}tags/`,
      `${server.url}domains/security/`,
      `${server.url}?q=xss`,
      `${server.url}skills/xss-attempt/files/evil.html/`,
    ]) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
    }
    await page.goto(server.url);
    await page.fill('#q', 'harmless');
    await page.waitForSelector('#results > li[data-id="xss-attempt"]');
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sets a Content-Security-Policy without unsafe-inline scripts', async () => {
    const { page } = await open(`${server.url}skills/xss-attempt/`);
    const csp = (await page.getAttribute('meta[http-equiv="content-security-policy"]', 'content')) ?? '';
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    // No inline script of ours either: only external modules.
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await page.locator('script[src]').count()).toBeGreaterThan(0);
    await page.close();
  });
});

describe.skipIf(skip)('site pages', () => {
  it('serves tag pages, the about page and a 404 page', async () => {
    const { page, errors } = await open(`${server.url}tags/`);
    await page.click('a.pill:has-text("#accounting")');
    expect(await page.locator('h1').textContent()).toBe('#accounting');
    expect(await page.$$eval('ol.card-grid > li', (l) => l.length)).toBe(2);
    await page.goto(`${server.url}about/`);
    expect(await page.locator('#mcp h2').textContent()).toContain('MCP server');
    const feedHref = await page.getAttribute('a:has-text("feed/v1/index.json")', 'href');
    expect((await page.evaluate(async (h) => (await fetch(h!)).json(), feedHref)).feed_version).toBe('1');
    const res = await page.goto(`${server.url}skills/no-such-skill/`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toContain('not in the catalog');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.close();
  });

  it('is usable from the keyboard', async () => {
    const { page } = await open(server.url);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.focus('#q');
    await page.keyboard.type('pdf');
    // The page's own list holds pdf-toolkit too: wait for the search's.
    await page.waitForFunction(() =>
      document.querySelector('#results')?.getAttribute('data-state')?.startsWith('pdf|'),
    );
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pdf-toolkit');
    // The list is drawn again once the body index refines it: the focus stays on the result.
    await page.waitForFunction(() => document.querySelector('#results')?.getAttribute('data-state')?.endsWith('|body'));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pdf-toolkit');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/skills\/pdf-toolkit\/$/);
    await page.close();
  });

  it('focuses the first result of a search submitted while the search index loads, not a card of the unfiltered list', async () => {
    const { page } = await open(server.url);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/search.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.focus('#q');
    await page.keyboard.type('pdf');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.closest('#results') === null)).toBe(true);
    release();
    await page.waitForFunction(() => document.activeElement?.textContent === 'pdf-toolkit');
    await page.close();
  });
});
