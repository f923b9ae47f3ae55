/**
 * Search benchmark: skillpress's query engine (src/search) against MiniSearch's own search over
 * the same serialized index, in one process, so the comparison holds on a noisy machine.
 *
 *   npm run bench:search              # 1,000 and 10,000 skills
 *   npm run bench:search -- 2000      # chosen sizes
 *
 * Skills come from bench/lib/search-entries.ts (a Zipf vocabulary with realistic text
 * statistics). Both engines answer the same queries over the metadata index with the same
 * options (prefix on the last word, typos for unknown words, BM25+, the field boosts), in mode
 * `any` — the scoring the property test (test/search/minisearch.property.test.ts) proves equal.
 * Printed per size: load time and heap after loading, then p50 / p95 / mean per query over 300
 * queries after 100 warm-up queries, for short keyword queries and for long requests.
 */
import MiniSearch from 'minisearch';
import { decodeIndex } from '../src/search/codec.ts';
import { buildSearchIndexes, FIELD_BOOSTS, SkillSearch, type SearchEntry } from '../src/search/index.ts';
import { normalizePathTerm } from '../src/search/text.ts';
import { realisticEntries } from './lib/search-entries.ts';

const WARM_UP = 100;
const QUERIES = 300;
const sizes = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);

interface Engine {
  name: string;
  load: () => void;
  search: (q: string) => number;
}

/** Keyword queries (1–3 words of a description) and long requests (8–14 words of two descriptions). */
function queries(entries: SearchEntry[], long: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < WARM_UP + QUERIES; i++) {
    const a = entries[(i * 7919) % entries.length]!.description.split(/\s+/);
    const b = entries[(i * 104729) % entries.length]!.description.split(/\s+/);
    const n = long ? 8 + (i % 7) : 1 + (i % 3);
    const pool = long
      ? [...a.slice(0, n / 2), ...b.slice(0, n / 2)]
      : a.slice(i % Math.max(1, a.length - n), (i % Math.max(1, a.length - n)) + n);
    out.push(pool.join(' '));
  }
  return out;
}

function engines(json: string): Engine[] {
  let ours: SkillSearch | undefined;
  let mini: MiniSearch | undefined;
  let known = new Set<string>();
  return [
    {
      name: 'skillpress',
      load: () => void (ours = SkillSearch.load(json)),
      search: (q) => ours!.search(q, { mode: 'any', limit: 10 }).length,
    },
    {
      name: 'MiniSearch',
      load: () => {
        const plain = decodeIndex((JSON.parse(json) as { index: Parameters<typeof decodeIndex>[0] }).index) as {
          index: Array<[string, unknown]>;
        };
        mini = MiniSearch.loadJSON(JSON.stringify(plain), { fields: Object.keys(FIELD_BOOSTS) });
        known = new Set(plain.index.map(([t]) => t));
      },
      search: (q) => {
        const words = q.split(/\s+/);
        return mini!
          .search(q, {
            processTerm: (t) => normalizePathTerm(t),
            prefix: (_t, i) => i === words.length - 1,
            fuzzy: (t) => (known.has(t) || t.length < 4 ? 0 : t.length < 8 ? 1 : 2),
            boost: { ...FIELD_BOOSTS },
          })
          .slice(0, 10).length;
      },
    },
  ];
}

function measure(engine: Engine, qs: string[]): number[] {
  for (const q of qs.slice(0, WARM_UP)) engine.search(q);
  return qs.slice(WARM_UP).map((q) => {
    const t = performance.now();
    engine.search(q);
    return performance.now() - t;
  });
}

const quantile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const ms = (x: number): string => x.toFixed(2);

function heapMb(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1e6;
}

console.log(
  '| skills | engine | load ms | heap MB | keywords p50 / p95 / mean ms | long requests p50 / p95 / mean ms |',
);
console.log('|---:|---|---:|---:|---:|---:|');
for (const count of sizes.length ? sizes : [1_000, 10_000]) {
  const entries = realisticEntries(count);
  const json = JSON.stringify(buildSearchIndexes(entries).search);
  const short = queries(entries, false);
  const long = queries(entries, true);
  for (const engine of engines(json)) {
    const before = heapMb();
    const t = performance.now();
    engine.load();
    const loadMs = performance.now() - t;
    const heap = heapMb() - before;
    const [k, l] = [measure(engine, short), measure(engine, long)];
    const cell = (xs: number[]) =>
      `${ms(quantile(xs, 0.5))} / ${ms(quantile(xs, 0.95))} / ${ms(xs.reduce((a, b) => a + b, 0) / xs.length)}`;
    console.log(
      `| ${count.toLocaleString('en')} | ${engine.name} | ${loadMs.toFixed(0)} | ${heap.toFixed(1)} | ${cell(k)} | ${cell(l)} |`,
    );
  }
}
