/**
 * A site that shows skills imported from a peer registry without re-exporting them: the site is
 * built from its own catalog feed (`catalog/v1`), imported skills carry the peer's name, and
 * search and file links work against that feed. Its skills come from two registries: they are a
 * facet, with and without JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildFixtureSite, SKILLS, type BuiltFixture } from './helpers/fixture.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';

const skip = skipWithoutChromium();
const built: BuiltFixture[] = [];
const servers: StaticServer[] = [];
let site: StaticServer;
let browser: Browser;

let keyDir: string;
/** A folder served as another host's files: a SKILL.md registered by URL. */
let urlDir: string;

beforeAll(async () => {
  if (skip) return;
  keyDir = await mkdtemp(path.join(tmpdir(), 'skillpress-key-'));
  const peer = await buildFixtureSite({
    skills: SKILLS.filter((s) => s.name === 'pdf-toolkit'),
    // The peer signs its skills (its key made by this first build, outside the output): the site says verified.
    config: { registry: { name: 'acme', title: 'Acme skills', signing_key: path.join(keyDir, 'acme.pem') } },
  });
  built.push(peer);
  const peerServer = await serveStatic({ root: peer.outDir });
  servers.push(peerServer);
  urlDir = await mkdtemp(path.join(tmpdir(), 'skillpress-url-skill-'));
  await mkdir(path.join(urlDir, 'release-notes'));
  await writeFile(
    path.join(urlDir, 'release-notes/SKILL.md'),
    '---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when preparing a release.\n---\n\n# Release notes\n',
  );
  const urlServer = await serveStatic({ root: urlDir });
  servers.push(urlServer);
  const local = await buildFixtureSite({
    skills: SKILLS.filter((s) => s.name === 'invoice-reconciler'),
    config: {
      registry: { name: 'home', title: 'Home skills' },
      federation: {
        peers: [{ name: 'acme', url: peerServer.url, mode: 'all' }],
        skill_urls: [`${urlServer.url}release-notes/SKILL.md`],
        trusted_domains: ['127.0.0.1'],
      },
    },
  });
  built.push(local);
  site = await serveStatic({ root: local.outDir });
  servers.push(site);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  for (const b of built) await b.cleanup();
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
  if (urlDir) await rm(urlDir, { recursive: true, force: true });
});

