/**
 * Query evaluation over one index (./term-index.ts): a query token is expanded to index terms
 * (exact, prefix, typo), then scored per document exactly as MiniSearch scores it: BM25+ per
 * field with its boosts, its weights for prefix and fuzzy expansions, and `whole OR (part AND
 * part …)` for a token with word parts. Browser-safe.
 */
import type { Scores } from './scores.ts';
import type { TermIndex } from './term-index.ts';
import { tokenizeText } from './text.ts';

/** MiniSearch's weights for prefix and fuzzy expansions, and its BM25+ parameters. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/**
 * BM25's idf: how telling a term is that `documents` of `documentCount` documents hold (one
 * every document has weighs about 0, one none has weighs most). Also what routing weighs a
 * request word by (src/route).
 */
export function idf(documents: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documents + 0.5) / (documents + 0.5));
}

/** How one index is queried. */
export interface Matching {
  index: TermIndex;
  /** Boost by field number. */
  boosts: number[];
  normalize: (term: string) => string | undefined;
  prefix: (term: string) => boolean;
  fuzzy: (term: string) => number;
  /** Field name reported in matches (`body` for every field of the body index). */
  label?: string;
}

/** A query token: the whole token, or all of its word parts (`scripts/extract.py` or scripts + extract + py). */
export interface TokenQuery {
  whole: string;
  parts: string[];
}

export function tokenQuery(token: string): TokenQuery | undefined {
  const parts = tokenizeText(token);
  if (parts.length === 0) return undefined;
  const whole = token.replace(/^[^\p{L}\p{N}/]+|[^\p{L}\p{N}]+$/gu, '');
  return { whole, parts: parts.filter((p) => p !== whole) };
}

/** The index terms one query term matched, with their weights: 1 when exact, MiniSearch's prefix and fuzzy weights otherwise. */
export interface Expansions {
  terms: number[];
  weights: number[];
}

/** A token's terms in one index, expanded but not yet scored, and how many postings scoring reads. */
export interface TokenPlan {
  m: Matching;
  whole: Expansions | undefined;
  /** One list per word part, or none when some part is not a term at all (a stop word, say). */
  parts: Expansions[];
  postings: number;
}

/**
 * A token's expansions: prefix matches only where `prefix` is set (the word being typed), typo
 * matches only for a term the index does not have (a word the catalog uses is not a typo: "test"
 * must not also match "text" and "best").
 */
export function planToken(m: Matching, q: TokenQuery, prefix: boolean): TokenPlan {
  const expand = (raw: string): Expansions | undefined => {
    const term = m.normalize(raw);
    if (term === undefined) return undefined;
    const out: Expansions = { terms: [], weights: [] };
    const typos = m.index.find(term) < 0 ? m.fuzzy(term) : 0;
    m.index.expand(term, prefix && m.prefix(term), typos, (t, kind, distance) => {
      const len = m.index.terms[t]!.length;
      out.terms.push(t);
      out.weights.push(
        kind === 'exact'
          ? 1
          : kind === 'prefix'
            ? (PREFIX_WEIGHT * len) / (len + 0.3 * distance)
            : (FUZZY_WEIGHT * len) / (len + distance),
      );
    });
    return out;
  };
  const whole = expand(q.whole);
  let parts: Expansions[] = [];
  for (const p of q.parts) {
    const expansions = expand(p);
    if (!expansions) {
      parts = [];
      break;
    }
    parts.push(expansions);
  }
  const { offsets } = m.index;
  let postings = 0;
  for (const { terms } of [...(whole ? [whole] : []), ...parts])
    for (const t of terms) postings += offsets[t + 1]! - offsets[t]!;
  return { m, whole, parts, postings };
}

/** What one query term matched in one index: its expanded terms and each document's score. */
export interface TermHits {
  terms: number[];
  scores: Scores;
}

/** One token in one index: the whole token's hits, its parts' hits, and the token's score per document. */
export interface IndexHits {
  whole: TermHits | undefined;
  parts: TermHits[];
  scores: Scores;
}

/**
 * Scores one token's plan. As MiniSearch does, a match of the whole token and all its parts
 * counts (1 + parts) times. With `only`, just the documents marked there (1) are scored (the others
 * cannot be results).
 */
export function matchToken(plan: TokenPlan, take: () => Scores, only?: Uint8Array): IndexHits {
  const whole = plan.whole && matchTerm(plan.m, plan.whole, take(), only);
  const parts = plan.parts.map((expansions) => matchTerm(plan.m, expansions, take(), only));
  const k = parts.length;
  // A plain word (the usual token) has no parts: its score is the whole term's.
  if (k === 0) return { whole, parts, scores: whole ? whole.scores : take() };
  const scores = take();
  /** The sum of the parts' scores when every part matches `d`, else 0. */
  const partScore = (d: number): number => {
    let s = 0;
    for (let j = 0; j < k; j++) {
      const v = parts[j]!.scores.values[d]!;
      if (v === 0) return 0;
      s += v;
    }
    return s;
  };
  if (whole) {
    const { values: w, docs, count } = whole.scores;
    for (let i = 0; i < count; i++) {
      const d = docs[i]!;
      const s = partScore(d);
      scores.add(d, s > 0 ? (w[d]! + s) * (1 + k) : w[d]!);
    }
  }
  // A document all parts match is in the shortest part's list.
  const { docs, count } = shortest(parts.map((p) => p.scores));
  for (let i = 0; i < count; i++) {
    const d = docs[i]!;
    if (whole && whole.scores.values[d]! > 0) continue; // counted above
    const s = partScore(d);
    if (s > 0) scores.add(d, s * k);
  }
  return { whole, parts, scores };
}

