/**
 * Site benchmark, on real catalogs and the synthetic one: `skillpress build` with the site, cold
 * and after one skill changed, against the same build with `--no-site` in the same run; skill
 * page sizes, total output, what the first search downloads; search time in Chromium.
 *
 *   npm run bench:site                                   synthetic catalog (1,000 skills)
 *   npm run bench:site -- <skills folder>…               those folders, copied into one catalog
 *   npm run bench:site -- <folder>… --synthetic 1000     both
 *   … --highlight                                        also: highlighting at build time vs in the browser
 *   … --rounds 3                                         each kind of build this many times (default 3)
 *   npm run bench:site -- --site <built site>            only the search in Chromium, on a site built before
 *   … --http2                                            the search served over HTTPS with HTTP/2, as static hosts serve it
 *   … --http1 --http2                                    both, one after the other (HTTP/1.1 alone is the default)
 *   … --url http://127.0.0.1:8080/                        that site as another server serves it (nginx, a host), not serveStatic
 *
 * Targets (issue 14, on a ~290-skill catalog of six public repositories): largest skill page
 * ≤ 60 KB gzip, median ≤ 15 KB gzip; build with the site ≤ 2× `--no-site`; rebuild after one
 * skill changed ≤ 25% of a cold build. Wall times move with the machine's load; CPU times (the
 * process's user + system time, all threads) and ratios measured in one run hold better.
 */
import { statSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type BuildResult } from '../src/build.ts';
import { SkillpressConfig } from '../src/model/config.ts';
import type { SiteModelManifest } from '../src/semantic/site-model.ts';
import { generateCatalog } from './lib/generate-catalog.ts';
import { measureHighlighting } from './lib/highlight-cost.ts';
import { PROTOCOL_NAMES, searchTimings, type Protocol } from './lib/search-timings.ts';
import { hasChromium } from '../test/site/helpers/browser.ts';

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const gz = (buf: Buffer | string): number => gzipSync(buf, { level: 9 }).length;

interface Timed {
  result: BuildResult;
  wallMs: number;
  cpuMs: number;
}

/** `build()` in this process (the same call `skillpress build` makes), timed. */
async function timedBuild(skills: string, out: string, site: boolean): Promise<Timed> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await build({ skills, out, site, config: SkillpressConfig.parse({}) });
  const used = process.cpuUsage(cpu);
  return { result, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** Every file below `dir` with its size. */
async function files(dir: string): Promise<Array<{ path: string; bytes: number }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  // One at a time: a site holds tens of thousands of files (the model's shards among them).
  return found.map((f) => ({ path: f, bytes: statSync(f).size }));
}

/** Largest and median page of a kind: raw and gzip. */
async function pageSizes(
  pages: string[],
  name: (page: string) => string = (p) => path.relative(path.dirname(path.dirname(path.dirname(p))), p),
): Promise<{ count: number; largest: [number, number, string]; median: [number, number] }> {
  const sized: Array<{ p: string; raw: number; gz: number }> = [];
  for (const p of pages) {
    const b = await readFile(p);
    sized.push({ p, raw: b.length, gz: gz(b) });
  }
  sized.sort((a, b) => a.gz - b.gz);
  const big = sized[sized.length - 1]!;
  const mid = sized[Math.floor(sized.length / 2)]!;
  return {
    count: sized.length,
    largest: [big.raw, big.gz, name(big.p)],
    median: [mid.raw, mid.gz],
  };
}

/**
 * What the first search downloads: the home page's scripts (and what they import), search.json,
 * and where folders are a facet the site's folders/skills.json (fetched in the background).
 */
