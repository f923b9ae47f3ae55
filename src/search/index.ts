/**
 * Skill search: one index format and ONE ranking, shared by the site (in the browser) and the
 * MCP server. Browser-safe: no node: imports.
 *
 * Two serialized MiniSearch indexes are published in the feed:
 * - `search.json` — name, description, tags, domain, headings and file paths, plus the stored
 *   fields a result card needs (name, description, tags, domain, registry, version). Small: the
 *   site loads it first.
 * - `search-body.json` — the distinct words of each SKILL.md body. Larger, loaded lazily
 *   (`SkillSearch#attachBody`) when a search wants full-text hits.
 *
 * Ranking: prefix + typo-tolerant (fuzzy) matching; field boosts description > tags > name =
 * domain > headings > paths (FIELD_BOOSTS); body hits count with a lower weight; an exact name
 * match wins.
 * Body words match exactly, or as a prefix from 4 characters, never fuzzily.
 *
 * The indexes are MiniSearch's serialized form, written directly by ./index-build.ts (byte for
 * byte what MiniSearch would write; each text's terms kept for the next build). Queries run on ./term-index.ts (sorted terms, typed-array
 * postings, a trie for typos), scored by ./match.ts exactly as MiniSearch scores (BM25+, its
 * prefix and fuzzy weights) into reusable score arrays (./scores.ts): a tenth of MiniSearch's
 * memory and time. When every token must match, the rarest token is scored first and the others
 * only on its documents.
 *
 * ```ts
 * const { search, body } = buildSearchIndexes(entries);      // at build time
 * const s = SkillSearch.load(search, body);                   // site or MCP
 * s.search('pdf extract', { limit: 10 });                      // ranked (see SearchMode)
 * ```
 */
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import '../lib/node-version.ts';
import type { CompactIndex } from './codec.ts';
import { buildCompactIndexes } from './index-build.ts';
import {
  idf,
  matchToken,
  planToken,
  sumTokens,
  tokenQuery,
  TokenScores,
  type Matching,
  type TermHits,
} from './match.ts';
import { ScorePool, type Scores } from './scores.ts';
import {
  fusedScore,
  MEANING_ALONE,
  MEANING_ALONE_MAX,
  MEANING_WEIGHT,
  usesMeaning,
  WEAK_BELOW,
  wordScoreOf,
  type MeaningIndex,
} from './hybrid.ts';
import { TermIndex } from './term-index.ts';
import {
  bodyTerms,
  foldTerm,
  isNoiseWord,
  normalizeBodyTerm,
  normalizePathTerm,
  normalizeTerm,
  spellLanguageNames,
  tokenizeText,
} from './text.ts';
export { extractHeadings, markdownToText, tokenizePath, tokenizeText } from './text.ts';
export { fusedScore, MEANING_WEIGHT, strongCount, usesMeaning, WEAK_BELOW, type MeaningIndex } from './hybrid.ts';

/** What the feed builder hands over for each public skill. */
export interface SearchEntry {
  id: string;
  name: string;
  /** Display title, when the name written in SKILL.md was not a valid id (stored, not searched: its words are the name's). */
  title?: string;
  description: string;
  tags: string[];
  domain?: string;
  /** Headings of SKILL.md's body. */
  headings: string[];
  /** Every file path of the skill, `/`-separated (`scripts/extract.py`). */
  paths: string[];
  /** SKILL.md body (markdown); goes into the body index only. */
  body: string;
  registry: string;
  /** An imported skill's origin as the site says it (`verified from c`, `from c, via b, unverified`). */
  origin?: string;
  version?: string;
}

/** Stored with each document of `search.json`: enough to render a result card. */
export interface SearchDoc {
  id: string;
  name: string;
  title?: string;
  description: string;
  tags: string[];
  domain?: string;
  registry: string;
  origin?: string;
  version?: string;
}

/**
 * How the words of a query combine:
 * - `ranked` (default; the site and `skills_search`): every skill matching some word, each
 *   score scaled by the share of the query it covers; for a keyword query (up to three words),
 *   skills whose name, description, tags or file paths hold every word first. Never empty when a
 *   skill shares a meaningful word.
 * - `all`: only skills matching every word (seed 003's rule).
 * - `any`: every skill matching some word, by score alone.
 */
export type SearchMode = 'ranked' | 'all' | 'any';