/** One query token over both indexes (see `sumTokens` for how they add up). */
export class TokenScores {
  readonly meta: IndexHits;
  readonly body: IndexHits | undefined;

  constructor(meta: IndexHits, body: IndexHits | undefined) {
    this.meta = meta;
    this.body = body;
  }

  /** Sets mask[d] = 1 for every document the token matches. */
  mark(mask: Uint8Array): void {
    for (const { docs, count } of [this.meta.scores, ...(this.body ? [this.body.scores] : [])])
      for (let i = 0; i < count; i++) mask[docs[i]!] = 1;
  }

  /** Whether the token matches document `d` (in either index). */
  matches(d: number): boolean {
    return this.meta.scores.values[d]! > 0 || (this.body !== undefined && this.body.scores.values[d]! > 0);
  }

  /** How many documents the token matches (in either index, each once). */
  documents(): number {
    let n = this.meta.scores.count;
    if (this.body) {
      const { docs, count } = this.body.scores;
      const meta = this.meta.scores.values;
      for (let i = 0; i < count; i++) if (meta[docs[i]!] === 0) n++;
    }
    return n;
  }

  /** At least the number of documents the token matches, and at most twice that. */
  get size(): number {
    return this.meta.scores.count + (this.body?.scores.count ?? 0);
  }
}

/**
 * Adds each document's summed score over `tokens` to `total` (a token's score is its metadata
 * score + `bodyWeight` × its body score): with `all`, only the documents every token matches
 * (they are among the smallest token's), else every document any matches.
 */
export function sumTokens(tokens: readonly TokenScores[], bodyWeight: number, total: Scores, all: boolean): void {
  const sums: Sums = {
    meta: tokens.map((t) => t.meta.scores.values),
    body: tokens.map((t) => t.body?.scores.values),
    bodyWeight,
    all,
    total,
  };
  for (const t of all ? [tokens.reduce((a, b) => (b.size < a.size ? b : a))] : tokens) {
    addSums(sums, t.meta.scores.docs, t.meta.scores.count, undefined);
    // A document the token matches in both indexes is on both lists: visit it once.
    if (t.body) addSums(sums, t.body.scores.docs, t.body.scores.count, t.meta.scores.values);
  }
}

interface Sums {
  meta: Float64Array[];
  body: Array<Float64Array | undefined>;
  bodyWeight: number;
  all: boolean;
  total: Scores;
}

/**
 * The documents docs[0 .. count - 1] (but those `skip` scored), each once, into `total` with
 * their summed score. One loop without calls: a call returning a double would box it, an
 * allocation per document.
 */
function addSums(
  { meta, body, bodyWeight, all, total }: Sums,
  docs: Int32Array,
  count: number,
  skip: Float64Array | undefined,
): void {
  const k = meta.length;
  const { values, docs: list } = total;
  let n = total.count;
  for (let i = 0; i < count; i++) {
    const d = docs[i]!;
    if (values[d] !== 0 || (skip !== undefined && skip[d] !== 0)) continue;
    let s = 0;
    let j = 0;
    for (; j < k; j++) {
      const b = body[j];
      const v = b === undefined ? meta[j]![d]! : meta[j]![d]! + b[d]! * bodyWeight;
      if (v === 0 && all) break;
      s += v;
    }
    if (j < k || !(s > 0)) continue;
    list[n++] = d;
    values[d] = s;
  }
  total.count = n;
}

function matchTerm(m: Matching, expansions: Expansions, scores: Scores, only: Uint8Array | undefined): TermHits {
  const ix = m.index;
  const nf = ix.fieldNames.length;
  const { offsets, fields, docs, freqs, fieldLength, averageFieldLength } = ix;
  // The hot loop works on locals: this runs once per posting, tens of thousands per query.
  const { values, docs: list } = scores;
  let count = scores.count;
  const n = values.length;
  for (let e = 0; e < expansions.terms.length; e++) {
    const term = expansions.terms[e]!;
    const weight = expansions.weights[e]!;
    const end = offsets[term + 1]!;
    let i = offsets[term]!;
    while (i < end) {
      // One run of postings per field, each with its own document frequency.
      const f = fields ? fields[i]! : 0;
      let runEnd = fields ? i + 1 : end;
      while (runEnd < end && fields![runEnd] === f) runEnd++;
      const matching = runEnd - i;
      const scale = weight * (m.boosts[f] ?? 1) * idf(matching, ix.documentCount);
      // BM25's length normalization k(1 - b + b · length / average), computed per posting from
      // the field length: a table of it per document would be read cold, a miss per posting.
      const perLength = (BM25.k * BM25.b) / averageFieldLength[f]!;
      for (; i < runEnd; i++) {
        const d = docs[i]!;
        // d ≥ n: a body posting of a skill not in the metadata index.
        if (d >= n || (only !== undefined && only[d] === 0)) continue;
        const x = d * nf + f;
        const tf = freqs ? freqs[i]! : 1;
        const v = scale * (BM25.d + (tf * (BM25.k + 1)) / (tf + (BM25.k * (1 - BM25.b) + perLength * fieldLength[x]!)));
        if (values[d] === 0) list[count++] = d;
        values[d]! += v;
      }
    }
  }
  scores.count = count;
  return { terms: expansions.terms, scores };
}

/** The scores with the fewest documents. */
function shortest(all: readonly Scores[]): Scores {
  return all.reduce((a, b) => (b.count < a.count ? b : a));
}