describe.skipIf(skip)('imported skills on the site', () => {
  it('lists, searches and opens a skill imported from a peer, with its registry', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(site.url);
    expect(await page.locator('#results > li').count()).toBe(3);
    expect(await page.locator('#results > li[data-id="pdf-toolkit"] .card-registry').textContent()).toBe(
      'verified from acme',
    );
    expect(await page.locator('#results > li[data-id="invoice-reconciler"] .card-registry').count()).toBe(0);

    const searchRequest = page.waitForRequest((r) => r.url().endsWith('search.json'));
    await page.fill('#q', 'extract.py');
    expect(new URL((await searchRequest).url()).pathname).toBe('/catalog/v1/search.json');
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#results > li')?.dataset.id === 'pdf-toolkit',
    );
    expect(await page.locator('#results > li[data-id="pdf-toolkit"] .card-registry').textContent()).toBe(
      'verified from acme',
    );

    await page.click('#results > li[data-id="pdf-toolkit"] h3 a');
    await page.waitForURL(`${site.url}skills/pdf-toolkit/`);
    expect(await page.locator('[data-tier="card"] .badge-accent').textContent()).toBe('verified from acme');
    expect(await page.locator('[data-tier="summary"]').textContent()).toContain('acme');
    // Not re-exported here: it installs from the peer, which the summary links to.
    expect(await page.textContent('#skills-add-snippet')).toBe(`npx skills add ${servers[0]!.url} --skill pdf-toolkit`);
    expect(await page.textContent('#install-snippet')).toBe(`skillpress install ${servers[0]!.url} pdf-toolkit`);
    // …and agents reach it over MCP through the peer's feed, which holds it, not this site's.
    expect(JSON.parse((await page.textContent('#mcp-snippet'))!)).toEqual({
      mcpServers: { acme: { command: 'skillpress', args: ['mcp', '--feed', `${servers[0]!.url}feed/v1/index.json`] } },
    });
    expect(await page.locator('[data-tier="summary"] a:has-text("feed/v1/index.json")').count()).toBe(1);
    await page.click('.file-tree a:has-text("extract.py")');
    await page.waitForSelector('[data-viewer] [data-file-panel][data-path="scripts/extract.py"]');
    const href = await page.locator('[data-viewer] [data-raw-link]').evaluate((a: HTMLAnchorElement) => a.href);
    expect(await page.evaluate(async (h) => (await fetch(h)).status, href)).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('filters by registry: a column of both with counts, `?registry=`, a chip', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(site.url);
      expect(await facetEntries(page)).toEqual([
        ['home', 2],
        ['acme', 1],
      ]);
      await page.click('[data-facet="registry"] [data-facet-value="acme"]');
      await page.waitForSelector('[data-facet="registry"] button[aria-pressed="true"][data-facet-value="acme"]');
      expect(await cardIds(page)).toEqual(['pdf-toolkit']);
      expect(new URL(page.url()).searchParams.get('registry')).toBe('acme');
      // The counts leave the chosen registry out: they say what switching would give.
      expect(await facetEntries(page)).toEqual([
        ['acme', 1],
        ['home', 2],
      ]);
      expect(await page.textContent('[data-active-filters] .chip')).toContain('acme');
      // A shared link opens on the same results.
      await page.goto(`${site.url}?registry=home`);
      await page.waitForFunction(() =>
        document.querySelector('#results')?.getAttribute('data-state')?.includes('+registry:home'),
      );
      expect(await cardIds(page)).toEqual(['invoice-reconciler', 'release-notes']);
    } finally {
      await page.close();
    }
  });

  it('without JavaScript, links each registry to a page of its skills, and `/registries/` to them all', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(site.url);
      const acme = page.locator('[data-facet="registry"] a[data-facet-value="acme"]');
      expect(await acme.getAttribute('href')).toBe('/registries/acme/');
      await acme.click();
      await page.waitForURL(`${site.url}registries/acme/`);
      expect(await page.textContent('h1')).toBe('acme');
      expect(await cardIds(page, '.card-grid')).toEqual(['pdf-toolkit']);
      expect((await page.goto(`${site.url}registries/`))?.status()).toBe(200);
      const listed = await page.$$eval('.tag-cloud a', (l) => l.map((a) => a.textContent?.replace(/\s+/g, ' ').trim()));
      expect(listed).toEqual(['acme 1', 'home 2']);
    } finally {
      await context.close();
    }
  });

  it('shows health where a skill was checked (registered by URL), not for a skill of its own folder', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.url}skills/release-notes/`);
      const health = page.locator('[data-tier="summary"] [data-health]');
      expect(await health.textContent()).toMatch(/^Healthy · \w/);
      // The check's date is one unbroken run on a phone.
      expect(await health.locator('time').evaluate((t) => getComputedStyle(t).whiteSpace)).toBe('nowrap');
      await page.goto(`${site.url}skills/invoice-reconciler/`);
      expect(await page.locator('[data-tier="summary"]').textContent()).toContain('Registry');
      expect(await page.locator('[data-tier="summary"] [data-health]').count()).toBe(0);
      expect(await page.locator('[data-tier="summary"] dt:has-text("Health")').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});

/** The skills a list shows: the catalog's results, or a list page's cards. */
const cardIds = (page: Page, list = '#results'): Promise<string[]> =>
  page.$$eval(`${list} > li`, (l) => l.map((c) => (c as HTMLElement).dataset.id!));

/** The registry column's entries: name and count, in order. */
const facetEntries = (page: Page): Promise<Array<[string, number]>> =>
  page.$$eval('[data-facet="registry"] [data-facet-value]', (items) =>
    items.map((i): [string, number] => [
      (i as HTMLElement).dataset.facetValue!,
      Number(i.querySelector('.count')!.textContent),
    ]),
  );
