/**
 * What use teaches the ranking, as small steps applied after the match score (so the score
 * itself, and any change to how it is made, stays separate):
 *
 * - `withOutcomes`: best_skill's candidates are re-ranked by their success rate in use (seed
 *   004's confidence): each score is multiplied by 1 − OUTCOME_PENALTY·(1 − rate), from 0.7 for
 *   a skill that always fails to 1 for one that always works. A close call goes to the skill
 *   that works; a clear lead is kept. Only failures move a score: a skill that works does not
 *   raise its own score, which would shrink the lead of a better match above it and make the
 *   rule say none (measured: bench:routing). Skills without a published rate (too few reports,
 *   or no figures) keep their score: with no outcomes the ranking is unchanged.
 * - `combinedConfidence`: the answer's confidence blends the match's evidence with the chosen
 *   skill's success rate, CONFIDENCE_BLEND of it.
 * - `breakTiesByUse`: skills_search's results that score within NEAR_TIE of each other are put
 *   in order of use, most used first.
 *
 * Browser-safe (no I/O).
 */
import type { Retrieval } from './retrieve.ts';

/** How much of a candidate's score a success rate of 0 takes away (30%; none at a rate of 1). */
export const OUTCOME_PENALTY = 0.3;
/** Share of the answer's confidence that is the chosen skill's success rate. */
export const CONFIDENCE_BLEND = 0.25;
/** Scores within this share of each other are a near tie for skills_search. */
export const NEAR_TIE = 0.02;

/** A skill's success rate in use (0–1), or undefined when none is published. */
export type SuccessRateOf = (id: string) => number | undefined;

export function withOutcomes(retrieval: Retrieval, successRate: SuccessRateOf): Retrieval {
  let changed = false;
  const candidates = retrieval.candidates.map((c) => {
    const rate = successRate(c.id);
    if (rate === undefined) return c;
    changed = true;
    const factor = 1 - OUTCOME_PENALTY * (1 - rate);
    // A score below zero (far in meaning) moves the same way: toward zero for a skill that works.
    return { ...c, score: c.score >= 0 ? c.score * factor : c.score / factor };
  });
  if (!changed) return retrieval;
  candidates.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { ...retrieval, candidates };
}

/** The confidence of an answer for a skill with a success rate: the evidence and the rate, blended. */
export function combinedConfidence(evidence: number, rate: number | undefined): number {
  if (rate === undefined) return evidence;
  return Math.round(((1 - CONFIDENCE_BLEND) * evidence + CONFIDENCE_BLEND * rate) * 100) / 100;
}

/**
 * `items` (best first) with each run of near-equal scores ordered by use, most used first; the
 * order of skills used equally (or never) is kept.
 */
export function breakTiesByUse<T>(items: readonly T[], score: (t: T) => number, uses: (t: T) => number): T[] {
  const out: T[] = [];
  let run: T[] = [];
  const flush = (): void => {
    out.push(
      ...run
        .map((t, i) => ({ t, i }))
        .sort((a, b) => uses(b.t) - uses(a.t) || a.i - b.i)
        .map((x) => x.t),
    );
    run = [];
  };
  for (const item of items) {
    if (run.length > 0 && score(item) < score(run[0]!) * (1 - NEAR_TIE)) flush();
    run.push(item);
  }
  flush();
  return out;
}