export interface SearchOptions {
  /** At most this many results (default: all). */
  limit?: number;
  /** Keep only the documents this returns true for. */
  filter?: (doc: SearchDoc) => boolean;
  mode?: SearchMode;
  /** Ignore the body index even when it is attached. */
  metadataOnly?: boolean;
  /**
   * The catalog's closeness in meaning (./hybrid.ts): mode `ranked` then ranks a query of three
   * words or more by words and meaning, and lists skills close in meaning that share no word.
   */
  meaning?: MeaningIndex;
  /** Overrides MEANING_WEIGHT (calibration). */
  meaningWeight?: number;
  /**
   * Works out what each hit matched (`terms`, `match`, `words`, `coverage`) for the first this
   * many hits only (default: all); later hits come in the same order with the same scores, and
   * with none of it (empty, coverage 0). For a list that ranks and counts every match but shows
   * the first few (the site): a long request matches most of a large catalog, and what matched
   * where is most of the cost of listing them all.
   */
  detailed?: number;
}

/** One meaningful word of a query: stop words and filler ("please", "help me") are left out. */
export interface QueryWord {
  word: string;
  /** How many skills it matches at all (0: no skill has it, however the query is ranked). */
  documents: number;
  /**
   * Set on a word the catalog writes as one where the query has two ("set up" → `setup`, "power
   * bi" → `powerbi`): the two words it joins. It is searched and counts toward coverage, but a
   * query's length (keywords or a request, ranked by meaning or not) counts only the words typed.
   */
  joins?: [string, string];
}

export interface WordMatch {
  word: string;
  /** Where it matched: `name`, `description`, `tags`, `domain`, `headings`, `paths` or `body`. */
  fields: string[];
  /** Whether the word itself (or another form of it) is there; false when only a prefix or a typo neighbour of it is. */
  exact: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Document terms that matched (after stemming, prefix and fuzzy expansion). */
  terms: string[];
  /** For each matched term, the fields it matched in (`body` for the body index). */
  match: Record<string, string[]>;
  /** The query words this skill matched, in query order, with their fields. */
  words: WordMatch[];
  /** Share of the query's words it matched, 0–1, counted as typed (`typedCoverage`). */
  coverage: number;
  /** The score by words alone (equal to `score` when meaning did not rank the query). */
  wordScore: number;
  /** Closeness in meaning (standard deviations above the catalog's mean), when meaning ranked the query. */
  meaning?: number;
  /** False for a weak match: scoring under WEAK_BELOW × the first result's (listed after the strong ones). */
  strong: boolean;
  /** The stored card fields. */
  doc: SearchDoc;
}

export interface SearchPage {
  /** How many skills match (before `limit`). */
  total: number;
  /** How many of them are strong matches (they come first; the rest are weaker, see WEAK_BELOW). */
  strong: number;
  hits: SearchHit[];
  /** The words the query was searched with. */
  words: QueryWord[];
}

/** Serialized form of both indexes (what `search.json` / `search-body.json` hold). */
export interface SerializedIndex {
  format: 'skillpress-search';
  version: 1 | 2;
  kind: 'metadata' | 'body';
  index: unknown;
}

export const SEARCH_FORMAT_VERSION = 2;
// Format 1 = MiniSearch 7 JSON with its `index` array rewritten by ./codec.ts; format 2 = the
// same with stemmed terms. Format 1 is still read: stemmed queries find its unstemmed terms by
// prefix ("forecast" → "forecasting"), so feeds built by an older skillpress keep working.
const READABLE_VERSIONS: readonly unknown[] = [1, 2];

/** File names of the two indexes inside `feed/v1/`. */
export const SEARCH_FILE = 'search.json';
export const BODY_INDEX_FILE = 'search-body.json';

/**
 * Field boosts: the one ranking site and MCP share. The description weighs most: it says what a
 * skill is for and when to use it, in the words requests use; a name is a few words that often
 * repeat the description, and a name searched for exactly still wins (EXACT_NAME_BONUS).
 * Calibrated on the routing sets' development half (bench/routing, `npm run bench:routing`).
 */
