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
 * Ranking: prefix + typo-tolerant (fuzzy) matching; field boosts name > description > tags >
 * domain > headings > paths; body hits count with a lower weight; an exact name match wins.
 * Body words match exactly, or as a prefix from 4 characters, never fuzzily.
 *
 * MiniSearch builds the indexes. Queries run on ./term-index.ts (sorted terms, typed-array
 * postings, a trie for typos), scored by ./match.ts exactly as MiniSearch scores (BM25+, its
 * prefix and fuzzy weights) into reusable score arrays (./scores.ts): a tenth of MiniSearch's
 * memory and time. When every token must match, the rarest token is scored first and the others
 * only on its documents.
 *
 * ```ts
 * const { search, body } = buildSearchIndexes(entries);      // at build time
 * const s = SkillSearch.load(search, body);                   // site or MCP
 * s.search('pdf extract', { limit: 10, allTokens: true });
 * ```
 */
import MiniSearch, { type Options } from 'minisearch';
import { encodeIndex, type CompactIndex } from './codec.ts';
import { matchToken, planToken, sumTokens, tokenQuery, TokenScores, type Matching, type TermHits } from './match.ts';
import { ScorePool, type Scores } from './scores.ts';
import { TermIndex } from './term-index.ts';
import { bodyTerms, normalizeBodyTerm, normalizePathTerm, normalizeTerm, tokenizePath, tokenizeText } from './text.ts';

export { extractHeadings, markdownToText, tokenizePath, tokenizeText } from './text.ts';

/** What the feed builder hands over for each public skill. */
export interface SearchEntry {
  id: string;
  name: string;
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
  version?: string;
}

/** Stored with each document of `search.json`: enough to render a result card. */
export interface SearchDoc {
  id: string;
  name: string;
  description: string;
  tags: string[];
  domain?: string;
  registry: string;
  version?: string;
}

export interface SearchOptions {
  /** At most this many results (default: all). */
  limit?: number;
  /** Keep only the documents this returns true for. */
  filter?: (doc: SearchDoc) => boolean;
  /**
   * Every whitespace-separated query token must match somewhere (name, metadata, file paths
   * or body). Default false: any token may match, more matching tokens rank higher.
   */
  allTokens?: boolean;
  /** Ignore the body index even when it is attached. */
  metadataOnly?: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Document terms that matched (after prefix / fuzzy expansion). */
  terms: string[];
  /** For each matched term, the fields it matched in (`body` for the body index). */
  match: Record<string, string[]>;
  /** The stored card fields. */
  doc: SearchDoc;
}

/** Serialized form of both indexes (what `search.json` / `search-body.json` hold). */
export interface SerializedIndex {
  format: 'skillpress-search';
  version: 1;
  kind: 'metadata' | 'body';
  index: unknown;
}

export const SEARCH_FORMAT_VERSION = 1;
// (format 1 = MiniSearch 7 JSON with its `index` array rewritten by ./codec.ts)

/** File names of the two indexes inside `feed/v1/`. */
export const SEARCH_FILE = 'search.json';
export const BODY_INDEX_FILE = 'search-body.json';

/** Field boosts: the one ranking site and MCP share. */
export const FIELD_BOOSTS = { name: 6, description: 3, tags: 2.5, domain: 1.5, headings: 1.2, paths: 1 } as const;
/** Body hits count this much relative to a metadata hit. */
export const BODY_WEIGHT = 0.3;
/** A skill whose name equals the query (or one of its tokens) gets its score multiplied by this. */
const EXACT_NAME_BONUS = 3;
/** Score arrays kept for reuse between searches: enough for a few-word query over both indexes. */
const SPARE_SCORES = 16;

const META_FIELDS = Object.keys(FIELD_BOOSTS) as Array<keyof typeof FIELD_BOOSTS>;
const STORED_FIELDS = ['name', 'description', 'tags', 'domain', 'registry', 'version'] as const;
const LIST_FIELDS = new Set(['tags', 'headings', 'paths']);

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
/** Build-time options (MiniSearch builds both indexes; ./term-index.ts answers the queries). */
const metaOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: [...META_FIELDS],
  storeFields: [...STORED_FIELDS],
  // Lists are indexed one item per line (paths are tokenized per line) and stored as arrays.
  stringifyField: (value, field) => (LIST_FIELDS.has(field) && Array.isArray(value) ? value.join('\n') : String(value)),
  tokenize: (text, field) => (field === 'paths' ? text.split('\n').flatMap(tokenizePath) : tokenizeText(text)),
  processTerm: (term, field) => (field === 'paths' ? normalizePathTerm(term) : normalizeTerm(term)),
};

