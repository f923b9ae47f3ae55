/**
 * The query engine (src/search: sorted terms, typed-array postings, score arrays) against
 * MiniSearch's own search, on generated catalogs and queries (fast-check): several words, the
 * body index, words with parts (`kalo-mitra`, `ven_sor.py`), prefixes and typos, the exact-name
 * bonus. The reference composes MiniSearch searches the way the engine documents its scoring: per
 * query word, `whole OR (part AND part …)` with MiniSearch's expansion weights, BM25+ and field
 * boosts; the metadata score plus BODY_WEIGHT × the body score; summed over words (mode `any`);
 * × 6 when the query is a skill's name, × 3 when one of its words is.
 */
import fc from 'fast-check';
import MiniSearch, { type Query, type SearchOptions as MiniOptions } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { decodeIndex } from '../../src/search/codec.ts';
import {
  BODY_WEIGHT,
  buildSearchIndexes,
  FIELD_BOOSTS,
  queryWords,
  SkillSearch,
  type SearchEntry,
  type SerializedIndex,
} from '../../src/search/index.ts';
import { tokenQuery } from '../../src/search/match.ts';
import { foldTerm, normalizeBodyTerm, normalizePathTerm } from '../../src/search/text.ts';

const SYLLABLES = ['ka', 'lo', 'mi', 'tra', 'ven', 'sor', 'pel', 'dri', 'an', 'ex', 'con', 'fig'];
const word = fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 3 }).map((s) => s.join(''));
/** A word with one letter changed: catalogs hold near neighbours, so typo matching has work to do. */
const neighbour = fc
  .tuple(word, fc.nat(), fc.constantFrom('a', 'e', 'o', 'x'))
  .map(([w, i, c]) => w.slice(0, i % w.length) + c + w.slice((i % w.length) + 1));
const words = (min: number, max: number) =>
  fc.array(fc.oneof(word, neighbour), { minLength: min, maxLength: max }).map((w) => w.join(' '));

const entryArb = fc.record({
  name: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join('-')),
  description: words(3, 15),
  tags: fc.array(word, { maxLength: 3 }),
  headings: fc.array(words(1, 3), { maxLength: 3 }),
  file: fc.tuple(word, word),
  body: words(0, 40),
});

const catalogArb = fc.uniqueArray(entryArb, { minLength: 5, maxLength: 40, selector: (e) => e.name }).map((list) =>
  list.map((e): SearchEntry => ({
    id: e.name,
    name: e.name,
    description: e.description,
    tags: e.tags,
    headings: e.headings,
    paths: ['SKILL.md', `scripts/${e.file[0]}_${e.file[1]}.py`],
    body: e.body,
    registry: 'local',
  })),
);

/** A query token: a word, a prefix of one, a typo of one, or a compound of two. */
const tokenArb = fc.oneof(
  word,
  word.map((w) => w.slice(0, Math.max(2, w.length - 2))),
  word.map((w) => (w.length >= 5 ? `${w.slice(0, 2)}${w.slice(3)}` : w)),
  fc.tuple(word, word, fc.constantFrom('-', '_', '.')).map(([a, b, j]) => `${a}${j}${b}`),
);
const queryArb = fc.array(tokenArb, { minLength: 1, maxLength: 4 }).map((t) => t.join(' '));

function miniSearch(serialized: SerializedIndex, fields: string[]): MiniSearch {
  const plain = decodeIndex(serialized.index as Parameters<typeof decodeIndex>[0]);
  return MiniSearch.loadJSON(JSON.stringify(plain), { fields });
}

/** The terms an index holds (its typo rule: a term the index has is not a typo). */
function termsOf(serialized: SerializedIndex): Set<string> {
  return new Set(
    (
      decodeIndex(serialized.index as Parameters<typeof decodeIndex>[0]) as { index: Array<[string, unknown]> }
    ).index.map(([t]) => t),
  );
}

interface Side {
  index: MiniSearch;
  known: Set<string>;
  options: (last: boolean) => MiniOptions;
}

/** One query word as MiniSearch's query tree: the whole word, or all of its parts. */
function wordQuery(w: string): Query | undefined {
  const q = tokenQuery(w);
  if (!q) return undefined;
  return q.parts.length === 0
    ? q.whole
    : { combineWith: 'OR', queries: [q.whole, { combineWith: 'AND', queries: q.parts }] };
}

function referenceScores(query: string, meta: Side, body: Side, names: Set<string>): Map<string, number> {
  const totals = new Map<string, number>();
  const words = queryWords(query, 'any');
  words.forEach((w, i) => {
    const q = wordQuery(w);
    if (q === undefined) return;
    const last = i === words.length - 1;
    for (const [side, weight] of [
      [meta, 1],
      [body, BODY_WEIGHT],
    ] as const) {
      for (const hit of side.index.search(q, side.options(last)))
        totals.set(hit.id, (totals.get(hit.id) ?? 0) + weight * hit.score);
    }
  });
  const whole = foldTerm(query.trim(), 200);
  for (const name of new Set([
    whole,
    ...query.split(/\s+/).map((t) => foldTerm(t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}#+]+$/gu, ''), 200)),
    ...words.map((w) => foldTerm(w, 200)),
  ])) {
    if (name !== undefined && names.has(name) && (totals.get(name) ?? 0) > 0)
      totals.set(name, totals.get(name)! * (name === whole ? 6 : 3));
  }
  return totals;
}

describe('the query engine against MiniSearch', () => {
  it('scores and matches generated queries over generated catalogs exactly as MiniSearch does', () => {
    fc.assert(
      fc.property(catalogArb, fc.array(queryArb, { minLength: 1, maxLength: 8 }), (entries, queries) => {
        const built = buildSearchIndexes(entries);
        const ours = SkillSearch.load(built.search, built.body);
        const meta: Side = {
          index: miniSearch(built.search, Object.keys(FIELD_BOOSTS)),
          known: termsOf(built.search),
          options: (last) => ({
            tokenize: (t) => [t],
            processTerm: (t) => normalizePathTerm(t),
            prefix: (t) => last && t.length >= 2,
            fuzzy: (t) => (meta.known.has(t) || t.length < 4 ? 0 : t.length < 8 ? 1 : 2),
            boost: { ...FIELD_BOOSTS },
            weights: { prefix: 0.375, fuzzy: 0.45 },
          }),
        };
        const body: Side = {
          index: miniSearch(built.body, ['body']),
          known: termsOf(built.body),
          options: (last) => ({
            tokenize: (t) => [t],
            processTerm: (t) => normalizeBodyTerm(t),
            prefix: (t) => last && t.length >= 4,
            fuzzy: 0,
            weights: { prefix: 0.375, fuzzy: 0.45 },
          }),
        };
        const names = new Set(entries.map((e) => e.name));
        for (const q of queries) {
          const want = referenceScores(q, meta, body, names);
          const got = new Map(ours.search(q, { mode: 'any' }).map((h) => [h.id, h.score]));
          expect([...got.keys()].sort(), q).toEqual([...want.keys()].sort());
          for (const [id, score] of got) expect(score, `${q}: ${id}`).toBeCloseTo(want.get(id)!, 9);
        }
      }),
      { numRuns: 150, seed: 20261123 },
    );
  });
});