export const FIELD_BOOSTS = { name: 1.5, description: 4, tags: 2.5, domain: 1.5, headings: 1.2, paths: 1 } as const;
/** Body hits count this much relative to a metadata hit. */
export const BODY_WEIGHT = 0.5;
/** A skill whose name equals the query (or one of its tokens) gets its score multiplied by this. */
const EXACT_NAME_BONUS = 3;
/** A query of at most this many words is a keyword query: mode `ranked` lists skills whose metadata matches all of them first. */
const KEYWORD_QUERY_WORDS = 3;
/**
 * A keyword query's skills whose metadata holds every word score this many times more
 * (calibrated on the routing sets, docs/design/search.md).
 */
const COMPLETE_BONUS = 1.15;
/** Score arrays kept for reuse between searches: enough for a few-word query over both indexes. */
const SPARE_SCORES = 16;

const META_FIELDS = Object.keys(FIELD_BOOSTS) as Array<keyof typeof FIELD_BOOSTS>;

/** Typo tolerance: none for short terms, one edit from 4 characters, two from 8. */
const fuzzy = (term: string): number => (term.length < 4 ? 0 : term.length < 8 ? 1 : 2);
/** Prefix matching from two characters on (search as you type). */
const prefix = (term: string): boolean => term.length >= 2;
/**
 * Body words match exactly, and as a prefix from four characters on: a short prefix ("tra")
 * matches hundreds of body words and so thousands of skills, which says little and costs most.
 * Never fuzzy: typos are caught by the metadata index.
 */
const BODY_PREFIX_MIN = 4;
const bodyPrefix = (term: string): boolean => term.length >= BODY_PREFIX_MIN;
const wrap = (kind: SerializedIndex['kind'], index: CompactIndex): SerializedIndex => ({
  format: 'skillpress-search',
  version: SEARCH_FORMAT_VERSION,
  kind,
  index,
});

/**
 * Build both indexes. Entries should come in a stable order (by id) for reproducible output.
 * `terms` gives a body's terms (`bodyTerms`, or the same kept from an earlier build; a body the
 * previous call in this process saw keeps its terms). The indexes are what MiniSearch would
 * serialize, terms sorted (readers find prefixes by binary search, and gzip packs them tighter),
 * postings in ./codec.ts's compact form; ./index-build.ts writes them directly, and keeps each
 * text's terms for the next build in this process.
 */
export function buildSearchIndexes(
  entries: readonly SearchEntry[],
  terms: (markdown: string) => string = bodyTerms,
): { search: SerializedIndex; body: SerializedIndex } {
  const { search, body } = buildCompactIndexes(entries, terms, META_FIELDS);
  return { search: wrap('metadata', search), body: wrap('body', body) };
}

function unwrap(json: unknown, kind: SerializedIndex['kind']): TermIndex {
  const data = typeof json === 'string' ? (JSON.parse(json) as unknown) : json;
  const s = data as Partial<SerializedIndex> | null;
  if (!s || s.format !== 'skillpress-search' || s.kind !== kind) {
    throw new Error(`not a skillpress ${kind} search index (expected format "skillpress-search", kind "${kind}")`);
  }
  if (!READABLE_VERSIONS.includes(s.version)) {
    throw new Error(
      `search index version ${String(s.version)} is not supported (this skillpress reads versions ${READABLE_VERSIONS.join(' and ')})`,
    );
  }
  return new TermIndex(s.index as CompactIndex);
}

/**
 * The search the site and the MCP server share: BM25 over name, description, tags, domain,
 * headings and file paths (and the SKILL.md bodies once the body index is attached), loaded from
 * the `search.json` a build writes beside the feed.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { SkillSearch } from 'skillpress/search';
 * const search = SkillSearch.load(readFileSync('dist/feed/v1/search.json', 'utf8'));
 * for (const hit of search.search('fill a pdf form', { limit: 5 })) console.log(hit.id, hit.score.toFixed(2));
 * ```
 */
export class SkillSearch {
  private readonly meta: Matching;
  private body: Matching | undefined;
  private readonly numbers = new Map<string, number>();
  /** Document numbers by skill name (an exact name match wins). */
  private readonly byName = new Map<string, number[]>();
  private readonly pool: ScorePool;
  /** Whether document numbers follow the ids' order. */
  private readonly idOrder: boolean;
  /** Scratch for searchPage: the documents the rarest token matched. */
  private mask: Uint8Array | undefined;
  /** Scratch for matchesOf: which returned hit a document is. */
  private slots: Int32Array | undefined;
  /** Document number ↔ slot of each meaning index searched with. */
  private readonly meaningSlots = new WeakMap<MeaningIndex, { slotOf: Int32Array; docOf: Int32Array }>();