const bodyOptions: Options<Record<string, unknown>> = {
  idField: 'id',
  fields: ['body'],
  storeFields: [],
  tokenize: (text) => text.split(' '),
  processTerm: (term) => normalizeBodyTerm(term),
};

const wrap = (kind: SerializedIndex['kind'], index: MiniSearch<Record<string, unknown>>): SerializedIndex => ({
  format: 'skillpress-search',
  version: SEARCH_FORMAT_VERSION,
  kind,
  // toJSON gives the plain object MiniSearch.loadJS reads back; the codec shrinks its postings.
  // Terms go sorted: readers find prefixes by binary search, and gzip packs them tighter.
  index: encodeIndex(sortTerms(index.toJSON())),
});

function sortTerms<T extends { index: Array<[string, unknown]> }>(plain: T): T {
  plain.index.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return plain;
}

/** Build both indexes. Entries should come in a stable order (by id) for reproducible output. */
export function buildSearchIndexes(entries: readonly SearchEntry[]): { search: SerializedIndex; body: SerializedIndex } {
  const meta = new MiniSearch(metaOptions);
  const body = new MiniSearch(bodyOptions);
  for (const e of entries) {
    const doc: Record<string, unknown> = {
      id: e.id,
      name: e.name,
      description: e.description,
      tags: e.tags,
      headings: e.headings,
      paths: e.paths,
      registry: e.registry,
    };
    if (e.domain !== undefined) doc.domain = e.domain;
    if (e.version !== undefined) doc.version = e.version;
    meta.add(doc);
    body.add({ id: e.id, body: bodyTerms(e.body) });
  }
  return { search: wrap('metadata', meta), body: wrap('body', body) };
}