async function firstSearchBytes(site: string): Promise<{ scripts: number; index: number; folders: number }> {
  const html = await readFile(path.join(site, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script[^>]+src="\/(_astro\/[^"]+)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  let scripts = 0;
  while (queue.length) {
    const rel = queue.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const code = await readFile(path.join(site, rel), 'utf8');
    scripts += gz(code);
    // Static imports only: the highlighter and grammars are dynamic, loaded when code is shown.
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w{},*\s]+from\s*)?["']\.\/([^"']+)["']/g))
      queue.push(path.posix.join(path.posix.dirname(rel), m[1]!));
  }
  const folders = /data-facet="folder" data-src="\/([^"]+)"/.exec(html)?.[1];
  return {
    scripts,
    index: gz(await readFile(path.join(site, 'feed/v1/search.json'))),
    folders: folders ? gz(await readFile(path.join(site, folders))) : 0,
  };
}

/** Requests whose first meaning ranking is measured: a short one and a long one. */
const MEANING_QUERIES = [
  'make our internal CLI repo public next month',
  'can you pull all the tables out of Q3_board_report.pdf and give them to me as csv files',
  'our playwright tests keep flaking in CI on the checkout flow, figure out why they time out and make them reliable without just bumping every timeout',
];

/** What the first query ranked by meaning downloads beyond the first search, by part (gzip bytes). */
interface MeaningBytes {
  /** The feed's skill vectors. */
  vectors: number;
  /** The model's manifest (with the tokenizer's configuration) and the tokenizer's code. */
  tokenizer: number;
  /** The tokenizer's vocabulary (`vocab.txt`). */
  words: number;
  /** The token shards of the query's own tokens. */
  shards: number;
  /** Typed a character at a time: the shards of the words its last word could still have become, fetched beside. */
  completions: number;
}

const meaningTotal = (m: MeaningBytes): number => m.vectors + m.tokenizer + m.words + m.shards;

/**
 * What the first query ranked by meaning downloads beyond the first search: the feed's skill
 * vectors, the model's manifest and vocabulary, the tokenizer's code (a chunk loaded on demand)
 * and the token shards of its own tokens, found as the site finds them (its tokenizer, in site ids).
 */
async function firstMeaningBytes(site: string, query: string): Promise<MeaningBytes> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const { shardOf, tokenShardFile } = await import('../src/semantic/feed-vectors.ts');
  const { COMPLETIONS, completionIds, decodeSiteVocab, SITE_VOCAB_FILE, withSiteVocab, wordBeingTyped } =
    await import('../src/semantic/site-vocab.ts');
  const read = (rel: string): Promise<Buffer> => readFile(path.join(site, rel));
  const astro = await readdir(path.join(site, '_astro'));
  let code = 0;
  for (const f of astro.filter((f) => f.endsWith('.js'))) {
    const text = await readFile(path.join(site, '_astro', f), 'utf8');
    if (text.includes('BertPreTokenizer')) code += gz(text);
  }
  const manifest = JSON.parse(await readFile(path.join(site, '_model/model.json'), 'utf8')) as SiteModelManifest;
  const vocabBytes = await read(`_model/${SITE_VOCAB_FILE}`);
  const vocab = decodeSiteVocab(vocabBytes.toString('utf8'));
  const tokenizer = new Tokenizer(withSiteVocab(manifest.tokenizer, vocab), {});
  const ids: number[] = tokenizer.encode(query, { add_special_tokens: false }).ids;
  const shards = new Set(ids.map(shardOf));
  let bytes = 0;
  for (const shard of shards) bytes += gz(await read(`_model/${tokenShardFile(shard)}`));
  // Typed: what the site's SiteMeaning fetches for the word being typed, beyond the query's own shards.
  const guessed = new Set<number>();
  for (let end = 1; end <= query.length; end++) {
    const typing = wordBeingTyped(query.slice(0, end), COMPLETIONS.after);
    if (!typing) continue;
    const them = new Set(completionIds(vocab, typing).map(shardOf));
    if (them.size <= COMPLETIONS.shards) for (const shard of them) if (!shards.has(shard)) guessed.add(shard);
  }
  let completions = 0;
  for (const shard of guessed) completions += gz(await read(`_model/${tokenShardFile(shard)}`));
  return {
    vectors: gz(await read('feed/v1/skill-vectors.bin')),
    tokenizer: gz(await read('_model/model.json')) + code,
    words: gz(vocabBytes),
    shards: bytes,
    completions,
  };
}

