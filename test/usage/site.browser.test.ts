/**
 * The site shows the published usage figures: stars, uses and success rate (with its users) on cards (the page's
 * own and those the search script renders) and on the skill page, and sorts by most used and
 * best rated.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from '../site/helpers/browser.ts';
import { buildFixtureSite, type BuiltFixture } from '../site/helpers/fixture.ts';
import { eventLine, makeEvent, type EventInput } from '../../src/usage/index.ts';

const skip = skipWithoutChromium();
let fixture: BuiltFixture;
let server: StaticServer;
let browser: Browser;
let eventsDir: string;

beforeAll(async () => {
  if (skip) return;
  eventsDir = await mkdtemp(path.join(tmpdir(), 'skillpress-usage-site-'));
  const events: Array<[string, EventInput]> = [
    ...Array.from({ length: 3 }, (): [string, EventInput] => [
      'a',
      { type: 'load', skill: 'invoice-reconciler', via: 'view_skill' },
    ]),
    ['a', { type: 'outcome', skill: 'invoice-reconciler', outcome: 'success', stars: 5 }],
    ['c', { type: 'outcome', skill: 'invoice-reconciler', outcome: 'success' }],
    ...Array.from({ length: 10 }, (): [string, EventInput] => [
      'b',
      { type: 'load', skill: 'expense-auditor', via: 'best_skill' },
    ]),
    ['b', { type: 'outcome', skill: 'expense-auditor', outcome: 'failure', stars: 3 }],
  ];
  const file = path.join(eventsDir, 'usage.jsonl');
  await writeFile(file, events.map(([user, e]) => eventLine(makeEvent(e, { user }))).join(''));
  fixture = await buildFixtureSite({ config: { analytics: { source: file, min_reports: 1 } } });
  server = await serveStatic({ root: fixture.outDir });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.cleanup();
  if (eventsDir) await rm(eventsDir, { recursive: true, force: true });
});

/** A card's usage line, its no-break spaces read as spaces. */
const usageOf = async (page: Page, id: string) =>
  (await page.locator(`#results li[data-id="${id}"] .card-usage`).textContent())?.replaceAll('\u00a0', ' ');

async function sorted(sort: string): Promise<string[]> {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}?sort=${sort}`);
    await page.waitForFunction(
      (s) => document.querySelector('#results')?.getAttribute('data-state')?.includes(`|${s}|`),
      sort,
    );
    const ids = await page.locator('#results > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-id')!));
    // Cards the search script rendered show the figures too.
    expect(await usageOf(page, 'invoice-reconciler')).toBe('★ 5.0 (1) · 3 uses · 100% success (2 users)');
    return ids;
  } finally {
    await page.close();
  }
}

describe.skipIf(skip)('usage figures on the site', () => {
  it('cards and the skill page show stars, uses and success rate', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    try {
      await page.goto(server.url);
      expect(await usageOf(page, 'invoice-reconciler')).toBe('★ 5.0 (1) · 3 uses · 100% success (2 users)');
      expect(await usageOf(page, 'expense-auditor')).toBe('★ 3.0 (1) · 10 uses · 0% success (1 user)');
      expect(await page.locator('#results li[data-id="xss-attempt"] .card-usage').count()).toBe(0);
      await page.goto(`${server.url}skills/invoice-reconciler/`);
      expect((await page.locator('[data-usage]').textContent())?.replaceAll('\u00a0', ' ')).toBe(
        '★ 5.0 (1) · 3 uses · 100% success (2 users)',
      );
    } finally {
      await page.close();
    }
  });

  it('sorts by most used and by best rated', async () => {
    const used = await sorted('used');
    expect(used.slice(0, 2)).toEqual(['expense-auditor', 'invoice-reconciler']);
    const rated = await sorted('rated');
    expect(rated.slice(0, 2)).toEqual(['invoice-reconciler', 'expense-auditor']);
  });
});
