/**
 * One index and one ranking: the catalog site's search (in Chromium, with the body index loaded,
 * and the catalog's meaning for a request of several words) lists skills in the same order as the
 * MCP server's `skills_search` for the same query — keyword queries, requests in users' words,
 * and requests that share no word with the skill they mean — and a card says which words its
 * skill matched when `skills_search` reports it matched only some of them. Weak matches are
 * folded on the site: the list before the fold is skills_search's strong matches.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DirStore } from '../../src/feed-reader/index.ts';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { searchSkills } from '../../src/mcp/tools/index.ts';
import { queryWords, usesMeaning } from '../../src/search/index.ts';
import { shardOf, tokenShardFile } from '../../src/semantic/feed-vectors.ts';
import { siteTokenizer, withSiteVocab, type TokenizerJson } from '../../src/semantic/site-vocab.ts';
import { MODEL_DIR } from '../../src/semantic/load.ts';
import { serveStatic, type StaticServer } from '../../src/serve/static-server.ts';
import { launchChromium, skipWithoutChromium } from './helpers/browser.ts';
import { buildFixtureSite, type BuiltFixture, type FixtureSkill } from './helpers/fixture.ts';

const QUERIES = [
  'audit',
  'pdf tables',
  'can you pull the tables out of this PDF report for me',
  'forecast the budget for next quarter',
  'check the supplier invoices against the purchase orders please',
  'extract',
  // Requests in other words than the skills': meaning ranks them too.
  'projection of spending next year',
  'reimbursement claims that violate the rules',
  // Split where the catalog writes one word ("payroll"): the joined word is searched on both.
  'pay roll',
  'audit the expense reports before pay roll',
];

/** A catalog of distinct purposes, and requests that share no word with the skill they mean. */
const MEANING_SKILLS: FixtureSkill[] = [
  ['dotnet-timezone', 'Handle time zones and daylight saving time transitions correctly in .NET applications.'],
  ['aws-cost-optimize', 'Find ways to reduce the AWS bill: idle resources, rightsizing, reserved capacity.'],
  ['sponsor-finder', "Find which of a project's dependencies accept sponsorship or funding, and how to give."],
  ['pdf-forms', 'Fill in and extract the fields of PDF forms.'],
  ['release-notes', 'Write release notes from merged pull requests.'],
  ['sql-tuning', 'Speed up slow SQL queries with indexes and better plans.'],
  ['slide-deck', 'Create presentation slides from an outline.'],
  ['docker-images', 'Make container images smaller and builds faster.'],
  ['open-source-prep', 'Prepare a private repository for open-sourcing: license, secret scan, contributing guide.'],
].map(([name, description]) => ({
  name: name!,
  frontmatter: `name: ${name}\ndescription: ${JSON.stringify(description)}`,
  body: `# ${name}\n`,
}));
const ONLY_MEANING = {
  'make our internal CLI repo public next month': 'open-source-prep',
  'the database lookups are sluggish': 'sql-tuning',
} as const;

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

/**
 * The site's results for a query, in order, once the body index (and for a request of several
 * words, the catalog's meaning) has loaded: those before the fold, and all of them once the fold
 * of weaker matches is opened.
 */
async function siteResults(
  query: string,
  at = server,
): Promise<{ strong: SiteResult[]; all: SiteResult[]; summary: string }> {
  const page = await browser.newPage();
  const read = (): Promise<SiteResult[]> =>
    page.$$eval('#results > li.card', (cards) =>
      cards.map((c) => ({
        name: (c as HTMLElement).dataset.id!,
        note: c.querySelector('.card-match')?.textContent ?? undefined,
      })),
    );
  try {
    await page.goto(`${at.url}?q=${encodeURIComponent(query)}`);
    // The full ranking needs the body index, which the page loads after its first search.
    const state = `${query}|||relevance|body${usesMeaning(queryWords(query).length) ? '+meaning' : ''}`;
    await page.waitForFunction((s) => document.querySelector('#results')?.getAttribute('data-state') === s, state, {
      timeout: 15_000,
    });
    const strong = await read();
    const summary = (await page.locator('[data-results-count]').textContent()) ?? '';
    const fold = page.locator('[data-more][data-fold="weaker"]:visible');
    if ((await fold.count()) > 0) {
      await fold.click();
      await page.waitForFunction((n) => document.querySelectorAll('#results > li.card').length > n, strong.length);
    }
    return { strong, all: await read(), summary };
  } finally {
    await page.close();
  }
}

