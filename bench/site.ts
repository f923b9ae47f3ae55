/**
 * Site benchmark: build time of the catalog site for 100 and 1,000 skills, what the first
 * search downloads (gzip, per 1,000 skills), and search time in a real Chromium.
 *
 *   npm run bench:site            (or: node bench/site.ts)
 *
 * Targets (issue 5): site for 1,000 skills ≤ 30 s; first search download ≤ 300 KB gzip per
 * 1,000 skills; first results < 100 ms after typing.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadCatalog } from '../src/load/index.ts';
import { writeFeed } from '../src/emit/feed/write-feed.ts';
import { SkillpressConfig } from '../src/model/config.ts';
import { buildSite } from '../src/site/build-site.ts';
import { buildSearchIndexes } from '../src/search/index.ts';
import { generateCatalog } from './lib/generate-catalog.ts';
import { realisticEntries } from './lib/search-entries.ts';
import { serveStatic } from '../test/site/helpers/static-server.ts';
import { hasChromium, launchChromium } from '../test/site/helpers/browser.ts';

const SIZES = (process.env.BENCH_SITE_SIZES ?? '100,1000').split(',').map(Number);
const FILES_PER_SKILL = 5;
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const gz = (buf: Buffer | string): number => gzipSync(buf, { level: 9 }).length;

interface Row {
  skills: number;
  feedMs: number;
  siteMs: number;
  pages: number;
  searchGz: number;
  bodyGz: number;
  out: string;
}

const work = await mkdtemp(path.join(tmpdir(), 'skillpress-bench-site-'));
const rows: Row[] = [];
try {
  for (const n of SIZES) {
    const gen = await generateCatalog(path.join(tmpdir(), `skillpress-bench-catalog-${n}x${FILES_PER_SKILL}`), { skills: n, filesPerSkill: FILES_PER_SKILL, binaryRatio: 0.2 });
    const catalog = await loadCatalog(gen.root);
    const data = path.join(work, `data-${n}`);
    const out = path.join(work, `site-${n}`);
    let t = performance.now();
    const feed = await writeFeed(catalog, { outDir: data, config: SkillpressConfig.parse({}), sourceDateEpoch: 1767225600 });
    const feedMs = performance.now() - t;
    t = performance.now();
    await buildSite({ outDir: out, feedDir: feed.feedDir, base: '/' });
    const siteMs = performance.now() - t;
    await cp(data, out, { recursive: true });
    const searchGz = gz(await readFile(path.join(feed.feedDir, 'search.json')));
    const bodyGz = gz(await readFile(path.join(feed.feedDir, 'search-body.json')));
    // Skill pages + tag/domain pages + catalog pages + home/about/tags/404.
    rows.push({ skills: n, feedMs, siteMs, pages: catalog.skills.length, searchGz, bodyGz, out });
  }

  process.stdout.write('| skills | feed write | site build (Astro) | search.json gzip | per 1,000 skills | body index gzip (lazy) |\n|---:|---:|---:|---:|---:|---:|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.skills} | ${s(r.feedMs)} | ${s(r.siteMs)} | ${kb(r.searchGz)} | ${kb((r.searchGz * 1000) / r.skills)} | ${kb(r.bodyGz)} |\n`);
  }

  // The generated catalog repeats a small vocabulary; real skills do not. Index realistic text too.
  const realistic = buildSearchIndexes(realisticEntries(1000));
  process.stdout.write(
    `\nRealistic text (bench/lib/search-entries.ts, Zipf vocabulary of 20,000 words), 1,000 skills: search.json ${kb(gz(JSON.stringify(realistic.search)))} gzip, body index ${kb(gz(JSON.stringify(realistic.body)))} gzip.\n`,
  );

  const largest = rows[rows.length - 1]!;
  if (!hasChromium()) {
    process.stdout.write('\nsearch in the browser: skipped, no Chromium at /usr/bin/chromium\n');
  } else {
    const server = await serveStatic(largest.out);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      // Cold: focus → search.json fetched and loaded → first query rendered.
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
      await page.waitForFunction(() => document.querySelector<HTMLElement>('#results')?.dataset.state?.endsWith('|body'), undefined, { timeout: 30_000 });
      // Warm: each keystroke of a few queries, from the input event to the rendered list.
      const queries = ['b', 'be', 'ben', 'bench', 'bench-skill-00042', 'synthetc', 'group-7', 'scripts', 'measuring fast', 'publishes catalog'];
      const samples = await page.evaluate(async (qs) => {
        const input = document.querySelector<HTMLInputElement>('#q')!;
        const list = document.querySelector<HTMLElement>('#results')!;
        const out: Array<{ handler: number; frame: number; full: number }> = [];
        for (const q of qs) {
          const started = performance.now();
          input.value = q;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          // The index is loaded: the input handler searches and renders synchronously.
          const handler = performance.now() - started;
          // …and the browser paints the results in the next frame.
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          const frame = performance.now() - started;
          // Then, once typing pauses, the body index refines the results.
          while (!list.dataset.state?.endsWith('|body')) await new Promise((r) => setTimeout(r, 1));
          const full = performance.now() - started;
          out.push({ handler, frame, full: full - 150 });
        }
        return out;
      }, queries);
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const max = (xs: number[]): number => Math.max(...xs);
      const handler = samples.map((x) => x.handler);
      const frame = samples.map((x) => x.frame);
      const full = samples.map((x) => x.full);
      process.stdout.write(
        `\n| search in Chromium (${largest.skills} skills) | median ms | slowest ms |\n|---|---:|---:|\n` +
          `| first search, cold: focus → search.json fetched and loaded → results | ${cold.toFixed(0)} | |\n` +
          `| keystroke → results in the DOM (search + render) | ${median(handler).toFixed(1)} | ${max(handler).toFixed(1)} |\n` +
          `| keystroke → next frame painted | ${median(frame).toFixed(1)} | ${max(frame).toFixed(1)} |\n` +
          `| refinement with the body index, after the 150 ms typing pause | ${median(full).toFixed(1)} | ${max(full).toFixed(1)} |\n` +
          `\n(${queries.length} queries typed one after another: ${queries.map((q) => JSON.stringify(q)).join(', ')}; machine load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}.)\n`,
      );
    } finally {
      await browser.close();
      await server.close();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