/** Change one skill's SKILL.md the way an author would: a line added to its body. */
async function editOneSkill(skillsDir: string, result: BuildResult): Promise<string> {
  const entries = await readdir(skillsDir, { recursive: true });
  const skillMd = entries
    .map(String)
    .filter((e) => e.endsWith('SKILL.md'))
    .sort()[0]!;
  await appendFile(path.join(skillsDir, skillMd), `\n\nEdited for the benchmark at ${new Date().toISOString()}.\n`);
  return `${skillMd} (of ${result.skills})`;
}

interface Measured {
  name: string;
  skills: number;
  files: number;
  /** Each kind of build, once per round; the tables report the fastest (the least disturbed by the machine's load). */
  noSite: Timed[];
  cold: Timed[];
  rebuild: Timed[];
  edited: string;
  siteDir: string;
}

/** `rounds` times: the `--no-site` build, a cold build (no `.cache`), one skill edited, the rebuild. */
async function measure(name: string, skillsDir: string, work: string, rounds: number): Promise<Measured> {
  const m: Measured = {
    name,
    skills: 0,
    files: 0,
    noSite: [],
    cold: [],
    rebuild: [],
    edited: '',
    siteDir: path.join(work, 'out'),
  };
  for (let round = 0; round < rounds; round++) {
    // Both from nothing: no `.cache` (its token counts and archives would speed up the baseline).
    await rm(path.join(work, '.cache'), { recursive: true, force: true });
    m.noSite.push(await timedBuild(skillsDir, path.join(work, 'out-no-site'), false));
    await rm(path.join(work, '.cache'), { recursive: true, force: true });
    m.cold.push(await timedBuild(skillsDir, m.siteDir, true));
    m.edited = await editOneSkill(skillsDir, m.cold[0]!.result);
    m.rebuild.push(await timedBuild(skillsDir, m.siteDir, true));
  }
  return { ...m, skills: m.cold[0]!.result.skills, files: m.cold[0]!.result.files };
}

const fastest = (runs: Timed[]): Timed => runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const times = (runs: Timed[], pick: (t: Timed) => number): string => runs.map((t) => s(pick(t))).join(', ');

async function report(m: Measured, work: string): Promise<void> {
  const [base, cold, rebuild] = [fastest(m.noSite), fastest(m.cold), fastest(m.rebuild)];
  const minCpu = (runs: Timed[]): number => Math.min(...runs.map((t) => t.cpuMs));
  const site = cold.result.site!;
  const again = rebuild.result.site!;
  process.stdout.write(
    `\n### ${m.name}: ${m.skills} skills, ${m.files} files\n\n` +
      `| build (${m.noSite.length} rounds; ratios of the fastest) | wall | CPU | vs \`--no-site\` (wall / CPU) | site stage | SKILL.md rendered |\n|---|---:|---:|---:|---:|---|\n` +
      `| \`--no-site\` | ${times(m.noSite, (t) => t.wallMs)} | ${times(m.noSite, (t) => t.cpuMs)} | 1 | – | – |\n` +
      `| with the site, cold (no \`.cache\`) | ${times(m.cold, (t) => t.wallMs)} | ${times(m.cold, (t) => t.cpuMs)} | ${(cold.wallMs / base.wallMs).toFixed(2)}× / ${(minCpu(m.cold) / minCpu(m.noSite)).toFixed(2)}× | ${site.seconds.toFixed(1)} s | ${site.rendered} of ${site.skills} |\n` +
      `| after one skill changed | ${times(m.rebuild, (t) => t.wallMs)} | ${times(m.rebuild, (t) => t.cpuMs)} | ${((rebuild.wallMs / cold.wallMs) * 100).toFixed(0)}% / ${((minCpu(m.rebuild) / minCpu(m.cold)) * 100).toFixed(0)}% of cold | ${again.seconds.toFixed(1)} s | ${again.rendered} of ${again.skills}, ${again.cached} from cache |\n`,
  );
  const stages = (t: Timed): string =>
    Object.entries(t.result.stages)
      .map(([name, seconds]) => `${name} ${seconds.toFixed(2)} s`)
      .join(', ');
  process.stdout.write(`\nStages (wall), cold: ${stages(cold)}; after one skill changed: ${stages(rebuild)}.\n`);
  await reportSizes(m, work, site.pages);
}

