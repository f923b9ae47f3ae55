/**
 * TF-IDF vectors and cosine similarity: the classic text-similarity measure (Salton & Buckley),
 * small enough to read in one sitting and deterministic, so the same catalog always reports
 * the same pairs. Sublinear term frequency (1 + ln tf), smoothed idf (ln((1 + n) / (1 + df)) + 1,
 * as scikit-learn's TfidfVectorizer), L2-normalised vectors, so cosine is a dot product.
 */

/** Common English words that say nothing about what a skill does. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do for from has have how if in into is it its of on or that the their then this to use used ' +
    'uses using was when where which will with you your not no all any each more most other some such than too very'
  ).split(' '),
);

export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t));
}

/** How often each token occurs, in first-seen order. */
export function termCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** One sparse vector per document: term id → weight, L2-normalised. */
export function tfidfVectors(docs: readonly string[][]): Array<Map<number, number>> {
  return tfidfFromCounts(docs.map(termCounts));
}

/**
 * tfidfVectors from each document's token counts (termCounts): term ids are numbered in order
 * of first appearance, document by document, as the tokens would number them.
 */
export function tfidfFromCounts(docs: ReadonlyArray<ReadonlyMap<string, number>>): Array<Map<number, number>> {
  const { docTerms, docWeights } = weighTerms(docs);
  return docTerms.map((terms, d) => {
    const vec = new Map<number, number>();
    terms.forEach((t, k) => vec.set(t, docWeights[d]![k]!));
    return vec;
  });
}

/** A term's TF-IDF weight before normalising: `count` in the document, in `df` of `n` documents. */
const tfidfWeight = (count: number, n: number, df: number): number =>
  (1 + Math.log(count)) * (Math.log((1 + n) / (1 + df)) + 1);

/** A document's TF-IDF vector from its term counts, in their order, L2-normalised. */
function weighted<K>(counts: ReadonlyMap<K, number>, n: number, df: (term: K) => number): Map<K, number> {
  const vec = new Map<K, number>();
  let norm = 0;
  for (const [term, count] of counts) {
    const w = tfidfWeight(count, n, df(term));
    vec.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [term, w] of vec) vec.set(term, w / norm);
  return vec;
}

/** Bounds are compared with this much room, so float rounding never drops a pair. */
const MARGIN = 1e-9;
/**
 * The common tail of a document may add at most this share of the threshold: the rest must come
 * from its rarer terms, so few candidates need an exact cosine (0.9 was fastest on ten public
 * catalogs together, bench/README.md).
 */
const TAIL_SHARE = 0.9;
/**
 * Below this threshold most pairs sharing a word are candidates, and checking each costs more
 * than summing every pair: every pair is scored then.
 */
const PRUNE_FROM = 0.75;

/**
 * The vectors in typed arrays: terms renumbered 0…T-1, each document's terms (in its vector's
 * order) and weights, and per term its postings in document order, document frequency and
 * largest weight.
 */
interface Packed {
  docTerms: Int32Array[];
  docWeights: Float64Array[];
  /** Postings of term t: docs/weights[offsets[t] … offsets[t + 1]). */
  offsets: Int32Array;
  docs: Int32Array;
  weights: Float64Array;
  maxWeight: Float64Array;
  /** Terms ranked rarest first (document frequency, then number): rank → term. */
  byRank: Int32Array;
  rankOf: Int32Array;
}

function pack(vectors: ReadonlyArray<Map<number, number>>): Packed {
  const number = new Map<number, number>();
  const docTerms = vectors.map((vec) =>
    Int32Array.from(vec.keys(), (t) => number.get(t) ?? number.set(t, number.size).get(t)!),
  );
  return packArrays(
    docTerms,
    vectors.map((vec) => Float64Array.from(vec.values())),
    number.size,
  );
}

/**
 * What tfidfFromCounts then pack give, made straight from each document's token counts (the same
 * term numbers and weights), without a Map per document.
 */
