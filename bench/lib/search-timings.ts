/**
 * Search in a real Chromium over a built site: the first search cold (focus → search.json
 * fetched and loaded → results), then each keystroke of a few queries, then requests ranked by
 * meaning (the routing sets' own, pasted at once and typed a character at a time). Prints a table.
 *
 * Over HTTP/1.1 (Chromium opens at most six connections to the server, so a query's shards queue
 * six at a time) or over HTTPS with HTTP/2 as static hosts serve a site (all at once, on one
 * connection): a self-signed certificate that Chromium trusts by its public key's hash. Either
 * way every request of the timed pages is checked to have used the protocol the table names.
 *
 * Chromium is driven without tracking its requests (bare-chromium.ts), as a user's browser runs,
 * and every time is taken inside the page: a MutationObserver sees the results list's state
 * change the moment it is written.
 */
import { readFileSync } from 'node:fs';
import { queryWords, usesMeaning } from '../../src/search/index.ts';
import { serveStatic } from '../../src/serve/static-server.ts';
import { selfSignedCertificate } from '../../test/serve/helpers/self-signed.ts';
import { launchBareChromium, type BareBrowser, type BarePage } from './bare-chromium.ts';

/** What Chromium reports as a resource's `nextHopProtocol`. */
export type Protocol = 'http/1.1' | 'h2';

export const PROTOCOL_NAMES: Record<Protocol, string> = { 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2 over TLS' };

/** The site served over `protocol`, and a Chromium that trusts its certificate (by its public key, nothing else). */
async function serveFor(
  siteDir: string,
  protocol: Protocol,
  servedAt?: string,
): Promise<{ url: string; server: { close(): Promise<void> }; browser: BareBrowser }> {
  // Served by another server (nginx, a static host): nothing to start here.
  if (servedAt) return { url: servedAt, server: { close: async () => {} }, browser: await launchBareChromium() };
  if (protocol === 'http/1.1') {
    const server = await serveStatic({ root: siteDir });
    return { url: server.url, server, browser: await launchBareChromium() };
  }
  const tls = await selfSignedCertificate();
  const server = await serveStatic({ root: siteDir, tls });
  return {
    url: server.url,
    server,
    browser: await launchBareChromium([`--ignore-certificate-errors-spki-list=${tls.spki}`]),
  };
}

/**
 * Throws unless the page and every resource it fetched (that the browser kept an entry for) came
 * over `protocol`; returns how many were checked.
 */
async function checkProtocol(page: BarePage, protocol: Protocol): Promise<number> {
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
    let checked = 0;
    const check = async (page: BarePage): Promise<void> => void (checked += await checkProtocol(page, protocol));
    const words = await browser.withPage(async (page) => {
      await preparePage(page, url);
      const timings = await wordTimings(page);
      await check(page);
      return timings;
    });
    const meaning = await meaningTimings(browser, url, check);
    process.stdout.write(timingsTable(skills, protocol, words, meaning, checked));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** What the helpers installed by `preparePage` give the page's timing code. */
interface PageHelpers {
  /** Resolves the moment the results list's state passes `test` (a MutationObserver sees it written). */
  untilState(test: (state: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
}

/** Opens the site, makes room for every resource's entry (the protocol check reads them all) and installs `PageHelpers`. */
async function preparePage(page: BarePage, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(() => {
    performance.setResourceTimingBufferSize(100_000);
    const list = document.querySelector<HTMLElement>('#results')!;
    const helpers: PageHelpers = {
      untilState: (test, what, timeoutMs = 10_000) =>
        new Promise((resolve, reject) => {
          if (test(list.dataset.state ?? '')) return resolve();
          const observer = new MutationObserver(() => {
            if (!test(list.dataset.state ?? '')) return;
            observer.disconnect();
            clearTimeout(timer);
            resolve();
          });
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`not within ${timeoutMs} ms: ${what}`));
          }, timeoutMs);
          observer.observe(list, { attributes: true, attributeFilter: ['data-state'] });
        }),
    };
    Object.assign(window, helpers);
  });
}

interface WordTimings {
  /** The first search: focus → search.json fetched and loaded → results. */
  cold: number;
  /** Each of QUERIES typed: → results in the DOM, → the next frame painted, → refined by the body index. */
  samples: Array<{ handler: number; frame: number; full: number }>;
}