  private constructor(meta: TermIndex) {
    this.meta = {
      index: meta,
      boosts: meta.fieldNames.map((f) => (FIELD_BOOSTS as Record<string, number>)[f] ?? 1),
      normalize: normalizePathTerm,
      prefix,
      fuzzy,
    };
    this.pool = new ScorePool(meta.documentCount, SPARE_SCORES);
    meta.ids.forEach((id, d) => this.numbers.set(id, d));
    // Feeds number skills in id order: then ties are broken by number, no string compares.
    this.idOrder = meta.ids.every((id, d) => d === 0 || meta.ids[d - 1]! < id);
    meta.stored.forEach((stored, d) => {
      const name = stored?.name;
      if (typeof name === 'string') this.byName.set(name, [...(this.byName.get(name) ?? []), d]);
    });
  }

  /** Load `search.json` (parsed object or JSON text) and, optionally, the body index. */
  static load(searchJson: unknown, bodyJson?: unknown): SkillSearch {
    const s = new SkillSearch(unwrap(searchJson, 'metadata'));
    if (bodyJson !== undefined) s.attachBody(bodyJson);
    return s;
  }

  /** Add the lazily loaded body index (`search-body.json`). */
  attachBody(bodyJson: unknown): void {
    const body = unwrap(bodyJson, 'body');
    // Both indexes are built from the same entries, so document numbers normally agree.
    if (body.ids.some((id, d) => this.numbers.get(id) !== d))
      body.renumber(
        Int32Array.from(body.ids, (id) => this.numbers.get(id) ?? -1),
        this.size,
      );
    this.body = {
      index: body,
      boosts: body.fieldNames.map(() => 1),
      normalize: normalizeBodyTerm,
      prefix: bodyPrefix,
      fuzzy: () => 0,
      label: 'body',
    };
  }

  get hasBody(): boolean {
    return this.body !== undefined;
  }

  get size(): number {
    return this.meta.index.documentCount;
  }

  /** The skills' ids in index order (the order of the feed's skill vectors). */
  get ids(): readonly string[] {
    return this.meta.index.ids;
  }

  /** The stored card fields of one skill, if it is in the index. */
  doc(id: string): SearchDoc | undefined {
    const d = this.numbers.get(id);
    return d === undefined ? undefined : this.docAt(d);
  }

  /** Every document, in index order (for listing without a query). */
  all(): SearchDoc[] {
    return this.meta.index.ids.map((_, d) => this.docAt(d));
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return this.searchPage(query, options).hits;
  }

  /**
   * Like `search`, and also the number of matching skills and the words searched for: only the
   * `limit` best are materialized as hits, so a broad query over a big catalog stays cheap.
   */
  searchPage(query: string, options: SearchOptions = {}): SearchPage {
    const mode = options.mode ?? 'ranked';
    const useBody = this.body !== undefined && !options.metadataOnly;
    const taken: Scores[] = [];
    // A byte per document (L1-sized), rather than the rarest token's score arrays: this is
    // read once per posting of every other token.
    let only: Uint8Array | undefined;
    const take = (): Scores => {
      const scores = this.pool.take();
      taken.push(scores);
      return scores;
    };
    try {
      // Only the last word is matched as a prefix: it may be the one being typed.
      const plans = this.searchedWords(query, mode).flatMap(({ word, joins }, i, all) => {
        const q = tokenQuery(word);
        const last = i === all.length - 1;
        return q === undefined
          ? []
          : [
              {
                word,
                joins,
                meta: planToken(this.meta, q, last),
                body: useBody ? planToken(this.body!, q, last) : undefined,
              },
            ]; // undefined: punctuation only
      });
      if (plans.length === 0) return { total: 0, strong: 0, hits: [], words: [] };
      // When every word must match, score the word that reads the fewest postings first, then
      // the others only on the documents it matched.
      const cost = (p: (typeof plans)[number]): number => p.meta.postings + (p.body?.postings ?? 0);
      const order = plans.map((_, i) => i);
      if (mode === 'all') order.sort((a, b) => cost(plans[a]!) - cost(plans[b]!));
      const perToken: TokenScores[] = [];
      for (const i of order) {
        const { meta, body } = plans[i]!;
        perToken[i] = new TokenScores(matchToken(meta, take, only), body && matchToken(body, take, only));
        if (mode === 'all' && only === undefined && order.length > 1)
          perToken[i].mark((only = this.mask ??= new Uint8Array(this.size)));
      }
      const words = plans.map((p, i): QueryWord => ({
        word: p.word,
        documents: mode === 'all' && only !== undefined ? -1 : perToken[i]!.documents(),
        ...(p.joins && { joins: p.joins }),
      }));
      return this.rank(query, words, perToken, take(), options);
    } finally {
      for (const scores of taken) this.pool.give(scores);
      only?.fill(0);
    }
  }