function packCounts(docs: ReadonlyArray<ReadonlyMap<string, number>>): Packed {
  const { docTerms, docWeights, count } = weighTerms(docs);
  return packArrays(docTerms, docWeights, count);
}

/**
 * Each document's term numbers (in order of first appearance, document by document) and TF-IDF
 * weights, in its counts' order, normalised as `weighted` does.
 */
function weighTerms(docs: ReadonlyArray<ReadonlyMap<string, number>>): {
  docTerms: Int32Array[];
  docWeights: Float64Array[];
  count: number;
} {
  const ids = new Map<string, number>();
  const df: number[] = [];
  const docTerms = docs.map((counts) => {
    const terms = new Int32Array(counts.size);
    let k = 0;
    for (const token of counts.keys()) {
      let id = ids.get(token);
      if (id === undefined) {
        id = ids.size;
        ids.set(token, id);
        df.push(0);
      }
      terms[k++] = id;
      df[id]!++;
    }
    return terms;
  });
  const n = docs.length;
  const docWeights = docs.map((counts, d) => {
    const terms = docTerms[d]!;
    const weights = new Float64Array(terms.length);
    let norm = 0;
    let k = 0;
    for (const count of counts.values()) {
      const w = tfidfWeight(count, n, df[terms[k]!]!);
      weights[k++] = w;
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let j = 0; j < weights.length; j++) weights[j] = weights[j]! / norm;
    return weights;
  });
  return { docTerms, docWeights, count: ids.size };
}

/**
 * The cosine of the first document's TF-IDF vector with each other document's, of the vectors
 * tfidfFromCounts gives, each summed as a sparse dot product over the smaller vector of the two
 * (the second when they are the same size) in its order: the same figures, without a Map per document.
 */
export function cosinesWithFirst(docs: ReadonlyArray<ReadonlyMap<string, number>>): number[] {
  const { docTerms, docWeights, count } = weighTerms(docs);
  const first = docTerms[0] ?? new Int32Array(0);
  const firstWeights = docWeights[0] ?? new Float64Array(0);
  /** The first document's weight of each term; 0 where it does not hold it (every weight held is above 0). */
  const ofFirst = new Float64Array(count);
  first.forEach((t, k) => (ofFirst[t] = firstWeights[k]!));
  const ofOther = new Float64Array(count);
  const out: number[] = [];
  for (let d = 1; d < docTerms.length; d++) {
    const terms = docTerms[d]!;
    const weights = docWeights[d]!;
    let sum = 0;
    if (first.length < terms.length) {
      terms.forEach((t, k) => (ofOther[t] = weights[k]!));
      for (let k = 0; k < first.length; k++) sum += firstWeights[k]! * ofOther[first[k]!]!;
      terms.forEach((t) => (ofOther[t] = 0));
    } else {
      for (let k = 0; k < terms.length; k++) sum += weights[k]! * ofFirst[terms[k]!]!;
    }
    out.push(sum);
  }
  return out;
}

/** Postings, document frequencies, largest weights and ranks of `count` terms from each document's terms and weights. */
function packArrays(docTerms: Int32Array[], docWeights: Float64Array[], count: number): Packed {
  const df = new Int32Array(count);
  const maxWeight = new Float64Array(count);
  docTerms.forEach((terms, d) =>
    terms.forEach((t, k) => {
      df[t]!++;
      maxWeight[t] = Math.max(maxWeight[t]!, docWeights[d]![k]!);
    }),
  );
  const offsets = new Int32Array(count + 1);
  for (let t = 0; t < count; t++) offsets[t + 1] = offsets[t]! + df[t]!;
  const fill = offsets.slice(0, count);
  const docs = new Int32Array(offsets[count]!);
  const weights = new Float64Array(offsets[count]!);
  docTerms.forEach((terms, d) =>
    terms.forEach((t, k) => {
      docs[fill[t]!] = d;
      weights[fill[t]!++] = docWeights[d]![k]!;
    }),
  );
  const byRank = Int32Array.from({ length: count }, (_, t) => t).sort((a, b) => df[a]! - df[b]! || a - b);
  const rankOf = new Int32Array(count);
  byRank.forEach((t, r) => (rankOf[t] = r));
  return { docTerms, docWeights, offsets, docs, weights, maxWeight, byRank, rankOf };
}