function unwrap(json: unknown, kind: SerializedIndex['kind']): TermIndex {
  const data = typeof json === 'string' ? (JSON.parse(json) as unknown) : json;
  const s = data as Partial<SerializedIndex> | null;
  if (!s || s.format !== 'skillpress-search' || s.kind !== kind) {
    throw new Error(`not a skillpress ${kind} search index (expected format "skillpress-search", kind "${kind}")`);
  }
  if (s.version !== SEARCH_FORMAT_VERSION) {
    throw new Error(`search index version ${String(s.version)} is not supported (this skillpress reads version ${SEARCH_FORMAT_VERSION})`);
  }
  return new TermIndex(s.index as CompactIndex);
}

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
    if (body.ids.some((id, d) => this.numbers.get(id) !== d)) body.renumber(Int32Array.from(body.ids, (id) => this.numbers.get(id) ?? -1), this.size);
    this.body = { index: body, boosts: body.fieldNames.map(() => 1), normalize: normalizeBodyTerm, prefix: bodyPrefix, fuzzy: () => 0, label: 'body' };
  }

  get hasBody(): boolean {
    return this.body !== undefined;
  }

  get size(): number {
    return this.meta.index.documentCount;
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
   * Like `search`, and also the number of matching skills: only the `limit` best are
   * materialized as hits, so a broad query over a big catalog stays cheap.
   */
  searchPage(query: string, options: SearchOptions = {}): { total: number; hits: SearchHit[] } {
    const tokens = [...new Set(query.split(/\s+/).filter(Boolean))];
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
      const plans = tokens.flatMap((token) => {
        const q = tokenQuery(token);
        return q === undefined ? [] : [{ meta: planToken(this.meta, q), body: useBody ? planToken(this.body!, q) : undefined }]; // undefined: punctuation only
      });
      if (plans.length === 0) return { total: 0, hits: [] };
      // With allTokens a result matches every token: score the token that reads the fewest
      // postings first, then the others only on the documents it matched.
      const cost = (p: (typeof plans)[number]): number => p.meta.postings + (p.body?.postings ?? 0);
      const order = plans.map((_, i) => i);
      if (options.allTokens) order.sort((a, b) => cost(plans[a]!) - cost(plans[b]!));
      const perToken: TokenScores[] = [];
      for (const i of order) {
        const { meta, body } = plans[i]!;
        perToken[i] = new TokenScores(matchToken(meta, take, only), body && matchToken(body, take, only));
        if (options.allTokens && only === undefined && order.length > 1) perToken[i]!.mark((only = this.mask ??= new Uint8Array(this.size)));
      }
      return this.rank(query, tokens, perToken, take(), options);
    } finally {
      for (const scores of taken) this.pool.give(scores);
      only?.fill(0);
    }
  }

  /** Totals per document (with allTokens, only documents every token matched), the `limit` best, their hits. */
  private rank(query: string, tokens: string[], perToken: TokenScores[], total: Scores, options: SearchOptions): { total: number; hits: SearchHit[] } {
    sumTokens(perToken, BODY_WEIGHT, total, options.allTokens === true);
    // An exact name match wins.
    const values = total.values;
    const wholeQuery = normalizeTerm(query.trim(), 200);
    const tokenSet = new Set(tokens.map((t) => normalizeTerm(t, 200)));
    for (const name of new Set([wholeQuery, ...tokenSet])) {
      for (const d of (name !== undefined && this.byName.get(name)) || []) {
        if (values[d]! > 0) values[d]! *= name === wholeQuery ? EXACT_NAME_BONUS * 2 : EXACT_NAME_BONUS;
      }
    }

    const ids = this.meta.index.ids;
    // Higher score first; equal scores by id.
    const idOrder = this.idOrder;
    const before = (a: number, b: number): boolean => values[a]! > values[b]! || (values[a] === values[b] && (idOrder ? a < b : ids[a]! < ids[b]!));
    const limit = options.limit ?? Infinity;
    // The best `limit` documents, kept sorted; everything else is only counted.
    const best: number[] = [];
    let count = 0;
    for (let i = 0; i < total.count; i++) {
      const d = total.docs[i]!;
      if (options.filter && !options.filter(this.docAt(d))) continue;
      count++;
      if (best.length >= limit && !before(d, best[best.length - 1]!)) continue;
      if (limit === Infinity) {
        best.push(d);
        continue;
      }
      let at = best.length;
      while (at > 0 && before(d, best[at - 1]!)) at--;
      best.splice(at, 0, d);
      if (best.length > limit) best.pop();
    }
    if (limit === Infinity) best.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const matches = this.matchesOf(best, perToken);
    return {
      total: count,
      hits: best.map((d, h) => ({ id: ids[d]!, score: values[d]!, terms: Object.keys(matches[h]!), match: matches[h]!, doc: this.docAt(d) })),
    };
  }

  /**
   * For each of the returned documents, the terms that matched and in which fields: worked out
   * only for those. A term's postings are scanned once for all of them, or binary-searched per
   * document when its list is long (a common word), whichever reads fewer postings.
   */
  private matchesOf(best: readonly number[], perToken: readonly TokenScores[]): Array<Record<string, string[]>> {
    const matches = best.map((): Record<string, string[]> => ({}));
    if (best.length === 0) return matches;
    // slots[d] = 1 + the hit number of document d (0: not a hit); cleared before returning.
    const slots = (this.slots ??= new Int32Array(this.size));
    best.forEach((d, h) => (slots[d] = h + 1));
    const n = slots.length;
    const record = (h: number, term: string, field: string): void => {
      const into = (matches[h]![term] ??= []);
      if (!into.includes(field)) into.push(field);
    };
    const add = (m: Matching, hits: TermHits, counts: (d: number) => boolean): void => {
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
            if (h >= 0 && counted[h]) record(h, term, m.label ?? ix.fieldNames[ix.fields ? ix.fields[i]! : 0]!);
          }
        } else {
          for (const h of wanted) for (const f of ix.fieldsOf(t, best[h]!)) record(h, term, m.label ?? f);
        }
      }
    };
    for (const t of perToken) {
      for (const [m, ih] of [[this.meta, t.meta], [this.body, t.body]] as const) {
        if (!m || !ih) continue;
        const { whole, parts } = ih;
        if (whole) add(m, whole, (d) => whole.scores.values[d]! > 0);
        if (parts.length > 0) for (const p of parts) add(m, p, (d) => parts.every((q) => q.scores.values[d]! > 0));
      }
    }
    for (const d of best) slots[d] = 0;
    return matches;
  }

  private docAt(d: number): SearchDoc {
    return { id: this.meta.index.ids[d]!, ...this.meta.index.stored[d] } as SearchDoc;
  }
}