  /** Totals per document (in mode `all`, only documents every word matched), the `limit` best, their hits. */
  private rank(
    query: string,
    words: QueryWord[],
    perToken: TokenScores[],
    total: Scores,
    options: SearchOptions,
  ): SearchPage {
    const mode = options.mode ?? 'ranked';
    sumTokens(perToken, BODY_WEIGHT, total, mode === 'all');
    this.exactNameBonus(query, words, total.values);
    const values = total.values;
    // In mode `ranked`, a score counts in proportion to how much of the query the skill covers,
    // and for a keyword query skills whose metadata matches every word get a bonus. A longer
    // request is ranked by score (and meaning) alone: a skill holding every word of a long
    // request is seldom the one it asks for.
    const typed = words.filter((w) => !w.joins).length;
    if (mode === 'ranked') {
      scaleByCoverage(words, perToken, total, this.size);
      if (typed <= KEYWORD_QUERY_WORDS)
        this.favourComplete(
          perToken.filter((_, i) => !words[i]!.joins),
          total,
        );
    }
    const meaning = mode === 'ranked' && usesMeaning(typed) ? options.meaning : undefined;
    const fused = meaning && this.fuseMeaning(query, meaning, total, options.meaningWeight ?? MEANING_WEIGHT);
    const ids = this.meta.index.ids;
    const idOrder = this.idOrder;
    // Higher score first; equal scores by id.
    const before = (a: number, b: number): boolean =>
      values[a]! > values[b]! || (values[a] === values[b] && (idOrder ? a < b : ids[a]! < ids[b]!));
    const keep = options.filter && ((d: number) => options.filter!(this.docAt(d)));
    const { best, count } = topDocuments(total, before, options.limit ?? Infinity, keep);
    const strongFrom = best.length > 0 && values[best[0]!]! > 0 ? WEAK_BELOW * values[best[0]!]! : -Infinity;
    const strong = countAtLeast(total, strongFrom, keep);
    const matches = this.matchesOf(
      best.slice(0, options.detailed ?? best.length),
      perToken,
      words.map((w) => w.word),
    );
    const hits = best.map((d, h): SearchHit => {
      const { words: fieldsOf, exact, terms } = matches[h] ?? undetailed();
      const matched = fieldsOf.flatMap((fields, i) =>
        fields.length > 0 ? [{ word: words[i]!.word, fields, exact: exact[i]! }] : [],
      );
      const near = fused?.closenessOf(d);
      const hit: SearchHit = {
        id: ids[d]!,
        score: values[d]!,
        terms: Object.keys(terms),
        match: terms,
        words: matched,
        coverage: coverageOf(typedCoverage(matched, words)),
        wordScore: near === undefined ? values[d]! : wordScoreOf(values[d]!, fused!.bestWordScore, near, fused!.weight),
        strong: values[d]! >= strongFrom,
        doc: this.docAt(d),
      };
      if (near !== undefined) hit.meaning = near;
      return hit;
    });
    // In mode `all` the words were scored on the rarest word's skills only: report what matched.
    const reported = words.map((w) => (w.documents < 0 ? { ...w, documents: count } : w));
    return { total: count, strong, hits, words: reported };
  }

