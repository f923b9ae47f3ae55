/**
 * Search in a real Chromium over a built site: the first search cold (focus → search.json
 * fetched and loaded → results), then each keystroke of a few queries, then requests ranked by
 * meaning (the routing sets' own, pasted at once and typed a character at a time). Prints a table.
 *
 * Over HTTP/1.1 (Chromium opens at most six connections to the server, so a query's shards queue
 * six at a time) or over HTTPS with HTTP/2 as static hosts serve a site (all at once, on one
 * connection): a self-signed certificate that Chromium trusts by its public key's hash. Either
 * way every request of the timed pages is checked to have used the protocol the table names.
 */
import { readFileSync } from 'node:fs';
import { queryWords, usesMeaning } from '../../src/search/index.ts';
import { serveStatic } from '../../src/serve/static-server.ts';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../test/site/helpers/browser.ts';
import { selfSignedCertificate } from '../../test/serve/helpers/self-signed.ts';

/** What Chromium reports as a resource's `nextHopProtocol`. */
export type Protocol = 'http/1.1' | 'h2';

export const PROTOCOL_NAMES: Record<Protocol, string> = { 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2 over TLS' };

/** The site served over `protocol`, and a Chromium that trusts its certificate (by its public key, nothing else). */
async function serveFor(
  siteDir: string,
  protocol: Protocol,
  servedAt?: string,
): Promise<{ url: string; server: { close(): Promise<void> }; browser: Browser }> {
  // Served by another server (nginx, a static host): nothing to start here.
  if (servedAt) return { url: servedAt, server: { close: async () => {} }, browser: await launchChromium() };
  if (protocol === 'http/1.1') {
    const server = await serveStatic({ root: siteDir });
    return { url: server.url, server, browser: await launchChromium() };
  }
  const tls = await selfSignedCertificate();
  const server = await serveStatic({ root: siteDir, tls });
  return {
    url: server.url,
    server,
    browser: await launchChromium([`--ignore-certificate-errors-spki-list=${tls.spki}`]),
  };
}

/**
 * Throws unless the page and every resource it fetched (that the browser kept an entry for) came
 * over `protocol`; returns how many were checked.
 */
async function checkProtocol(page: Page, protocol: Protocol): Promise<number> {
  const used = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      // Answered from the browser's cache or revalidated (a server that sends validators, unlike serveStatic): no protocol named.
      .filter((e) => (e as PerformanceResourceTiming).nextHopProtocol !== '')
      .map((e) => [e.name, (e as PerformanceResourceTiming).nextHopProtocol]),
  );
  const other = used.filter(([, p]) => p !== protocol);
  if (other.length > 0)
    throw new Error(
      `expected ${protocol}, but ${other.length} of ${used.length} requests used another: ${JSON.stringify(other.slice(0, 3))}`,
    );
  return used.length;
}

const QUERIES = [
  'b',
  'be',
  'ben',
  'bench',
  'bench-skill-00042',
  'synthetc',
  'group-7',
  'scripts',
  'measuring fast',
  'publishes catalog',
];

