/**
 * Feed build benchmark: writeFeed (feed/v1, discovery index, .tar.gz + .zip archives, search
 * indexes, changes) over generated catalogs of 100 / 1,000 skills × 10 files, and the size of
 * the search indexes per 1,000 skills.
 *
 *   npm run bench:build                # 100 and 1,000 skills
 *   npm run bench:build -- 100 5000    # chosen sizes
 *   npm run bench:build -- /work/union a,b,c   # per catalog set: search indexes, duplicate scan
 *
 * Table 1 times loadCatalog and writeFeed separately (the site build is bench/site.ts), best of
 * RUNS warm runs, with the process CPU time beside the wall time (the machine may be shared).
 * bench/lib/generate-catalog.ts repeats a few dozen words, so its search indexes are small;
 * table 2 therefore also measures indexes over 1,000 entries with realistic text statistics
 * (bench/lib/search-entries.ts: 20,000-word Zipf vocabulary). Targets: feeds for 1,000 skills
 * ≤ 10 s; search.json ≤ 300 KB gzipped per 1,000 skills.
 *
 * Given skills folders (a set: folders joined by commas), it times instead the two
 * whole-catalog steps of every rebuild on them (bench/lib/rebuild-steps.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadCatalog } from '../src/load/index.ts';
import { SkillpressConfig } from '../src/model/config.ts';
import { writeFeed } from '../src/emit/feed/index.ts';
import { BODY_INDEX_FILE, SEARCH_FILE, SkillSearch, buildSearchIndexes } from '../src/search/index.ts';
import { generateCatalog } from './lib/generate-catalog.ts';
import { realisticEntries } from './lib/search-entries.ts';
import { table } from './lib/table.ts';
import { measureRebuildSteps } from './lib/rebuild-steps.ts';

const FEED_TARGET_SECONDS = 10;
const SEARCH_TARGET_GZIP_KB = 300;
const FILES_PER_SKILL = 10;
const RUNS = 2;

const sizes = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
const catalogSets = process.argv.slice(2).filter((a) => !/^\d+$/.test(a) && !a.startsWith('-'));
const skillCounts = sizes.length > 0 ? sizes : [100, 1_000];
const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-build-'));
const config = SkillpressConfig.parse({});
const kb = (n: number): string => (n / 1024).toFixed(0);

interface FeedRow {
  skills: number;
  files: number;
  load: number;
  feed: number;
  cpu: number;
  outMiB: number;
  search: [number, number];
  body: [number, number];
}

const sizesOf = (file: string): [number, number] => {
  const bytes = readFileSync(file);
  return [bytes.length, gzipSync(bytes).length];
};

async function measureFeed(skills: number): Promise<FeedRow> {
  const generated = await generateCatalog(path.join(work, `catalog-${skills}`), {
    skills,
    filesPerSkill: FILES_PER_SKILL,
    binaryRatio: 0.2,
  });
  const t0 = performance.now();
  const catalog = await loadCatalog(generated.root, { sourceDateEpoch: 1_700_000_000 });
  const load = (performance.now() - t0) / 1000;
  let best = Infinity;
  let cpu = 0;
  let out = '';
  let summary: Awaited<ReturnType<typeof writeFeed>> | undefined;
  for (let run = 0; run < RUNS; run++) {
    out = path.join(work, `out-${skills}-${run}`);
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    summary = await writeFeed(catalog, { outDir: out, config, sourceDateEpoch: 1_700_000_000 });
    const seconds = (performance.now() - t1) / 1000;
    if (seconds < best) {
      best = seconds;
      const c = process.cpuUsage(cpu0);
      cpu = (c.user + c.system) / 1e6;
    }
  }
  const feedDir = path.join(out, 'feed', 'v1');
  const row = {
    skills,
    files: summary!.files,
    load,
    feed: best,
    cpu,
    outMiB: summary!.bytes / 1024 / 1024,
    search: sizesOf(path.join(feedDir, SEARCH_FILE)),
    body: sizesOf(path.join(feedDir, BODY_INDEX_FILE)),
  };
  for (let run = 0; run < RUNS; run++)
    rmSync(path.join(work, `out-${skills}-${run}`), { recursive: true, force: true });
  return row;
}

function measureRealisticSearch(count: number) {
  const entries = realisticEntries(count);
  const t0 = performance.now();
  const { search, body } = buildSearchIndexes(entries);
  const buildMs = performance.now() - t0;
  const searchJson = JSON.stringify(search);
  const bodyJson = JSON.stringify(body);
  const t1 = performance.now();
  const index = SkillSearch.load(searchJson);
  const loadMs = performance.now() - t1;
  // Queries people and agents type: a misspelt name, a tag and a word, a file path, a body word.
  const queries = entries
    .slice(0, 100)
    .map(
      (e, i) =>
        [e.name.replace(/[aeiou]/, 'x'), `${e.tags[0]} ${e.domain}`, e.paths[1]!, e.body.split(/\s+/)[20]!][i % 4]!,
    );
  const time = (s: SkillSearch): number => {
    const t = performance.now();
    for (const q of queries) s.search(q, { limit: 10 });
    return (performance.now() - t) / queries.length;
  };
  const metaQueryMs = time(index);
  index.attachBody(bodyJson);
  const fullQueryMs = time(index);
  return {
    buildMs,
    loadMs,
    search: [searchJson.length, gzipSync(searchJson).length] as [number, number],
    body: [bodyJson.length, gzipSync(bodyJson).length] as [number, number],
    metaQueryMs,
    fullQueryMs,
  };
}

async function printRebuildSteps(sets: string[]): Promise<void> {
  const rows = [];
  for (const set of sets) rows.push(await measureRebuildSteps(set));
  console.log(
    `\nrebuild steps on catalogs, ms (first call in the process / best / median of 5 rebuilds after one edit); Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}\n`,
  );
  const ms = (t: [number, number, number]): string => t.map((x) => x.toFixed(0)).join(' / ');
  console.log(
    table(
      ['catalog', 'skills', 'buildSearchIndexes ms', 'findDuplicates ms', 'near + identical pairs'],
      rows.map((r) => [r.set, String(r.skills), ms(r.search), ms(r.duplicates), String(r.pairs)]),
    ),
  );
}

if (catalogSets.length > 0) {
  await printRebuildSteps(catalogSets);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

try {
  const rows: FeedRow[] = [];
  for (const n of skillCounts) rows.push(await measureFeed(n));
  console.log(
    `\nwriteFeed, ${FILES_PER_SKILL} files per skill (20% binary), best of ${RUNS}; Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    table(
      [
        'skills',
        'files',
        'load s',
        'feed s',
        'feed cpu s',
        'output MiB',
        'search.json KB',
        'gzip KB',
        'body index KB',
        'gzip KB',
      ],
      rows.map((r) => [
        r.skills.toLocaleString('en-US'),
        r.files.toLocaleString('en-US'),
        r.load.toFixed(2),
        r.feed.toFixed(2),
        r.cpu.toFixed(2),
        r.outMiB.toFixed(1),
        kb(r.search[0]),
        kb(r.search[1]),
        kb(r.body[0]),
        kb(r.body[1]),
      ]),
    ),
  );
  const thousand = rows.find((r) => r.skills === 1_000);
  if (thousand)
    console.log(
      `\ntarget: feeds for 1,000 skills ≤ ${FEED_TARGET_SECONDS} s: ${thousand.feed <= FEED_TARGET_SECONDS ? 'met' : 'NOT met'} (${thousand.feed.toFixed(2)} s)`,
    );

  const s = measureRealisticSearch(1_000);
  console.log('\nsearch indexes over 1,000 entries with realistic text (bench/lib/search-entries.ts)\n');
  console.log(
    table(
      ['index', 'raw KB', 'gzip KB', 'build ms', 'load ms', 'query ms'],
      [
        [
          'search.json',
          kb(s.search[0]),
          kb(s.search[1]),
          s.buildMs.toFixed(0),
          s.loadMs.toFixed(0),
          s.metaQueryMs.toFixed(2),
        ],
        ['search-body.json', kb(s.body[0]), kb(s.body[1]), '(with above)', '', s.fullQueryMs.toFixed(2) + ' (both)'],
      ],
    ),
  );
  const worst = Math.max(s.search[1], ...rows.map((r) => (r.search[1] * 1_000) / r.skills));
  console.log(
    `\ntarget: search.json ≤ ${SEARCH_TARGET_GZIP_KB} KB gzipped per 1,000 skills: ${worst <= SEARCH_TARGET_GZIP_KB * 1024 ? 'met' : 'NOT met'} (${kb(worst)} KB at worst)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