  /**
   * Ranks the scored skills by words and meaning (./hybrid.ts): each score becomes the fused
   * score, and the skills sharing no word but close enough in meaning are added.
   */
  private fuseMeaning(
    query: string,
    meaning: MeaningIndex,
    total: Scores,
    weight: number,
  ): { bestWordScore: number; weight: number; closenessOf: (d: number) => number } {
    const { slotOf, docOf } = this.slotsFor(meaning);
    const closeness = meaning.closeness(query);
    const near = (d: number): number => (slotOf[d]! < 0 ? 0 : closeness[slotOf[d]!]!);
    const values = total.values;
    let bestWordScore = 0;
    for (let i = 0; i < total.count; i++) bestWordScore = Math.max(bestWordScore, values[total.docs[i]!]!);
    for (let i = 0; i < total.count; i++) {
      const d = total.docs[i]!;
      values[d] = fusedScore(values[d]!, bestWordScore, near(d), weight);
    }
    const alone: number[] = [];
    for (let slot = 0; slot < closeness.length; slot++) {
      const d = docOf[slot]!;
      if (closeness[slot]! >= MEANING_ALONE && d >= 0 && values[d] === 0) alone.push(slot);
    }
    alone.sort((a, b) => closeness[b]! - closeness[a]! || a - b);
    for (const slot of alone.slice(0, MEANING_ALONE_MAX)) total.add(docOf[slot]!, weight * closeness[slot]!);
    return { bestWordScore, weight, closenessOf: near };
  }

  /** Document number ↔ slot of a meaning index, worked out once per index. */
  private slotsFor(meaning: MeaningIndex): { slotOf: Int32Array; docOf: Int32Array } {
    let known = this.meaningSlots.get(meaning);
    if (!known) {
      const slotOf = new Int32Array(this.size).fill(-1);
      const docOf = Int32Array.from(meaning.slotIds, (id) => this.numbers.get(id) ?? -1);
      docOf.forEach((d, slot) => d >= 0 && (slotOf[d] = slot));
      known = { slotOf, docOf };
      this.meaningSlots.set(meaning, known);
    }
    return known;
  }

  /** An exact name match wins: × 6 when the whole query is the name, × 3 when one of its words or tokens is. */
  private exactNameBonus(query: string, words: QueryWord[], values: Float64Array): void {
    const wholeQuery = foldTerm(query.trim(), 200);
    // A name typed in words ("code review" for `code-review`) is the name all the same.
    const hyphenated = wholeQuery?.replace(/\s+/g, '-');
    const names = new Set([
      wholeQuery,
      hyphenated,
      ...[...queryTokens(query), ...words.map((w) => w.word)].map((w) => foldTerm(w, 200)),
    ]);
    for (const name of names) {
      for (const d of (name !== undefined && this.byName.get(name)) || []) {
        if (values[d]! > 0)
          values[d]! *= name === wholeQuery || name === hyphenated ? EXACT_NAME_BONUS * 2 : EXACT_NAME_BONUS;
      }
    }
  }

  /**
   * The words a query is searched with: `queryWords`, and in mode `ranked` each pair of adjacent
   * words the catalog writes as one word (`joinedWords`), before the last word (the one matched
   * as a prefix while it is typed).
   */
  private searchedWords(query: string, mode: SearchMode): Array<{ word: string; joins?: [string, string] }> {
    const typed = queryWords(query, mode).map((word) => ({ word }));
    if (mode !== 'ranked') return typed;
    const joined = joinedWords(query, (term) => {
      const t = this.meta.normalize(term);
      return t !== undefined && this.meta.index.find(t) >= 0;
    }).filter((j) => !typed.some((t) => t.word === j.word));
    return joined.length === 0 ? typed : [...typed.slice(0, -1), ...joined, ...typed.slice(-1)];
  }

  /**
   * Multiplies by COMPLETE_BONUS the score of each skill whose metadata — name, description, tags,
   * domain, headings, file paths — holds every word of a keyword query: what a skill says it is
   * for, not a word its long instructions happen to mention ("create", "file"). A bonus, not a
   * group of its own: a complete match far weaker than a partial one stays below it.
   */
  private favourComplete(perToken: readonly TokenScores[], total: Scores): void {
    for (let i = 0; i < total.count; i++) {
      const d = total.docs[i]!;
      if (perToken.every((t) => t.meta.scores.values[d]! > 0)) total.values[d]! *= COMPLETE_BONUS;
    }
  }