/**
 * A document's terms split for candidate search (Bayardo et al., "Scaling up all pairs
 * similarity search"): rarest first, the common tail as long as it can be while its share of
 * any cosine stays under `bound` (below the threshold) (at most its norm, as every vector has norm 1 at most; and at
 * most each weight times the term's largest weight). A document reaching `bound` with this one
 * shares a term of the head (positions into the document's arrays); `rest` bounds what the
 * tail adds.
 */
function splitTerms(p: Packed, d: number, bound: number, position: Int32Array): { head: Int32Array; rest: number } {
  const terms = p.docTerms[d]!;
  terms.forEach((t, k) => (position[t] = k));
  // Plain loops: Int32Array.from with a mapping function allocates an iterator result per term.
  const ranks = new Int32Array(terms.length);
  for (let k = 0; k < terms.length; k++) ranks[k] = p.rankOf[terms[k]!]!;
  ranks.sort();
  let split = ranks.length;
  let squares = 0;
  let linear = 0;
  while (split > 0) {
    const t = p.byRank[ranks[split - 1]!]!;
    const w = p.docWeights[d]![position[t]!]!;
    const s = squares + w * w;
    const l = linear + w * p.maxWeight[t]!;
    if (Math.min(Math.sqrt(s), l) >= bound) break;
    squares = s;
    linear = l;
    split--;
  }
  const head = new Int32Array(split);
  for (let k = 0; k < split; k++) head[k] = position[p.byRank[ranks[k]!]!]!;
  return { head, rest: Math.min(Math.sqrt(squares), linear) };
}

/**
 * Every pair (i < j) whose cosine similarity is at least `threshold`. Scores only candidates:
 * documents sharing one of a document's rarer terms (splitTerms), whose partial score plus what
 * the common terms could add still reaches the threshold. Each candidate's cosine is then summed
 * exactly as scoring every pair sums it (term by term in the lower-numbered document's order), so
 * the figures do not depend on the pruning.
 */
export function similarPairs(
  vectors: ReadonlyArray<Map<number, number>>,
  threshold: number,
): Array<{ i: number; j: number; similarity: number }> {
  return pairsOf(pack(vectors), threshold);
}

/** similarPairs of the packed vectors. */
function pairsOf(p: Packed, threshold: number): Array<{ i: number; j: number; similarity: number }> {
  const n = p.docTerms.length;
  const bound = threshold - MARGIN;
  const out: Array<{ i: number; j: number; similarity: number }> = [];
  const partial = new Float64Array(n);
  const touched: number[] = [];
  // cursor[t]: how many documents before i have term t (where i sits in its postings).
  const cursor = new Int32Array(p.maxWeight.length);
  const position = new Int32Array(p.maxWeight.length);
  const exact = new ExactCosine(p);
  const prune = threshold >= PRUNE_FROM;
  // Index loops throughout: for…of over a typed array makes an iterator result per element until optimised.
  for (let i = 0; i < n; i++) {
    const terms = p.docTerms[i]!;
    const own = p.docWeights[i]!;
    const split = prune ? splitTerms(p, i, bound * TAIL_SHARE, position) : undefined;
    const rest = split?.rest ?? 0;
    const heads = split ? split.head.length : terms.length;
    for (let h = 0; h < heads; h++) {
      const k = split ? split.head[h]! : h;
      addPostings(p, terms[k]!, cursor, own[k]!, partial, touched);
    }
    for (let k = 0; k < terms.length; k++) cursor[terms[k]!]!++;
    if (prune) exact.from(i);
    for (let x = 0; x < touched.length; x++) {
      const j = touched[x]!;
      if (partial[j]! + rest >= bound) {
        // Rounding can push identical documents a hair above 1.
        // Scoring every pair sums in document i's term order already.
        const similarity = Math.min(1, prune ? exact.with(j) : partial[j]!);
        if (similarity >= threshold) out.push({ i, j, similarity });
      }
      partial[j] = 0;
    }
    if (prune) exact.done();
    touched.length = 0;
  }
  return out.sort((x, y) => x.i - y.i || x.j - y.j);
}

