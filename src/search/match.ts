/**
 * Query evaluation over one index (./term-index.ts): a query token is expanded to index terms
 * (exact, prefix, typo), then scored per document exactly as MiniSearch scores it: BM25+ per
 * field with its boosts, its weights for prefix and fuzzy expansions, and `whole OR (part AND
 * part …)` for a token with word parts. Browser-safe.
 */
import type { Scores } from './scores.ts';
import type { Expansion, TermIndex } from './term-index.ts';
import { tokenizeText } from './text.ts';

/** MiniSearch's weights for prefix and fuzzy expansions, and its BM25+ parameters. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

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

export function matching(index: TermIndex, how: Omit<Matching, 'index'>): Matching {
  return { index, ...how };
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

/** A token's terms in one index, expanded but not yet scored, and how many postings scoring reads. */
export interface TokenPlan {
  m: Matching;
  whole: Expansion[] | undefined;
  /** One list per word part, or none when some part is not a term at all (a stop word, say). */
  parts: Expansion[][];
  postings: number;
}

export function planToken(m: Matching, q: TokenQuery): TokenPlan {
  const expand = (raw: string): Expansion[] | undefined => {
    const term = m.normalize(raw);
    return term === undefined ? undefined : m.index.expand(term, m.prefix(term), m.fuzzy(term));
  };
  const whole = expand(q.whole);
  let parts: Expansion[][] = [];
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
  for (const list of [whole ?? [], ...parts]) for (const e of list) postings += offsets[e.term + 1]! - offsets[e.term]!;
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

/** One query token over both indexes: its score per document is metadata + `bodyWeight` × body. */
export class TokenScores {
  readonly meta: IndexHits;
  readonly body: IndexHits | undefined;
  readonly bodyWeight: number;

  constructor(meta: IndexHits, body: IndexHits | undefined, bodyWeight: number) {
    this.meta = meta;
    this.body = body;
    this.bodyWeight = bodyWeight;
  }

  /** Sets mask[d] = 1 for every document the token matches. */
  mark(mask: Uint8Array): void {
    for (const { docs, count } of [this.meta.scores, ...(this.body ? [this.body.scores] : [])]) for (let i = 0; i < count; i++) mask[docs[i]!] = 1;
  }

  /** At least the number of documents the token matches, and at most twice that. */
  get size(): number {
    return this.meta.scores.count + (this.body?.scores.count ?? 0);
  }
}

/**
 * Adds each document's summed score over `tokens` to `total`: with `all`, only the documents
 * every token matches (they are among the smallest token's), else every document any matches.
 * Written as plain loops over the score arrays: this visits thousands of documents per query.
 */
export function sumTokens(tokens: readonly TokenScores[], total: Scores, all: boolean): void {
  const k = tokens.length;
  const meta = tokens.map((t) => t.meta.scores.values);
  const body = tokens.map((t) => t.body?.scores.values);
  const weight = tokens.map((t) => t.bodyWeight);
  /** The summed score of d; 0 when `all` and some token does not match it. */
  const score = (d: number): number => {
    let s = 0;
    for (let j = 0; j < k; j++) {
      const b = body[j];
      const v = b === undefined ? meta[j]![d]! : meta[j]![d]! + b[d]! * weight[j]!;
      if (v === 0 && all) return 0;
      s += v;
    }
    return s;
  };
  const visit = (t: TokenScores): void => {
    const m = t.meta.scores;
    for (let i = 0; i < m.count; i++) {
      const d = m.docs[i]!;
      if (total.values[d] !== 0) continue; // another token listed it
      const s = score(d);
      if (s > 0) total.add(d, s);
    }
    if (!t.body) return;
    const b = t.body.scores;
    for (let i = 0; i < b.count; i++) {
      const d = b.docs[i]!;
      if (m.values[d] !== 0 || total.values[d] !== 0) continue;
      const s = score(d);
      if (s > 0) total.add(d, s);
    }
  };
  if (all) visit(tokens.reduce((a, b) => (b.size < a.size ? b : a)));
  else tokens.forEach(visit);
}

function matchTerm(m: Matching, expansions: Expansion[], scores: Scores, only: Uint8Array | undefined): TermHits {
  const ix = m.index;
  const nf = ix.fieldNames.length;
  const { offsets, fields, docs, freqs } = ix;
  const { fieldLength, averageFieldLength } = ix;
  // The hot loop works on locals: this runs once per posting, tens of thousands per query.
  const { values, docs: list } = scores;
  let count = scores.count;
  const n = values.length;
  for (const e of expansions) {
    const len = ix.terms[e.term]!.length;
    const weight = e.kind === 'exact' ? 1 : e.kind === 'prefix' ? (PREFIX_WEIGHT * len) / (len + 0.3 * e.distance) : (FUZZY_WEIGHT * len) / (len + e.distance);
    const end = offsets[e.term + 1]!;
    let i = offsets[e.term]!;
    while (i < end) {
      // One run of postings per field, each with its own document frequency.
      const f = fields ? fields[i]! : 0;
      let runEnd = fields ? i + 1 : end;
      while (runEnd < end && fields![runEnd] === f) runEnd++;
      const matching = runEnd - i;
      const idf = Math.log(1 + (ix.documentCount - matching + 0.5) / (matching + 0.5));
      const scale = weight * (m.boosts[f] ?? 1) * idf;
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
  return { terms: expansions.map((e) => e.term), scores };
}

/** The scores with the fewest documents. */
function shortest(all: readonly Scores[]): Scores {
  return all.reduce((a, b) => (b.count < a.count ? b : a));
}