async function reportSizes(m: Measured, work: string, pages: number): Promise<void> {
  const all = await files(m.siteDir);
  const skillPages = all.filter((f) => /\/skills\/[^/]+\/index\.html$/.test(f.path)).map((f) => f.path);
  const filePages = all.filter((f) => /\/skills\/[^/]+\/files\/.+\/index\.html$/.test(f.path)).map((f) => f.path);
  // A tag's, a domain's or a folder's list, each of its pages (48 skills a page); not the `page/1/` redirects.
  const listPages = all
    .filter(
      (f) => /\/(tags|domains|folders)\/[^/]+\/(page\/\d+\/)?index\.html$/.test(f.path) && !/\/page\/1\//.test(f.path),
    )
    .map((f) => f.path);
  const [sp, fp] = [await pageSizes(skillPages), await pageSizes(filePages)];
  const lp = listPages.length > 0 ? await pageSizes(listPages, (p) => path.relative(m.siteDir, p)) : undefined;
  const total = all.reduce((n, f) => n + f.bytes, 0);
  const noSiteTotal = (await files(path.join(work, 'out-no-site'))).reduce((n, f) => n + f.bytes, 0);
  const first = await firstSearchBytes(m.siteDir);
  const meaning = await Promise.all(MEANING_QUERIES.map((q) => firstMeaningBytes(m.siteDir, q)));
  process.stdout.write(
    `\n| pages | count | largest (raw / gzip) | median (raw / gzip) |\n|---|---:|---:|---:|\n` +
      `| skill pages | ${sp.count} | ${kb(sp.largest[0])} / ${kb(sp.largest[1])} (${sp.largest[2]}) | ${kb(sp.median[0])} / ${kb(sp.median[1])} |\n` +
      `| file pages | ${fp.count} | ${kb(fp.largest[0])} / ${kb(fp.largest[1])} | ${kb(fp.median[0])} / ${kb(fp.median[1])} |\n` +
      (lp
        ? `| tag, domain and folder pages | ${lp.count} | ${kb(lp.largest[0])} / ${kb(lp.largest[1])} (${lp.largest[2]}) | ${kb(lp.median[0])} / ${kb(lp.median[1])} |\n`
        : '') +
      `\nTotal output ${mb(total)} (without the site ${mb(noSiteTotal)}; ${pages} pages). First search downloads ${kb(first.scripts + first.index + first.folders)} gzip: scripts ${kb(first.scripts)}, \`search.json\` ${kb(first.index)}${first.folders ? `, \`folders/skills.json\` ${kb(first.folders)}` : ''}. The first query ranked by meaning downloads ${meaning.map((x) => kb(meaningTotal(x))).join(' or ')} more gzip (${MEANING_QUERIES.length} requests of ${MEANING_QUERIES.map((q) => q.split(/\s+/).length).join(' and ')} words): skill vectors ${kb(meaning[0]!.vectors)}, tokenizer (manifest, code) ${kb(meaning[0]!.tokenizer)}, its vocabulary ${kb(meaning[0]!.words)}, its token shards ${meaning.map((x) => kb(x.shards)).join(' or ')}; typed a character at a time, the shards of what its last word could still become add ${meaning.map((x) => kb(x.completions)).join(' or ')}. Edited: ${m.edited}.\n`,
  );
}

/** The catalogs to measure: the folders given (copied into one), and/or a synthetic one. */
async function catalogs(
  work: string,
): Promise<{ catalogs: Array<{ name: string; dir: string }>; highlight: boolean; rounds: number }> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      synthetic: { type: 'string' },
      highlight: { type: 'boolean' },
      rounds: { type: 'string' },
      site: { type: 'string' },
      url: { type: 'string' },
      http1: { type: 'boolean' },
      http2: { type: 'boolean' },
    },
  });
  const out: Array<{ name: string; dir: string }> = [];
  if (positionals.length > 0) {
    const dir = path.join(work, 'real', 'skills');
    // Copies, not links: the benchmark edits a skill, and the loader refuses links out of a skill.
    for (const folder of positionals)
      await cp(path.resolve(folder), path.join(dir, path.basename(path.resolve(folder))), { recursive: true });
    out.push({ name: positionals.map((f) => path.basename(path.resolve(f))).join(' + '), dir });
  }
  if (values.synthetic || positionals.length === 0) {
    const n = Number(values.synthetic ?? 1000);
    const gen = await generateCatalog(path.join(tmpdir(), `skillpress-bench-catalog-${n}x5`), {
      skills: n,
      filesPerSkill: 5,
      binaryRatio: 0.2,
    });
    const dir = path.join(work, 'synthetic', 'skills');
    await cp(gen.root, dir, { recursive: true });
    out.push({ name: `synthetic (${n} skills × 5 files)`, dir });
  }
  return { catalogs: out, highlight: values.highlight ?? false, rounds: Number(values.rounds ?? 3) };
}

/** The protocols the search is timed over, in the order given: `--http1`, `--http2` (default HTTP/1.1 alone). */
function protocols(): Protocol[] {
  const given = process.argv.flatMap((a): Protocol[] =>
    a === '--http1' ? ['http/1.1'] : a === '--http2' ? ['h2'] : [],
  );
  return given.length > 0 ? given : ['http/1.1'];
}

/** The search timed in Chromium over each protocol asked for, each table followed by the machine's load. */
async function searchOverEach(site: string, skills: number, servedAt?: string): Promise<void> {
  for (const protocol of protocols()) {
    await searchTimings(site, skills, protocol, servedAt);
    const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1));
    process.stdout.write(
      `\n(${PROTOCOL_NAMES[protocol]}${servedAt ? `, served at ${servedAt}` : ''}; machine load average ${load.join(' / ')} over 1 / 5 / 15 min)\n`,
    );
  }
}

/** `--site <dir>`: a site built before (e.g. `skillpress build <catalog> --out <dir>`); only its search is timed. */
async function timeBuiltSite(): Promise<boolean> {
  const at = process.argv.indexOf('--site');
  if (at < 0) return false;
  const site = path.resolve(process.argv[at + 1] ?? '');
  const index = JSON.parse(await readFile(path.join(site, 'feed/v1/search.json'), 'utf8')) as {
    index?: { documentCount?: number };
  };
  const url = process.argv.indexOf('--url');
  await searchOverEach(site, index.index?.documentCount ?? 0, url < 0 ? undefined : process.argv[url + 1]);
  return true;
}

if (await timeBuiltSite()) process.exit(0);
const work = await mkdtemp(path.join(tmpdir(), 'skillpress-bench-site-'));
const cwd = process.cwd();
try {
  const { catalogs: list, highlight, rounds } = await catalogs(work);
  let last: Measured | undefined;
  for (const { name, dir } of list) {
    const catalogWork = path.dirname(dir);
    // The render cache goes to `.cache/` in the working directory: one per catalog.
    process.chdir(catalogWork);
    last = await measure(name, dir, catalogWork, rounds);
    await report(last, catalogWork);
    if (highlight) await measureHighlighting(path.join(last.siteDir));
  }
  process.chdir(cwd);
  if (last && hasChromium()) await searchOverEach(last.siteDir, last.skills);
  process.stdout.write(`\n(machine load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})\n`);
} finally {
  process.chdir(cwd);
  await rm(work, { recursive: true, force: true });
}