/**
 * Adds `w` times each weight of term `t`'s postings after the current document to `partial`
 * (`touched` lists the documents reached). A function of its own: called for every term of every
 * document, it is optimised early, where the scan's loop (run once) would add its doubles unoptimised.
 */
function addPostings(
  p: Packed,
  t: number,
  cursor: Int32Array,
  w: number,
  partial: Float64Array,
  touched: number[],
): void {
  for (let at = p.offsets[t]! + cursor[t]! + 1; at < p.offsets[t + 1]!; at++) {
    const j = p.docs[at]!;
    if (partial[j] === 0) touched.push(j);
    partial[j] = partial[j]! + w * p.weights[at]!;
  }
}

/** Cosines of one document with others, each summed term by term in that document's order. */
class ExactCosine {
  private readonly p: Packed;
  /** positionOf[t]: where term t sits in the current document, -1 when it is not there. */
  private readonly positionOf: Int32Array;
  private readonly products: Float64Array;
  private readonly shared: Int32Array;
  private current = -1;

  constructor(p: Packed) {
    this.p = p;
    this.positionOf = new Int32Array(p.maxWeight.length).fill(-1);
    const longest = Math.max(0, ...p.docTerms.map((t) => t.length));
    this.products = new Float64Array(longest);
    this.shared = new Int32Array(longest);
  }

  from(d: number): void {
    this.current = d;
    this.p.docTerms[d]!.forEach((t, k) => (this.positionOf[t] = k));
  }

  with(j: number): number {
    const own = this.p.docWeights[this.current]!;
    const terms = this.p.docTerms[j]!;
    const weights = this.p.docWeights[j]!;
    let n = 0;
    for (let k = 0; k < terms.length; k++) {
      const at = this.positionOf[terms[k]!]!;
      if (at < 0) continue;
      this.products[at] = own[at]! * weights[k]!;
      this.shared[n++] = at;
    }
    const order = this.shared.subarray(0, n).sort();
    let sum = 0;
    for (let x = 0; x < n; x++) sum = sum + this.products[order[x]!]!;
    return sum;
  }

  done(): void {
    const terms = this.p.docTerms[this.current]!;
    for (let k = 0; k < terms.length; k++) this.positionOf[terms[k]!] = -1;
  }
}

/**
 * One near-duplicate scan: its documents' token counts, their document frequencies, the pairs it
 * found, and each document's vector once made. Kept for the next scan by {@link scanPairs}.
 */
export interface PairScan {
  threshold: number;
  docs: ReadonlyArray<ReadonlyMap<string, number>>;
  df: ReadonlyMap<string, number>;
  pairs: Array<{ i: number; j: number; similarity: number }>;
  /** Token → weight, made when a later scan needed it. */
  vectors: Array<Map<string, number> | undefined>;
}

/**
 * Rescoring a document costs a cosine with every other one: past this many documents to rescore
 * (at least 8, else 5% of them), scanning from nothing with candidate pruning costs less (an
 * added word held by a quarter of 417 skills took 357 ms rescored, 151 ms from nothing).
 */
const rescoreAtMost = (docs: number): number => Math.max(8, Math.floor(docs * 0.05));

