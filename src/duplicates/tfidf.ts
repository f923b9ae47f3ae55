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

/** One sparse vector per document: term id → weight, L2-normalised. */
export function tfidfVectors(docs: readonly string[][]): Array<Map<number, number>> {
  const ids = new Map<string, number>();
  const df: number[] = [];
  const counts = docs.map((tokens) => {
    const tf = new Map<number, number>();
    for (const token of tokens) {
      let id = ids.get(token);
      if (id === undefined) {
        id = ids.size;
        ids.set(token, id);
        df.push(0);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    for (const id of tf.keys()) df[id]!++;
    return tf;
  });
  const n = docs.length;
  return counts.map((tf) => {
    const vec = new Map<number, number>();
    let norm = 0;
    for (const [id, count] of tf) {
      const w = (1 + Math.log(count)) * (Math.log((1 + n) / (1 + df[id]!)) + 1);
      vec.set(id, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [id, w] of vec) vec.set(id, w / norm);
    return vec;
  });
}

/** Bounds are compared with this much room, so float rounding never drops a pair. */
const MARGIN = 1e-9;

/** Postings per term, in document order: docs[k] holds weight weights[k]. */
interface Postings {
  docs: Int32Array;
  weights: Float64Array;
}

/** Every term's postings, and its largest weight in any document. */
function invertedIndex(vectors: ReadonlyArray<Map<number, number>>): {
  postings: Map<number, Postings>;
  df: Map<number, number>;
  maxWeight: Map<number, number>;
} {
  const df = new Map<number, number>();
  const maxWeight = new Map<number, number>();
  for (const vec of vectors)
    for (const [term, w] of vec) {
      df.set(term, (df.get(term) ?? 0) + 1);
      maxWeight.set(term, Math.max(maxWeight.get(term) ?? 0, w));
    }
  const postings = new Map<number, Postings>();
  for (const [term, count] of df) postings.set(term, { docs: new Int32Array(count), weights: new Float64Array(count) });
  const fill = new Map<number, number>();
  vectors.forEach((vec, doc) => {
    for (const [term, w] of vec) {
      const k = fill.get(term) ?? 0;
      const p = postings.get(term)!;
      p.docs[k] = doc;
      p.weights[k] = w;
      fill.set(term, k + 1);
    }
  });
  return { postings, df, maxWeight };
}

/**
 * A document's terms split for candidate search (Bayardo et al., "Scaling up all pairs
 * similarity search"): rare terms first; the common tail is as long as it can be while its share
 * of any cosine stays under `bound` (Cauchy-Schwarz: at most its norm, as every vector has norm
 * 1; and at most each weight times the term's largest weight). A document reaching `bound` with
 * this one shares a term of the head; `rest` bounds what the tail adds.
 */
function splitTerms(
  vec: Map<number, number>,
  df: Map<number, number>,
  maxWeight: Map<number, number>,
  bound: number,
): { head: Array<[number, number]>; rest: number } {
  const terms = [...vec].sort((a, b) => df.get(a[0])! - df.get(b[0])! || a[0] - b[0]);
  let split = terms.length;
  let squares = 0;
  let linear = 0;
  while (split > 0) {
    const [term, w] = terms[split - 1]!;
    const s = squares + w * w;
    const l = linear + w * maxWeight.get(term)!;
    if (Math.min(Math.sqrt(s), l) >= bound) break;
    squares = s;
    linear = l;
    split--;
  }
  return { head: terms.slice(0, split), rest: Math.min(Math.sqrt(squares), linear) };
}

/** The cosine of two vectors, summed in `x`'s term order (the order the pairs' figures were always summed in). */
function cosine(x: Map<number, number>, y: Map<number, number>): number {
  let sum = 0;
  for (const [term, w] of x) {
    const v = y.get(term);
    if (v !== undefined) sum = sum + w * v;
  }
  return sum;
}

/**
 * Every pair (i < j) whose cosine similarity is at least `threshold`. Scores only candidates:
 * documents sharing one of a document's rarer terms (splitTerms), whose partial score plus what
 * the common terms could add still reaches the threshold; each candidate's cosine is then
 * summed exactly, so the figures do not depend on the pruning.
 */
export function similarPairs(
  vectors: ReadonlyArray<Map<number, number>>,
  threshold: number,
): Array<{ i: number; j: number; similarity: number }> {
  const { postings, df, maxWeight } = invertedIndex(vectors);
  const bound = threshold - MARGIN;
  const out: Array<{ i: number; j: number; similarity: number }> = [];
  const partial = new Float64Array(vectors.length);
  const touched: number[] = [];
  // cursor[term] is where document i sits in that term's postings while i is processed.
  const cursor = new Map<number, number>();
  vectors.forEach((vec, i) => {
    const { head, rest } = splitTerms(vec, df, maxWeight, bound);
    for (const [term, w] of head) {
      const { docs, weights } = postings.get(term)!;
      for (let k = (cursor.get(term) ?? 0) + 1; k < docs.length; k++) {
        const j = docs[k]!;
        if (partial[j] === 0) touched.push(j);
        partial[j] = partial[j]! + w * weights[k]!;
      }
    }
    for (const term of vec.keys()) cursor.set(term, (cursor.get(term) ?? 0) + 1);
    for (const j of touched) {
      if (partial[j]! + rest >= bound) {
        // Rounding can push identical documents a hair above 1.
        const similarity = Math.min(1, cosine(vec, vectors[j]!));
        if (similarity >= threshold) out.push({ i, j, similarity });
      }
      partial[j] = 0;
    }
    touched.length = 0;
  });
  return out.sort((x, y) => x.i - y.i || x.j - y.j);
}
