/**
 * The duplicate scan scores only candidate pairs (src/duplicates/tfidf.ts, similarPairs): it must
 * report exactly the pairs, and exactly the figures, that scoring every pair sharing a word
 * reports. Compared on generated catalogs (fast-check: a Zipf-like vocabulary, so common words
 * sit in most texts; copies with a few words changed, so pairs sit near every threshold) at
 * thresholds from 0 to 1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosinesWithFirst, scanPairs, similarPairs, termCounts, tfidfVectors } from '../../src/duplicates/tfidf.ts';

/** The scan as it was: every pair sharing a term scored, from the lower-numbered document. */
function everyPair(vectors: ReadonlyArray<Map<number, number>>, threshold: number) {
  const out: Array<{ i: number; j: number; similarity: number }> = [];
  for (let i = 0; i < vectors.length; i++) {
    const scores = new Map<number, number>();
    for (const [term, w] of vectors[i]!)
      for (let j = i + 1; j < vectors.length; j++) {
        const v = vectors[j]!.get(term);
        if (v !== undefined) scores.set(j, (scores.get(j) ?? 0) + w * v);
      }
    for (const [j, score] of scores) {
      const similarity = Math.min(1, score);
      if (similarity >= threshold) out.push({ i, j, similarity });
    }
  }
  return out.sort((x, y) => x.i - y.i || x.j - y.j);
}

const VOCABULARY = Array.from({ length: 60 }, (_, i) => `w${i}`);
/** Word k with probability about 1/(k + 1): a few words in most texts, most words in few. */
const wordArb = fc.integer({ min: 0, max: 3_599 }).map((n) => VOCABULARY[Math.floor(Math.sqrt(n))]!);
const textArb = fc.array(wordArb, { minLength: 0, maxLength: 40 });
const catalogArb = fc
  .tuple(
    fc.array(textArb, { minLength: 2, maxLength: 30 }),
    fc.array(fc.tuple(fc.nat(), fc.array(fc.tuple(fc.nat(), wordArb), { maxLength: 4 })), { maxLength: 10 }),
  )
  .map(([texts, copies]) => [
    ...texts,
    ...copies.map(([from, edits]) => {
      const copy = [...texts[from % texts.length]!];
      for (const [at, word] of edits) if (copy.length > 0) copy[at % copy.length] = word;
      return copy;
    }),
  ]);
const thresholdArb = fc.constantFrom(0, 0.3, 0.5, 0.7, 0.85, 0.9, 0.95, 0.99, 1);

describe('similarPairs', () => {
  it('reports the same pairs with the same figures as scoring every pair', () => {
    fc.assert(
      fc.property(catalogArb, thresholdArb, (texts, threshold) => {
        const vectors = tfidfVectors(texts);
        expect(similarPairs(vectors, threshold)).toStrictEqual(everyPair(vectors, threshold));
      }),
      { numRuns: 400 },
    );
  });
});

describe('scanPairs', () => {
  it('rescoring what changed since the last scan gives what a scan from nothing gives', () => {
    const counts = new Map<string, Map<string, number>>();
    // The same text gives the same counts object, as the build's kept counts do.
    const countsOf = (words: string[]): Map<string, number> => {
      const key = words.join(' ');
      if (!counts.has(key)) counts.set(key, termCounts(words));
      return counts.get(key)!;
    };
    const editsArb = fc.array(fc.tuple(fc.nat(), textArb), { minLength: 1, maxLength: 6 });
    let rescored = 0;
    fc.assert(
      fc.property(catalogArb, editsArb, thresholdArb, (texts, edits, threshold) => {
        let scan = scanPairs(texts.map(countsOf), threshold);
        const now = [...texts];
        // One edit at a time, as a rebuild after each saved file: each scan starts from the last.
        for (const [at, text] of edits) {
          now[at % now.length] = text;
          scan = scanPairs(now.map(countsOf), threshold, scan);
          expect(scan.pairs).toStrictEqual(similarPairs(tfidfVectors(now), threshold));
          // Vectors are made only when a scan rescored part of the catalog.
          if (scan.vectors.length > 0) rescored++;
        }
      }),
      { numRuns: 300 },
    );
    expect(rescored).toBeGreaterThan(20);
  });
});

describe('cosinesWithFirst', () => {
  /** The sum as it was: over the smaller of the two vectors (the second of two of one size), in its order. */
  const sparseDot = (a: Map<number, number>, b: Map<number, number>): number => {
    const [small, large] = a.size < b.size ? [a, b] : [b, a];
    let sum = 0;
    for (const [term, w] of small) sum += w * (large.get(term) ?? 0);
    return sum;
  };

  it('gives the figures of the TF-IDF vectors dotted over the smaller one', () => {
    fc.assert(
      fc.property(catalogArb, (texts) => {
        const vectors = tfidfVectors(texts);
        const expected = vectors.slice(1).map((v) => sparseDot(vectors[0]!, v));
        expect(cosinesWithFirst(texts.map(termCounts))).toStrictEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