/**
 * similarPairs over documents given by their token counts, rescoring only what changed since
 * `last`: a document whose counts are not the same object as before, or that holds a term whose
 * document frequency changed, gets its pairs scored again (every other document's vector, and the
 * pairs between two of them, are what they were). The same pairs and figures as a scan from
 * nothing (each cosine summed term by term in the lower-numbered document's order).
 */
export function scanPairs(
  docs: ReadonlyArray<ReadonlyMap<string, number>>,
  threshold: number,
  last?: PairScan,
): PairScan {
  const comparable = last && last.threshold === threshold && last.docs.length === docs.length;
  const changed = comparable ? docs.flatMap((d, i) => (d === last.docs[i] ? [] : [i])) : [];
  const df = comparable ? updatedFrequencies(last, docs, changed) : documentFrequencies(docs);
  const affected = comparable ? affectedDocs(last, docs, changed, df) : undefined;
  if (!affected || affected.size > rescoreAtMost(docs.length))
    return { threshold, docs, df, pairs: pairsOf(packCounts(docs), threshold), vectors: [] };
  const vectors = docs.map((d, i) => (affected.has(i) ? undefined : last!.vectors[i]));
  const vector = (i: number): Map<string, number> => (vectors[i] ??= tokenVector(docs[i]!, docs.length, df));
  const pairs = last!.pairs.filter((p) => !affected.has(p.i) && !affected.has(p.j));
  for (const a of affected) {
    for (let b = 0; b < docs.length; b++) {
      if (b === a || (affected.has(b) && b < a)) continue;
      const [i, j] = a < b ? [a, b] : [b, a];
      const similarity = cosine(vector(i), vector(j));
      if (similarity !== undefined && similarity >= threshold) pairs.push({ i, j, similarity });
    }
  }
  return { threshold, docs, df, pairs: pairs.sort((x, y) => x.i - y.i || x.j - y.j), vectors };
}

function documentFrequencies(docs: ReadonlyArray<ReadonlyMap<string, number>>): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const token of d.keys()) df.set(token, (df.get(token) ?? 0) + 1);
  return df;
}

function updatedFrequencies(
  last: PairScan,
  docs: ReadonlyArray<ReadonlyMap<string, number>>,
  changed: readonly number[],
): Map<string, number> {
  const df = new Map(last.df);
  for (const i of changed) {
    for (const token of last.docs[i]!.keys()) df.set(token, df.get(token)! - 1);
    for (const token of docs[i]!.keys()) df.set(token, (df.get(token) ?? 0) + 1);
  }
  for (const [token, n] of df) if (n === 0) df.delete(token);
  return df;
}

/** The changed documents and those holding a term whose document frequency changed. */
function affectedDocs(
  last: PairScan,
  docs: ReadonlyArray<ReadonlyMap<string, number>>,
  changed: readonly number[],
  df: ReadonlyMap<string, number>,
): Set<number> {
  const moved = new Set<string>();
  for (const i of changed)
    for (const token of [...last.docs[i]!.keys(), ...docs[i]!.keys()])
      if (df.get(token) !== last.df.get(token)) moved.add(token);
  const affected = new Set(changed);
  if (moved.size > 0)
    docs.forEach((d, i) => {
      for (const token of moved) if (d.has(token)) return void affected.add(i);
    });
  return affected;
}

/** A document's TF-IDF vector by token, with the weights and in the order tfidfFromCounts gives. */
const tokenVector = (counts: ReadonlyMap<string, number>, n: number, df: ReadonlyMap<string, number>) =>
  weighted(counts, n, (token) => df.get(token)!);

/** The cosine of two vectors summed in the first one's order; undefined when they share no term. */
function cosine(first: ReadonlyMap<string, number>, second: ReadonlyMap<string, number>): number | undefined {
  let sum = 0;
  let shared = false;
  for (const [token, w] of first) {
    const v = second.get(token);
    if (v === undefined) continue;
    sum = sum + w * v;
    shared = true;
  }
  // Rounding can push identical documents a hair above 1.
  return shared ? Math.min(1, sum) : undefined;
}