  /**
   * For each of the returned documents, the terms that matched and in which fields, and the
   * fields each query word matched in: worked out only for those. A term's postings are
   * scanned once for all of them, or binary-searched per document when its list is long (a
   * common word), whichever reads fewer postings.
   */
  private matchesOf(best: readonly number[], perToken: readonly TokenScores[], words: readonly string[]): HitMatches[] {
    // Terms are the catalog's words, "constructor" and "__proto__" among them: no inherited keys.
    const matches = best.map((): HitMatches => ({
      terms: Object.create(null) as HitMatches['terms'],
      words: words.map((): string[] => []),
      exact: words.map(() => false),
    }));
    // A word's own terms, as each index normalizes them: the whole word and its parts.
    const own = words.map(
      (w) =>
        new Set(
          tokenizeText(w)
            .flatMap((t) => [normalizeTerm(t), normalizeBodyTerm(t)])
            .filter((t) => t !== undefined),
        ),
    );
    if (best.length === 0) return matches;
    // slots[d] = 1 + the hit number of document d (0: not a hit); cleared before returning.
    const slots = (this.slots ??= new Int32Array(this.size));
    best.forEach((d, h) => (slots[d] = h + 1));
    const n = slots.length;
    const record = (h: number, word: number, term: string, field: string): void => {
      const into = (matches[h]!.terms[term] ??= []);
      if (!into.includes(field)) into.push(field);
      const fields = matches[h]!.words[word]!;
      if (!fields.includes(field)) fields.push(field);
      if (own[word]!.has(term)) matches[h]!.exact[word] = true;
    };
    const add = (word: number, m: Matching, hits: TermHits, counts: (d: number) => boolean): void => {
      const ix = m.index;
      const counted = best.map(counts);
      const wanted = best.map((_, h) => h).filter((h) => counted[h]);
      if (wanted.length === 0) return;
      for (const t of hits.terms) {
        const term = ix.terms[t]!;
        const from = ix.offsets[t]!;
        const to = ix.offsets[t + 1]!;
        if (to - from <= wanted.length * ix.fieldNames.length * 8) {
          for (let i = from; i < to; i++) {
            const d = ix.docs[i]!;
            const h = d < n ? slots[d]! - 1 : -1;
            if (h >= 0 && counted[h]) record(h, word, term, m.label ?? ix.fieldNames[ix.fields ? ix.fields[i]! : 0]!);
          }
        } else {
          for (const h of wanted) for (const f of ix.fieldsOf(t, best[h]!)) record(h, word, term, m.label ?? f);
        }
      }
    };
    perToken.forEach((t, word) => {
      for (const [m, ih] of [
        [this.meta, t.meta],
        [this.body, t.body],
      ] as const) {
        if (!m || !ih) continue;
        const { whole, parts } = ih;
        if (whole) add(word, m, whole, (d) => whole.scores.values[d]! > 0);
        if (parts.length > 0)
          for (const p of parts) add(word, m, p, (d) => parts.every((q) => q.scores.values[d]! > 0));
      }
    });
    for (const d of best) slots[d] = 0;
    return matches;
  }

  private docAt(d: number): SearchDoc {
    return { id: this.meta.index.ids[d]!, ...this.meta.index.stored[d] } as SearchDoc;
  }
}

/**
 * Multiplies each score by the share of the query the skill covers, each word weighted by how
 * telling it is: a long request full of common words ("write", "code", "project") no longer
 * lifts the skill whose body happens to hold most of them above the one whose description
 * holds the few words that matter.
 */
function scaleByCoverage(
  words: readonly QueryWord[],
  perToken: readonly TokenScores[],
  total: Scores,
  catalogSize: number,
): void {
  const weights = words.map((w) => idf(w.documents, catalogSize));
  const sum = weights.reduce((a, b) => a + b, 0);
  if (!(sum > 0)) return;
  for (let i = 0; i < total.count; i++) {
    const d = total.docs[i]!;
    let covered = 0;
    for (let j = 0; j < perToken.length; j++) if (perToken[j]!.matches(d)) covered += weights[j]!;
    total.values[d]! *= covered / sum;
  }
}

/** What one returned document matched: terms with their fields, and the fields of each query word (by word number). */
interface HitMatches {
  terms: Record<string, string[]>;
  words: string[][];
  /** By word number: whether one of the word's own terms matched (not only a prefix or typo expansion). */
  exact: boolean[];
}

/** What a hit past `SearchOptions.detailed` reports: nothing matched, as far as it says. */
const undetailed = (): HitMatches => ({ terms: Object.create(null) as HitMatches['terms'], words: [], exact: [] });

/**
 * The words a query is searched with: whitespace-separated, edge punctuation stripped
 * (`changed.` → `changed`, `infra/` → `infra`), each once, without stop words and filler
 * ("please help me …", "we're") and single characters — unless that would leave nothing, then
 * all of them. In mode `ranked` a compound is split into its parts (`pricing_matrix.xlsx` →
 * `pricing`, `matrix`, `xlsx`), so a request counts each part that matches; the other modes keep
 * it whole (it then matches as a whole or by all of its parts).
 */
