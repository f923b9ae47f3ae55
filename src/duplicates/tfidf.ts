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

/**
 * Every pair (i < j) whose cosine similarity is at least `threshold`. Walks an inverted index
 * in typed arrays, so only documents that share a term are compared, and each pair's dot
 * product is accumulated once (from the lower-numbered document).
 */
export function similarPairs(
  vectors: ReadonlyArray<Map<number, number>>,
  threshold: number,
): Array<{ i: number; j: number; similarity: number }> {
  // Postings per term, in document order: docs[t][k] holds weight weights[t][k].
  const df = new Map<number, number>();
  for (const vec of vectors) for (const term of vec.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const docs = new Map<number, Int32Array>();
  const weights = new Map<number, Float64Array>();
  const fill = new Map<number, number>();
  for (const [term, count] of df) {
    docs.set(term, new Int32Array(count));
    weights.set(term, new Float64Array(count));
    fill.set(term, 0);
  }
  vectors.forEach((vec, doc) => {
    for (const [term, w] of vec) {
      const k = fill.get(term)!;
      docs.get(term)![k] = doc;
      weights.get(term)![k] = w;
      fill.set(term, k + 1);
    }
  });

  const out: Array<{ i: number; j: number; similarity: number }> = [];
  const scores = new Float64Array(vectors.length);
  const touched: number[] = [];
  // cursor[term] is where document i sits in that term's postings while i is processed.
  const cursor = new Map<number, number>();
  vectors.forEach((vec, i) => {
    for (const [term, w] of vec) {
      const at = cursor.get(term) ?? 0;
      cursor.set(term, at + 1);
      const d = docs.get(term)!;
      const ws = weights.get(term)!;
      for (let k = at + 1; k < d.length; k++) {
        const j = d[k]!;
        if (scores[j] === 0) touched.push(j);
        scores[j] = scores[j]! + w * ws[k]!;
      }
    }
    for (const j of touched) {
      // Rounding can push identical documents a hair above 1.
      const similarity = Math.min(1, scores[j]!);
      if (similarity >= threshold) out.push({ i, j, similarity });
      scores[j] = 0;
    }
    touched.length = 0;
  });
  return out.sort((x, y) => x.i - y.i || x.j - y.j);
}