async function wordTimings(page: BarePage): Promise<WordTimings> {
  const cold = await page.evaluate(async () => {
    const { untilState } = window as unknown as PageHelpers;
    const input = document.querySelector<HTMLInputElement>('#q')!;
    const started = performance.now();
    input.focus();
    input.value = 'skill';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await untilState((state) => state.startsWith('skill|'), 'the first search', 30_000);
    return performance.now() - started;
  });
  await page.evaluate(() =>
    (window as unknown as PageHelpers).untilState((s) => s.endsWith('|body'), 'the body index', 30_000),
  );
  const samples = await page.evaluate(async (qs) => {
    const { untilState } = window as unknown as PageHelpers;
    const input = document.querySelector<HTMLInputElement>('#q')!;
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
      await untilState((state) => /\|body(\+meaning)?$/.test(state), `${q} refined`);
      out.push({ handler, frame, full: performance.now() - started - 150 });
    }
    return out;
  }, QUERIES);
  return { cold, samples };
}

function timingsTable(
  skills: number,
  protocol: Protocol,
  { cold, samples }: WordTimings,
  meaning: MeaningTimings,
  checked: number,
): string {
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
  const row = (label: string, xs: number[]): string =>
    `| ${label} | ${median(xs).toFixed(1)} | ${p95(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |\n`;
  return (
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
    `| first request ranked by meaning, pasted (the catalog's vectors and tokenizer fetched once the page was idle after a first search): → its token shards fetched → ranked by meaning | ${meaning.cold.toFixed(0)} | | |\n` +
    row(
      `request ranked by meaning (${meaning.ranked.length} more), pasted: → results by words in the DOM`,
      meaning.words,
    ) +
    row('… → ranked by meaning in the DOM (its new token shards fetched after it was pasted)', meaning.ranked) +
    row(
      `the same requests typed (a character every ${KEYSTROKE_MS} ms, in a fresh page): last keystroke → ranked by meaning in the DOM`,
      meaning.typed,
    ) +
    row('the same requests pasted again (nothing to fetch): → ranked by meaning in the DOM', meaning.again) +
    row('… → next frame painted', meaning.againPainted) +
    `\n(${QUERIES.length} queries typed one after another: ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}; requests ranked by meaning: the union routing set's first ${MEANING_REQUESTS}. Chromium driven without tracking its requests, timed inside the page. Served over ${PROTOCOL_NAMES[protocol]}: all ${checked} requests of the timed pages checked to have used \`${protocol}\`.)\n`
  );
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
  /** … → ranked by meaning in the DOM, its new token shards fetched after it was pasted. */
  ranked: number[];
  /** Typed one character at a time: last keystroke → ranked by meaning in the DOM. */
  typed: number[];
  /** Pasted again (nothing to fetch): → ranked by meaning in the DOM, and → the next frame painted. */
  again: number[];
  againPainted: number[];
}

/** Requests of three words or more, pasted at once and then typed one character at a time, each in a fresh browser context. */
async function meaningTimings(
  browser: BareBrowser,
  url: string,
  check: (page: BarePage) => Promise<void>,
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
  browser: BareBrowser,
  url: string,
  check: (page: BarePage) => Promise<void>,
  run: (page: BarePage) => Promise<T>,
): Promise<T> {
  return browser.withPage(async (page) => {
    await preparePage(page, url);
    await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      input.value = 'pdf';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await (window as unknown as PageHelpers).untilState((s) => s.endsWith('|body'), 'the body index', 30_000);
      // Idle: no new resource for 500 ms once the catalog's vectors are here (2 s on a site without them).
      const fetched = (): string[] => performance.getEntriesByType('resource').map((e) => e.name);
      let count = -1;
      let quietSince = performance.now();
      for (const deadline = performance.now() + 30_000; performance.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 50));
        const names = fetched();
        const quiet = performance.now() - quietSince;
        if (names.length !== count) [count, quietSince] = [names.length, performance.now()];
        else if (quiet >= 2000 || (quiet >= 500 && names.some((n) => n.endsWith('skill-vectors.bin')))) return;
      }
      throw new Error('the page did not go idle within 30 s of its first search');
    });
    const result = await run(page);
    await check(page);
    return result;
  });
}

/**
 * Each request pasted (`keystrokeMs` 0: one input event) or typed one character at a time, `keystrokeMs`
 * apart; timed from its last input event to its results by words and to its results ranked by meaning
 * in the DOM, and to the next frame painted.
 */
function typeAll(
  page: BarePage,
  qs: string[],
  keystrokeMs: number,
): Promise<Array<{ words: number; ranked: number; painted: number }>> {
  return page.evaluate(
    async ({ qs, keystrokeMs }) => {
      const { untilState } = window as unknown as PageHelpers;
      const input = document.querySelector<HTMLInputElement>('#q')!;
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
        await untilState(
          (state) => state.startsWith(`${q.trim()}|`) && state.includes('+meaning'),
          `${q} ranked by meaning`,
        );
        const ranked = performance.now() - started;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        out.push({ words, ranked, painted: performance.now() - started });
      }
      return out;
    },
    { qs, keystrokeMs },
  );
}
