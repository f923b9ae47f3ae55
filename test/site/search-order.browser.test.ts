/**
 * One index and one ranking: the catalog site's search (in Chromium, with the body index loaded)
 * lists skills in the same order as the MCP server's `skills_search` for the same query —
 * keyword queries and requests in users' words — and a card says which words its skill matched
 * when `skills_search` reports it matched only some of them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DirStore } from '../../src/feed-reader/index.ts';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { searchSkills } from '../../src/mcp/tools/index.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';
import { buildFixtureSite, type BuiltFixture } from './helpers/fixture.ts';

const QUERIES = [
  'audit',
  'pdf tables',
  'can you pull the tables out of this PDF report for me',
  'forecast the budget for next quarter',
  'check the supplier invoices against the purchase orders please',
  'extract',
];

const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;
let catalog: FeedCatalog;

beforeAll(async () => {
  if (skip) return;
  fixture = await buildFixtureSite();
  server = await serveStatic({ root: fixture.outDir });
  browser = await launchChromium();
  catalog = await FeedCatalog.load(new DirStore(path.join(fixture.outDir, 'feed/v1')));
  await catalog.loadBodyIndex();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
});

interface SiteResult {
  name: string;
  /** The card's line saying which words it matched, when it matched only some. */
  note: string | undefined;
}

/** The site's results for a query, in order, once the body index has loaded. */
async function siteResults(query: string): Promise<SiteResult[]> {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}?q=${encodeURIComponent(query)}`);
    // The full ranking needs the body index, which the page loads after its first search.
    await page.waitForFunction(
      (q) => document.querySelector('#results')?.getAttribute('data-state') === `${q}|||relevance|body`,
      query,
      { timeout: 15_000 },
    );
    return await page.$$eval('#results > li.card', (cards) =>
      cards.map((c) => ({
        name: (c as HTMLElement).dataset.id!,
        note: c.querySelector('.card-match')?.textContent ?? undefined,
      })),
    );
  } finally {
    await page.close();
  }
}

describe.skipIf(skip)('the site and skills_search rank alike', () => {
  it.each(QUERIES)('%s', async (query) => {
    const site = await siteResults(query);
    const answer = await searchSkills(catalog, query, 25);
    const partial = (r: (typeof answer.results)[number]): string | undefined =>
      r.coverage < 1
        ? `Matches ${r.matched.length} of ${answer.words.length} words: ${r.matched.map((m) => m.word).join(', ')}`
        : undefined;
    expect(site.length).toBeGreaterThan(0);
    expect(site).toEqual(answer.results.map((r) => ({ name: r.name, note: partial(r) })));
  });

  it("a request in users' words reaches skills matching part of it, and their cards say which of its words", async () => {
    const site = await siteResults('can you pull the tables out of this PDF report for me');
    const partial = site.filter((r) => r.note);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(site.length);
    for (const { note } of partial) {
      const [, k, n] = /^Matches (\d+) of (\d+) words: \S/.exec(note!) ?? [];
      expect(Number(k), note).toBeLessThan(Number(n));
    }
  });
});
