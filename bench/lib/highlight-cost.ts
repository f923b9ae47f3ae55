/**
 * Where highlighting should happen, measured both ways on a built site (issue 14, point 1):
 *
 * - at build time: Shiki (the same theme and JavaScript engine the browser uses) over every
 *   text file the site shows and every fenced code block of every SKILL.md, in this process;
 * - in the browser on open: Chromium opens a file view on a skill page and waits for its code to
 *   be highlighted — cold (highlighter and grammar downloaded) and warm (another file).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import markdownIt from 'markdown-it';
import { createCssVariablesTheme, createHighlighter, createJavaScriptRegexEngine, type BundledLanguage } from 'shiki';
import type { FeedSkill } from '../../src/model/feed.ts';
import { fenceLanguage, HIGHLIGHT_MAX_BYTES, languageFor } from '../../src/site/languages.ts';
import { serveStatic } from '../../src/serve/static-server.ts';
import { launchChromium } from '../../test/site/helpers/browser.ts';

const THEME = createCssVariablesTheme({ name: 'skillpress', variablePrefix: '--t-', fontStyle: true });
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

interface Code {
  skill: string;
  path: string;
  lang: string;
  text: string;
}

/** Every text file a file view highlights, and every fenced block of SKILL.md with a language. */
async function codeOf(feed: string): Promise<{ files: Code[]; fences: Code[] }> {
  const files: Code[] = [];
  const fences: Code[] = [];
  const md = markdownIt();
  for (const name of await readdir(path.join(feed, 'skills'))) {
    const skill = JSON.parse(await readFile(path.join(feed, 'skills', name), 'utf8')) as FeedSkill;
    for (const f of skill.files) {
      const lang = languageFor(f.path.slice(f.path.lastIndexOf('/') + 1));
      if (f.skipped || f.encoding !== 'utf-8' || !lang || f.size > HIGHLIGHT_MAX_BYTES) continue;
      files.push({
        skill: skill.card.id,
        path: f.path,
        lang,
        text: await readFile(path.join(feed, 'files', skill.card.id, ...f.path.split('/')), 'utf8'),
      });
    }
    for (const t of md.parse(skill.body, {})) {
      const lang = t.type === 'fence' ? fenceLanguage(t.info.trim().split(/\s+/)[0] ?? '') : undefined;
      if (lang) fences.push({ skill: skill.card.id, path: 'SKILL.md', lang, text: t.content });
    }
  }
  return { files, fences };
}

async function atBuildTime(codes: Code[]): Promise<{ ms: number[]; html: number; source: number }> {
  const hl = await createHighlighter({ themes: [THEME], langs: [], engine: createJavaScriptRegexEngine() });
  const ms: number[] = [];
  let html = 0;
  let source = 0;
  for (const c of codes) {
    await hl.loadLanguage(c.lang as BundledLanguage);
    const started = performance.now();
    const tokens = hl.codeToTokensBase(c.text, { lang: c.lang as BundledLanguage, theme: THEME });
    ms.push(performance.now() - started);
    // What the page would carry: a span with a class per coloured token, a span per line.
    html += tokens.reduce(
      (n, line) => n + 19 + line.reduce((m, t) => m + t.content.length + (t.color?.includes('foreground') ? 0 : 27), 0),
      0,
    );
    source += c.text.length;
  }
  hl.dispose();
  return { ms, html, source };
}

/**
 * Open each picked file on its skill page in a fresh browser context (nothing cached); time click →
 * highlighted. Then, warm, another file of that skill in the same language, if it has one.
 */
async function inBrowser(
  siteUrl: string,
  picks: Code[],
  all: Code[],
): Promise<Array<{ code: Code; coldMs: number; warmMs: number | undefined; jsRaw: number; jsGzip: number }>> {
  const browser = await launchChromium();
  const out = [];
  try {
    for (const code of picks) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${siteUrl}skills/${code.skill}/`);
      await page.waitForLoadState('networkidle');
      const scripts: Buffer[] = [];
      page.on(
        'response',
        (r) =>
          void (
            r.url().includes('/_astro/') &&
            r.body().then(
              (b) => scripts.push(b),
              () => {},
            )
          ),
      );
      const open = async (p: string): Promise<number> => {
        const started = Date.now();
        await page.locator(`.file-tree a[href$="/files/${p.split('/').map(encodeURIComponent).join('/')}/"]`).click();
        await page.waitForSelector(
          `[data-viewer] [data-file-panel][data-path="${p.replace(/"/g, '\\"')}"] code[data-highlighted]`,
          { timeout: 60_000 },
        );
        return Date.now() - started;
      };
      const coldMs = await open(code.path);
      const other = all.find((c) => c.skill === code.skill && c.lang === code.lang && c.path !== code.path);
      const warmMs = other ? await open(other.path) : undefined;
      out.push({
        code,
        coldMs,
        warmMs,
        jsRaw: scripts.reduce((n, b) => n + b.length, 0),
        jsGzip: scripts.reduce((n, b) => n + gzipSync(b).length, 0),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

export async function measureHighlighting(siteDir: string): Promise<void> {
  const { files, fences } = await codeOf(path.join(siteDir, 'feed/v1'));
  const build = await atBuildTime(files);
  const fenceCost = await atBuildTime(fences);
  const total = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `\n| highlighting at build time (Shiki, JS engine, this process) | count | total | median | p90 | slowest | HTML / source |\n|---|---:|---:|---:|---:|---:|---:|\n` +
      `| text files a file view shows (≤ ${HIGHLIGHT_MAX_BYTES / 1024} KB, known language) | ${files.length} | ${(total(build.ms) / 1000).toFixed(1)} s | ${pct(build.ms, 0.5).toFixed(1)} ms | ${pct(build.ms, 0.9).toFixed(1)} ms | ${Math.max(...build.ms).toFixed(0)} ms | ${(build.html / build.source).toFixed(1)}× |\n` +
      `| fenced code blocks of SKILL.md | ${fences.length} | ${(total(fenceCost.ms) / 1000).toFixed(1)} s | ${pct(fenceCost.ms, 0.5).toFixed(1)} ms | ${pct(fenceCost.ms, 0.9).toFixed(1)} ms | ${Math.max(...fenceCost.ms).toFixed(0)} ms | ${(fenceCost.html / fenceCost.source).toFixed(1)}× |\n`,
  );
  const bySize = [...files].sort((a, b) => a.text.length - b.text.length);
  const picks = [0.5, 0.9, 1].map((p) => bySize[Math.min(bySize.length - 1, Math.floor(bySize.length * p))]!);
  const server = await serveStatic({ root: siteDir });
  try {
    const rows = await inBrowser(server.url, picks, files);
    process.stdout.write(
      `\n| highlighting in Chromium, on open | file | size | click → highlighted, cold | another file, warm | scripts downloaded (raw / gzip) |\n|---|---|---:|---:|---:|---:|\n` +
        rows
          .map(
            (r, i) =>
              `| ${['median', 'p90', 'largest'][i]} file | ${r.code.skill}/${r.code.path} (${r.code.lang}) | ${(r.code.text.length / 1024).toFixed(1)} KB | ${r.coldMs} ms | ${r.warmMs ?? '–'} ms | ${(r.jsRaw / 1024).toFixed(0)} / ${(r.jsGzip / 1024).toFixed(0)} KB |\n`,
          )
          .join(''),
    );
  } finally {
    await server.close();
  }
}
