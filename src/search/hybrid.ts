/**
 * The hybrid ranking: the word score (BM25+ × coverage, ./index.ts) and closeness in meaning
 * (static embeddings, src/semantic) combined by one formula, shared by `skills_search`, the site's
 * search and `best_skill`'s candidates. Browser-safe, and free of the embedding model: the caller
 * hands over a `MeaningIndex` (the MCP server builds one from the feed's skill vectors, the site
 * the same from the same files), so the server and the browser compute the same numbers.
 *
 * ```
 * fused = word score / best word score of the query  +  MEANING_WEIGHT × closeness
 * ```
 *
 * Closeness is a z-score (standard deviations above the catalog's mean cosine), so the weight
 * means the same in every catalog; the word score is scaled so the query's best word match is 1.
 * Skills sharing no word with the query join when their closeness reaches MEANING_ALONE (at most
 * MEANING_ALONE_MAX of them). Queries of fewer than MEANING_MIN_WORDS meaningful words are
 * keywords: words rank them, as before. Weighted fusion was measured against reciprocal rank
 * fusion on the routing sets' development half (docs/design/search.md).
 */

/** Closeness in meaning of a query to every skill of a catalog. */
export interface MeaningIndex {
  /** The skill id of each slot of what `closeness` returns. */
  readonly slotIds: readonly string[];
  /** Standard deviations above the catalog's mean closeness, by slot. */
  closeness(query: string): Float32Array;
}

/** How much a standard deviation of closeness counts against the best word match (= 1). */
export const MEANING_WEIGHT = 0.3;
/** Queries with at least this many meaningful words are ranked by meaning too. */
export const MEANING_MIN_WORDS = 3;
/** A skill sharing no word with the query is listed when this close (standard deviations)… */
export const MEANING_ALONE = 2;
/** …and at most this many such skills, the closest. */
export const MEANING_ALONE_MAX = 10;

/** The fused score of a skill: its word score over the query's best, plus weight × closeness. */
export function fusedScore(
  wordScore: number,
  bestWordScore: number,
  closeness: number,
  weight = MEANING_WEIGHT,
): number {
  return (bestWordScore > 0 ? wordScore / bestWordScore : 0) + weight * closeness;
}

/** The word score a fused score came from (what a hit reports as `wordScore`). */
export function wordScoreOf(fused: number, bestWordScore: number, closeness: number, weight = MEANING_WEIGHT): number {
  return Math.max(0, (fused - weight * closeness) * bestWordScore);
}

/** Whether a query of these meaningful words is ranked by meaning as well as words. */
export function usesMeaning(wordCount: number): boolean {
  return wordCount >= MEANING_MIN_WORDS;
}

/**
 * Reciprocal rank fusion (k = 60), kept for the measurement that chose weighted fusion
 * (`npm run bench:routing -- --fusion rrf`): 1 / (k + rank by words) + 1 / (k + rank by meaning).
 */
export function rrfScore(wordRank: number | undefined, meaningRank: number, k = 60): number {
  return (wordRank === undefined ? 0 : 1 / (k + wordRank)) + 1 / (k + meaningRank);
}

/**
 * Which of the ranked results are strong matches: those scoring at least WEAK_BELOW × the first's.
 * The rest are listed after a "N weaker matches" fold (site) or counted apart (`skills_search`).
 * Scores are the ranking's (fused when meaning ranked the query); results come best first.
 */
export const WEAK_BELOW = 0.25;

export function strongCount(scores: readonly number[], weakBelow = WEAK_BELOW): number {
  const top = scores[0];
  if (top === undefined) return 0;
  if (!(top > 0)) return scores.length;
  let n = 0;
  while (n < scores.length && scores[n]! >= weakBelow * top) n++;
  return n;
}