describe.skipIf(skip)('the site and skills_search rank alike', () => {
  it.each(QUERIES)('%s', async (query) => {
    const site = await siteResults(query);
    const answer = await searchSkills(catalog, query, 25);
    // What a card says, from skills_search's answer: its share of the words typed (a joined word
    // such as `payroll` for "pay roll" stands for both) and the words it matched.
    const partial = (r: (typeof answer.results)[number]): string | undefined =>
      r.coverage >= 1
        ? undefined
        : r.matched.length === 0
          ? 'Close in meaning; no word in common'
          : `${r.coverage}: ${r.matched.map((m) => m.word).join(', ')}`;
    const shown = ({ name, note }: SiteResult): SiteResult => {
      const [, k, n, words] = /^Matches (\d+) of (\d+) words: (.*)$/.exec(note ?? '') ?? [];
      return { name, note: words ? `${Math.round((Number(k) / Number(n)) * 1000) / 1000}: ${words}` : note };
    };
    const expected = answer.results.map((r) => ({ name: r.name, note: partial(r) }));
    expect(site.strong.length).toBeGreaterThan(0);
    expect(site.strong.map(shown)).toEqual(expected.slice(0, answer.strong));
    expect(site.all.map(shown)).toEqual(expected);
  });

  it("a request in users' words reaches skills matching part of it, and their cards say which of its words", async () => {
    const site = (await siteResults('can you pull the tables out of this PDF report for me')).all;
    const partial = site.filter((r) => r.note);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(site.length);
    for (const { note } of partial) {
      const [, k, n] = /^Matches (\d+) of (\d+) words: \S/.exec(note!) ?? [];
      expect(Number(k), note).toBeLessThan(Number(n));
    }
  });
});

describe.skipIf(skip)('requests only meaning answers', () => {
  let meaningFixture: BuiltFixture;
  let meaningServer: StaticServer;
  let meaningCatalog: FeedCatalog;

  beforeAll(async () => {
    meaningFixture = await buildFixtureSite({ skills: MEANING_SKILLS });
    meaningServer = await serveStatic({ root: meaningFixture.outDir });
    meaningCatalog = await FeedCatalog.load(new DirStore(path.join(meaningFixture.outDir, 'feed/v1')));
  });

  afterAll(async () => {
    await meaningServer?.close();
    await meaningFixture?.cleanup();
  });

  it.each(Object.entries(ONLY_MEANING))('%s → %s, on the site as in skills_search', async (query, skill) => {
    const answer = await searchSkills(meaningCatalog, query, 25);
    const hit = answer.results.find((r) => r.name === skill);
    expect(hit?.matched).toEqual([]);
    expect(answer.results[0]?.name).toBe(skill);
    const site = await siteResults(query, meaningServer);
    expect(site.strong[0]).toEqual({ name: skill, note: 'Close in meaning; no word in common' });
    expect(site.all.map((r) => r.name)).toEqual(answer.results.map((r) => r.name));
    // No skill shares a word with these requests: both say the results are close in meaning alone.
    expect(answer.meaningAlone).toBe(true);
    expect(site.summary).toBe(`${answer.total} skill close in meaning to “${query}”; none shares a word with it`);
  });
});

/** Holds the responses of the URLs `pattern` matches until `release()` is called. */
async function holdRequests(page: Page, pattern: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return { release };
}

const stateOf = (page: Page): Promise<string | null> => page.locator('#results').getAttribute('data-state');

