/**
 * Search in a real Chromium over a built site: the first search cold (focus → search.json
 * fetched and loaded → results), then each keystroke of a few queries. Prints a table.
 */
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
        while (!list.dataset.state?.endsWith('|body')) await new Promise((r) => setTimeout(r, 1));
        out.push({ handler, frame, full: performance.now() - started - 150 });
      }
      return out;
    }, QUERIES);
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const row = (label: string, xs: number[]): string =>
      `| ${label} | ${median(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |\n`;
    process.stdout.write(
      `\n| search in Chromium (${skills} skills) | median ms | slowest ms |\n|---|---:|---:|\n` +
        `| first search, cold: focus → search.json fetched and loaded → results | ${cold.toFixed(0)} | |\n` +
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
        `\n(${QUERIES.length} queries typed one after another: ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}.)\n`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
