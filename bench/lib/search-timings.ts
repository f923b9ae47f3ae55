/**
 * Search in a real Chromium over a built site: the first search cold (focus → search.json
 * fetched and loaded → results), then each keystroke of a few queries, then requests ranked by
 * meaning (the routing sets' own, typed at once). Prints a table.
 */
import { readFileSync } from 'node:fs';
import { queryWords, usesMeaning } from '../../src/search/index.ts';
import { serveStatic } from '../../src/serve/static-server.ts';
import { launchChromium } from '../../test/site/helpers/browser.ts';

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

export async function searchTimings(siteDir: string, skills: number): Promise<void> {
  const server = await serveStatic({ root: siteDir });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
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
    const meaning = await meaningTimings(page);
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
    const row = (label: string, xs: number[]): string =>
      `| ${label} | ${median(xs).toFixed(1)} | ${p95(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |\n`;
    process.stdout.write(
      `\n| search in Chromium (${skills} skills) | median ms | p95 ms | slowest ms |\n|---|---:|---:|---:|\n` +
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
        `| first request ranked by meaning, cold: typed → vectors, tokenizer and shards fetched → ranked by meaning | ${meaning.cold.toFixed(0)} | | |\n` +
        row(
          `request ranked by meaning (${meaning.ranked.length} more): typed → results by words in the DOM`,
          meaning.words,
        ) +
        row('… → ranked by meaning in the DOM (its new vocabulary pieces and shards fetched)', meaning.ranked) +
        row('the same requests again (nothing to fetch): typed → ranked by meaning in the DOM', meaning.again) +
        `\n(${QUERIES.length} queries typed one after another: ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}; requests ranked by meaning: the union routing set's first ${MEANING_REQUESTS}.)\n`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

/** How many of the union routing set's requests are typed to time ranking by meaning. */
const MEANING_REQUESTS = 60;

/**
 * Requests of three words or more typed at once: the words' results first, then the results
 * ranked by meaning once the catalog's vectors (first request only), the vocabulary pieces of the
 * request's words and its token shards are fetched.
 */
async function meaningTimings(page: import('playwright-core').Page): Promise<{
  cold: number;
  words: number[];
  ranked: number[];
  again: number[];
}> {
  const set = JSON.parse(readFileSync(new URL('../routing/union.json', import.meta.url), 'utf8')) as {
    requests: Array<{ request: string }>;
  };
  // Only requests the site ranks by meaning (three meaningful words or more).
  const requests = set.requests
    .map((r) => r.request)
    .filter((q) => usesMeaning(queryWords(q).length))
    .slice(0, MEANING_REQUESTS + 1);
  const typeAll = (qs: string[]): Promise<Array<{ words: number; ranked: number }>> =>
    page.evaluate(async (qs) => {
      const input = document.querySelector<HTMLInputElement>('#q')!;
      const list = document.querySelector<HTMLElement>('#results')!;
      const out: Array<{ words: number; ranked: number }> = [];
      for (const q of qs) {
        const started = performance.now();
        input.value = q;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const words = performance.now() - started;
        while (!list.dataset.state?.startsWith(`${q.trim()}|`) || !list.dataset.state.includes('+meaning')) {
          if (performance.now() - started > 10_000) throw new Error(`not ranked by meaning within 10 s: ${q}`);
          await new Promise((r) => setTimeout(r, 1));
        }
        out.push({ words, ranked: performance.now() - started });
      }
      return out;
    }, qs);
  const [first, ...rest] = await typeAll(requests);
  // The same requests again: everything they need is fetched, so this is the ranking's own time.
  const again = await typeAll(requests.slice(1));
  return {
    cold: first!.ranked,
    words: rest.map((x) => x.words),
    ranked: rest.map((x) => x.ranked),
    again: again.map((x) => x.ranked),
  };
}