describe.skipIf(skip)('ranked by meaning after words', () => {
  const request = 'speed up the slow docker builds and container images please';
  let meaningFixture: BuiltFixture;
  let meaningServer: StaticServer;

  beforeAll(async () => {
    meaningFixture = await buildFixtureSite({ skills: MEANING_SKILLS });
    meaningServer = await serveStatic({ root: meaningFixture.outDir });
  });

  afterAll(async () => {
    await meaningServer?.close();
    await meaningFixture?.cleanup();
  });

  const cards = (page: Page): Promise<SiteResult[]> =>
    page.$$eval('#results > li.card', (list) =>
      list.map((c) => ({
        name: (c as HTMLElement).dataset.id!,
        note: c.querySelector('.card-match')?.textContent ?? undefined,
      })),
    );

  it('lists what a fresh page lists, and keeps the card the reader is on and its focus', async () => {
    const fresh = (await siteResults(request, meaningServer)).all;
    const page = await browser.newPage();
    try {
      await page.goto(meaningServer.url);
      // The token shards arrive only when told: the results by words are on screen until then.
      const shards = await holdRequests(page, '**/_model/tokens-*.bin');
      await page.fill('#q', request);
      await page.waitForFunction(
        (s) => document.querySelector('#results')?.getAttribute('data-state') === s,
        `${request}|||relevance|body`,
      );
      // Every result, the weaker matches too.
      await page.locator('[data-more][data-fold="weaker"]').click();
      const byWords = await cards(page);
      expect(byWords.length).toBeGreaterThan(1);
      // The reader moved to the last result: its link keeps the focus while meaning ranks the list.
      const moved = byWords.at(-1)!.name;
      await page.focus(`#results > li[data-id="${moved}"] [data-slot="name"]`);
      await page.evaluate(() => ((document.activeElement as HTMLElement & { marked?: boolean }).marked = true));
      shards.release();
      await page.waitForFunction(
        (s) => document.querySelector('#results')?.getAttribute('data-state') === s,
        `${request}|||relevance|body+meaning`,
      );
      expect(await cards(page)).toEqual(fresh);
      const focused = await page.evaluate(() => ({
        id: document.activeElement?.closest<HTMLElement>('li[data-id]')?.dataset.id,
        link: document.activeElement?.matches('[data-slot="name"]'),
        // The same element: the card was kept, not drawn again.
        same: (document.activeElement as HTMLElement & { marked?: boolean }).marked,
      }));
      expect(focused).toEqual({ id: moved, link: true, same: true });
    } finally {
      await page.close();
    }
  });

  /** A new page, and the paths it asks for, in order. */
  const pageRecordingRequests = async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    return { page, requests };
  };

  it("fetches the catalog's vectors and tokenizer after the first search, not on page load", async () => {
    const { page, requests } = await pageRecordingRequests();
    const meaningFiles = (): string[] => requests.filter((p) => /skill-vectors|\/_model\//.test(p));
    try {
      await page.goto(server.url);
      await page.waitForLoadState('networkidle');
      expect(meaningFiles()).toEqual([]);
      await page.fill('#q', 'pdf');
      await page.waitForResponse((r) => r.url().endsWith('/feed/v1/skill-vectors.bin'));
      await page.waitForLoadState('networkidle');
      expect(meaningFiles().sort()).toEqual(['/_model/model.json', '/_model/vocab.txt', '/feed/v1/skill-vectors.bin']);
    } finally {
      await page.close();
    }
  });

  it('a pasted request asks for the token shards of its own tokens and no vocabulary: one round of requests', async () => {
    const { page, requests } = await pageRecordingRequests();
    try {
      await page.goto(server.url);
      await page.fill('#q', 'pdf');
      await page.waitForResponse((r) => r.url().endsWith('/feed/v1/skill-vectors.bin'));
      await page.waitForLoadState('networkidle');
      const before = requests.length;
      const request = 'forecast the budget for next quarter';
      await page.fill('#q', request);
      await page.waitForFunction(() =>
        document.querySelector('#results')?.getAttribute('data-state')?.endsWith('+meaning'),
      );
      const modelFiles = requests.slice(before).filter((p) => p.startsWith('/_model/'));
      // Its own tokens' shards, and (its last word read as one being typed) those of the words it can become: no vocabulary.
      expect(modelFiles).toEqual(expect.arrayContaining([...(await siteShards(request))].map((f) => `/_model/${f}`)));
      expect(modelFiles.filter((p) => !/^\/_model\/tokens-\d+\.bin$/.test(p))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("while a request is typed, fetches its finished words' token shards and those its last word can become", async () => {
    const { page, requests } = await pageRecordingRequests();
    try {
      await page.goto(server.url);
      await page.fill('#q', 'pdf');
      await page.waitForResponse((r) => r.url().endsWith('/feed/v1/skill-vectors.bin'));
      await page.waitForLoadState('networkidle');
      // Two words: not ranked by meaning, but a third would make it a request that is.
      await page.locator('#q').pressSequentially(' tables ', { delay: 20 });
      const finished = [...(await siteShards('pdf tables'))].map((f) => `/_model/${f}`);
      await expect.poll(() => requests).toEqual(expect.arrayContaining(finished));
      await page.waitForFunction(() =>
        document.querySelector('#results')?.getAttribute('data-state')?.endsWith('|body'),
      );
      expect(await stateOf(page)).toBe('pdf tables |||relevance|body');
      // The last word, unfinished: the few words it can still become have their shards fetched.
      const [summary] = await siteShards('summary');
      expect(requests).not.toContain(`/_model/${summary}`);
      await page.locator('#q').pressSequentially('summa', { delay: 20 });
      await expect.poll(() => requests).toContain(`/_model/${summary}`);
      await page.locator('#q').pressSequentially('ry ', { delay: 20 });
      await page.locator('#q').pressSequentially('report', { delay: 20 });
      await page.waitForFunction(() =>
        document.querySelector('#results')?.getAttribute('data-state')?.endsWith('+meaning'),
      );
    } finally {
      await page.close();
    }
  });
});

/** The token shard files the site fetches for `text`: its tokens in the site's ids (src/semantic/site-vocab.ts). */
async function siteShards(text: string): Promise<Set<string>> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const json = JSON.parse(readFileSync(path.join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as TokenizerJson;
  const { config, vocab } = siteTokenizer(json);
  const ids: number[] = new Tokenizer(withSiteVocab(config, vocab), {}).encode(text, { add_special_tokens: false }).ids;
  return new Set(ids.map((id) => tokenShardFile(shardOf(id))));
}