export function queryWords(query: string, mode: SearchMode = 'ranked'): string[] {
  const tokens = queryTokens(query);
  const words = [...new Set(mode === 'ranked' ? tokens.flatMap(compoundParts) : tokens)];
  const meaningful = words.filter((w) => [...w].length > 1 && !isNoiseWord(w));
  return meaningful.length > 0 ? meaningful : words;
}

/**
 * How many of the words typed a skill matched, of how many: a joined word it matched (`payroll`
 * for "pay roll") stands for the two it joins. What `SearchHit.coverage` and the site's "Matches
 * k of n words" report.
 */
export function typedCoverage(
  matched: ReadonlyArray<{ word: string }>,
  words: readonly QueryWord[],
): { matched: number; typed: number } {
  const typed = words.filter((w) => !w.joins).map((w) => w.word.toLowerCase());
  const joins = new Map(words.flatMap((w) => (w.joins ? [[w.word, w.joins] as const] : [])));
  const covered = new Set(matched.flatMap((m) => joins.get(m.word) ?? [m.word.toLowerCase()]));
  return { matched: typed.filter((w) => covered.has(w)).length, typed: typed.length };
}

const coverageOf = ({ matched, typed }: { matched: number; typed: number }): number =>
  typed > 0 ? matched / typed : 0;

/** The shortest word two query words can be joined into. */
const MIN_JOINED = 5;

/**
 * Adjacent plain words of a query that `known` (the catalog's vocabulary) has as one word:
 * "set up" → `setup`, "power bi" → `powerbi`, "draw io" → `drawio`. People split what a name or a
 * product writes as one; an index of words cannot see it, as BM25 over the words alone cannot.
 */
export function joinedWords(
  query: string,
  known: (word: string) => boolean,
): Array<{ word: string; joins: [string, string] }> {
  const tokens = queryTokens(query).map((t) => t.toLowerCase());
  const out: Array<{ word: string; joins: [string, string] }> = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [a, b] = [tokens[i]!, tokens[i + 1]!];
    const word = a + b;
    if (PLAIN.test(a) && PLAIN.test(b) && word.length >= MIN_JOINED && known(word) && !out.some((o) => o.word === word))
      out.push({ word, joins: [a, b] });
  }
  return out;
}

const PLAIN = /^[a-z]+$/;

/** Whitespace-separated tokens of a query without edge punctuation (typographic apostrophes made plain). */
function queryTokens(query: string): string[] {
  return spellLanguageNames(query)
    .replace(/[\u2018\u2019]/g, "'")
    .split(/\s+/)
    .map((t) => t.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean);
}

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}#+]+$/gu;

/** The word parts of a compound token; a plain word is its own single part. */
function compoundParts(token: string): string[] {
  // A contraction is one filler word ("we're", "doesn't"), not "we" + "re".
  if (isNoiseWord(token)) return [token];
  const parts = tokenizeText(token).filter((p) => p !== token);
  return parts.length > 1 ? parts : [token];
}

/** How many documents of `total` (passing `keep`) score at least `floor`. */
function countAtLeast(total: Scores, floor: number, keep?: (d: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < total.count; i++) {
    const d = total.docs[i]!;
    if (total.values[d]! >= floor && (!keep || keep(d))) n++;
  }
  return n;
}

/**
 * The `limit` best documents of `total` in `before` order (kept sorted while scanning, so a
 * broad query builds only `limit` hits), and how many passed the filter.
 */
function topDocuments(
  total: Scores,
  before: (a: number, b: number) => boolean,
  limit: number,
  keep?: (d: number) => boolean,
): { best: number[]; count: number } {
  const best: number[] = [];
  let count = 0;
  for (let i = 0; i < total.count; i++) {
    const d = total.docs[i]!;
    if (keep && !keep(d)) continue;
    count++;
    if (limit === Infinity) {
      best.push(d);
      continue;
    }
    if (best.length >= limit && !before(d, best[best.length - 1]!)) continue;
    let at = best.length;
    while (at > 0 && before(d, best[at - 1]!)) at--;
    best.splice(at, 0, d);
    if (best.length > limit) best.pop();
  }
  if (limit === Infinity) best.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return { best, count };
}