/** `servedAt`: the same site served elsewhere (`bench:site --site <dir> --url <url>`), timed there. */
export async function searchTimings(
  siteDir: string,
  skills: number,
  protocol: Protocol = 'http/1.1',
  servedAt?: string,
): Promise<void> {
  const { url, server, browser } = await serveFor(siteDir, protocol, servedAt);
  try {
    const page = await browser.newPage();
    await page.goto(url);
    // Room for every resource's entry: the protocol check reads them all.
    await page.evaluate(() => performance.setResourceTimingBufferSize(100_000));
    const cold = await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      const list = document.querySelector<HTMLElement>('#results')!;
      const started = performance.now();
      input.focus();
      input.value = 'skill';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (!list.dataset.state?.startsWith('skill|')) await new Promise((r) => setTimeout(r, 1));
      return performance.now() - started;
    });
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#results')?.dataset.state?.endsWith('|body'),
      undefined,
      { timeout: 30_000 },
    );
    const samples = await page.evaluate(async (qs) => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      const list = document.querySelector<HTMLElement>('#results')!;
      const out: Array<{ handler: number; frame: number; full: number }> = [];
      for (const q of qs) {
        const started = performance.now();
        input.value = q;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        // The index is loaded: the input handler searches and renders synchronously…
        const handler = performance.now() - started;
        // …the browser paints the results in the next frame…
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const frame = performance.now() - started;
        // …and once typing pauses (150 ms), the body index refines them.
        while (!/\|body(\+meaning)?$/.test(list.dataset.state ?? '')) await new Promise((r) => setTimeout(r, 1));
        out.push({ handler, frame, full: performance.now() - started - 150 });
      }
      return out;
    }, QUERIES);
    let checked = await checkProtocol(page, protocol);
    const meaning = await meaningTimings(browser, url, async (p) => void (checked += await checkProtocol(p, protocol)));
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
    const row = (label: string, xs: number[]): string =>
      `| ${label} | ${median(xs).toFixed(1)} | ${p95(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |\n`;
    process.stdout.write(
      `\n| search in Chromium (${skills} skills, ${PROTOCOL_NAMES[protocol]}) | median ms | p95 ms | slowest ms |\n|---|---:|---:|---:|\n` +
        `| first search, cold: focus → search.json fetched and loaded → results | ${cold.toFixed(0)} | | |\n` +
        row(
          'keystroke → results in the DOM (search + render)',
          samples.map((x) => x.handler),
        ) +
        row(
          'keystroke → next frame painted',
          samples.map((x) => x.frame),
        ) +
        row(
          'refinement with the body index, after the 150 ms typing pause',
          samples.map((x) => x.full),
        ) +
        `| first request ranked by meaning, pasted (the catalog's vectors and tokenizer fetched once the page was idle after a first search): → its vocabulary pieces and shards fetched → ranked by meaning | ${meaning.cold.toFixed(0)} | | |\n` +
        row(
          `request ranked by meaning (${meaning.ranked.length} more), pasted: → results by words in the DOM`,
          meaning.words,
        ) +
        row(
          '… → ranked by meaning in the DOM (its new vocabulary pieces and shards fetched after it was pasted)',
          meaning.ranked,
        ) +
        row(
          `the same requests typed (a character every ${KEYSTROKE_MS} ms, in a fresh page): last keystroke → ranked by meaning in the DOM`,
          meaning.typed,
        ) +
        row('the same requests pasted again (nothing to fetch): → ranked by meaning in the DOM', meaning.again) +
        row('… → next frame painted', meaning.againPainted) +
        `\n(${QUERIES.length} queries typed one after another: ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}; requests ranked by meaning: the union routing set's first ${MEANING_REQUESTS}. Served over ${PROTOCOL_NAMES[protocol]}: all ${checked} requests of the timed pages checked to have used \`${protocol}\`.)\n`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

/** How many of the union routing set's requests are typed to time ranking by meaning. */
const MEANING_REQUESTS = 60;

/** Between two keystrokes when a request is typed one character at a time: a fast typist's pace (most type slower). */
const KEYSTROKE_MS = 30;

interface MeaningTimings {
  /** The first request, pasted: its pieces and shards fetched (the catalog's vectors and tokenizer fetched once the page was idle). */
  cold: number;
  /** The others pasted: typed → results by words in the DOM. */
  words: number[];
  /** … → ranked by meaning in the DOM, its new vocabulary pieces and shards fetched after it was pasted. */
  ranked: number[];
  /** Typed one character at a time: last keystroke → ranked by meaning in the DOM. */
  typed: number[];
  /** Pasted again (nothing to fetch): → ranked by meaning in the DOM, and → the next frame painted. */
  again: number[];
  againPainted: number[];
}

/** Requests of three words or more, pasted at once and then typed one character at a time, each in a fresh browser context. */
async function meaningTimings(
  browser: Browser,
  url: string,
  check: (page: Page) => Promise<void>,
): Promise<MeaningTimings> {
  const set = JSON.parse(readFileSync(new URL('../routing/union.json', import.meta.url), 'utf8')) as {
    requests: Array<{ request: string }>;
  };
  // Only requests the site ranks by meaning (three meaningful words or more).
  const requests = set.requests
    .map((r) => r.request)
    .filter((q) => usesMeaning(queryWords(q).length))
    .slice(0, MEANING_REQUESTS + 1);
  const pasted = await inFreshPage(browser, url, check, async (page) => {
    const [first, ...rest] = await typeAll(page, requests, 0);
    // The same requests again: everything they need is fetched, so this is the ranking's own time.
    const again = await typeAll(page, requests.slice(1), 0);
    return { first: first!, rest, again };
  });
  const typed = await inFreshPage(browser, url, check, (page) => typeAll(page, requests.slice(1), KEYSTROKE_MS));
  return {
    cold: pasted.first.ranked,
    words: pasted.rest.map((x) => x.words),
    ranked: pasted.rest.map((x) => x.ranked),
    typed: typed.map((x) => x.ranked),
    again: pasted.again.map((x) => x.ranked),
    againPainted: pasted.again.map((x) => x.painted),
  };
}

/**
 * A page of its own (no HTTP cache shared with another) after a first search by words, once
 * the page is idle: what the site fetches then (the catalog's vectors and tokenizer) is fetched.
 */
async function inFreshPage<T>(
  browser: Browser,
  url: string,
  check: (page: Page) => Promise<void>,
  run: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.evaluate(() => performance.setResourceTimingBufferSize(100_000));
    await page.fill('#q', 'pdf');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#results')?.dataset.state?.endsWith('|body'));
    await page.waitForLoadState('networkidle');
    const result = await run(page);
    await check(page);
    return result;
  } finally {
    await context.close();
  }
}

/**
 * Each request pasted (`keystrokeMs` 0: one input event) or typed one character at a time, `keystrokeMs`
 * apart; timed from its last input event to its results by words and to its results ranked by meaning
 * in the DOM, and to the next frame painted.
 */
function typeAll(
  page: Page,
  qs: string[],
  keystrokeMs: number,
): Promise<Array<{ words: number; ranked: number; painted: number }>> {
  return page.evaluate(
    async ({ qs, keystrokeMs }) => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      const list = document.querySelector<HTMLElement>('#results')!;
      const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
      const out: Array<{ words: number; ranked: number; painted: number }> = [];
      for (const q of qs) {
        for (let end = keystrokeMs > 0 ? 1 : q.length; end < q.length; end++) {
          input.value = q.slice(0, end);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await sleep(keystrokeMs);
        }
        const started = performance.now();
        input.value = q;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const words = performance.now() - started;
        while (!list.dataset.state?.startsWith(`${q.trim()}|`) || !list.dataset.state.includes('+meaning')) {
          if (performance.now() - started > 10_000) throw new Error(`not ranked by meaning within 10 s: ${q}`);
          await sleep(1);
        }
        const ranked = performance.now() - started;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        out.push({ words, ranked, painted: performance.now() - started });
      }
      return out;
    },
    { qs, keystrokeMs },
  );
}
