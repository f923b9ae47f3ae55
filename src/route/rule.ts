/**
 * The default judge of `best_skill` (seed 004): exactly one skill that fits a request, or none,
 * decided by a stated rule over what retrieval knows — no model. Each answer gives its reason in
 * one plain sentence (what the top skill matched, against the runner-up); the rule itself is
 * documented (docs/design/routing.md, `RULE_TEXT`) rather than repeated in every answer, where it
 * would spend the agent's context for nothing.
 *
 * The evidence that the top candidate is the skill asked for is a logistic function of four
 * things retrieval measures: how much of the request it covers (each word weighted by how rare
 * it is in the catalog), how much of that is in its name, description or tags rather than its
 * body, how far its score leads the runner-up's, and how close in meaning the request comes to
 * what it says it is for. A skill covering under 30% of the request's words is never the answer,
 * however close it seems: meaning alone also finds skills near a request that none fits. Its
 * weights and the threshold are fitted on
 * the development half of the routing sets in bench/routing/ (`npm run bench:routing --
 * <catalogs> --calibrate` refits them); the held-out half measures them. The evidence is the
 * answer's confidence: on those sets, the estimated chance that the top skill is the right one.
 *
 * The more skills a catalog holds, the more often a near rival (another vendor's version, the
 * skill next door in a family) ranks first with evidence as strong as a right top's: the threshold
 * rises with the catalog's size, on a log scale, from the single catalogs the weights were fitted
 * on to the catalogs of 800 skills or more that unite several public ones, where its higher value
 * was fitted.
 */
import { shownWord } from '../search/text.ts';
import type { Candidate, Retrieval } from './retrieve.ts';

/** The rule's parameters (fitted, see above). */
export const RULE = {
  weights: { coverage: 1.25, metadataCoverage: 1.82, lead: 2.44, meaning: 0.47 },
  bias: -2.31,
  /** Answer with the top skill when the evidence reaches this; else none. */
  threshold: 0.675,
  /** …and it covers at least this share of the request. */
  minCoverage: 0.3,
  /**
   * …and in a catalog of `smallCatalog` skills or fewer, at least this share in its name,
   * description or tags: there the top stands out in meaning and leads a runner-up whatever the
   * request, and a skill matched only in its body is a near miss (docs/design/routing.md).
   */
  minMetadataCoverage: 0.1,
  smallCatalog: 20,
  /** The threshold from `largeCatalog` skills (fitted on the dev halves of the ten-catalog union and of two cuts of it). */
  largeThreshold: 0.85,
  /** Up to this many skills the threshold is `threshold` (the largest single catalog it was fitted on has 417). */
  fittedCatalog: 420,
  /** From this many skills it is `largeThreshold` (the union publishes 1,650 skills, its smallest cut measured 825). */
  largeCatalog: 800,
  /**
   * A top skill leading its runner-up by less than this is a close call: on the routing sets'
   * both halves the rule's close calls were right for 10 of 17 (evidence 0.84 on average), its
   * other answers for 387 of 413 (0.90), so a close call's confidence is at most `closeConfidence`
   * and the answer names the runner-up.
   */
  closeLead: 0.1,
  closeConfidence: 0.6,
};

/**
 * The threshold for a catalog of `catalogSize` skills: `threshold` up to `fittedCatalog`,
 * `largeThreshold` from `largeCatalog`, and in between proportional to the log of the size.
 *
 * @example
 * ```ts
 * import { thresholdFor } from 'skillpress/internal';
 * console.log(thresholdFor(300), thresholdFor(1650)); // 0.675 0.85
 * ```
 */
export function thresholdFor(catalogSize: number, rule = RULE): number {
  if (catalogSize <= rule.fittedCatalog) return rule.threshold;
  const share = Math.min(
    1,
    Math.log(catalogSize / rule.fittedCatalog) / Math.log(rule.largeCatalog / rule.fittedCatalog),
  );
  return rule.threshold + share * (rule.largeThreshold - rule.threshold);
}

/** What the rule reads of the top candidate. */
export interface Evidence {
  coverage: number;
  metadataCoverage: number;
  /** (top score − runner-up score) / top score, within −1…1; 1 without a runner-up. */
  lead: number;
  /** Closeness in meaning to what the skill says it is for (standard deviations above the catalog's mean; 0 when not measured). */
  meaning: number;
}

export interface Judgement {
  /** The chosen skill's id, or undefined for none. */
  id: string | undefined;
  /** 0–1: for a skill, the evidence that it is the right one; for none, one minus the top candidate's. */
  confidence: number;
  reason: string;
  /** A chosen skill's runner-up when the call was close (it leads by under `RULE.closeLead`). */
  runnerUp?: string;
}

/** The rule in words, with its fitted numbers (for docs and people; answers do not carry it). */
export const RULE_TEXT =
  `Rule: evidence = σ(${RULE.weights.coverage}·coverage + ${RULE.weights.metadataCoverage}·coverage in name, description or tags + ` +
  `${RULE.weights.lead}·lead over the runner-up + ${RULE.weights.meaning}·closeness in meaning ${RULE.bias < 0 ? '−' : '+'} ${Math.abs(RULE.bias)}) for the top-ranked skill (coverage: ` +
  `share of the request's words it matches, each weighted by its rarity in the catalog; closeness: standard deviations above the catalog's mean); answer with it when evidence ≥ ${RULE.threshold} ` +
  `(rising with the log of the catalog's size from ${RULE.fittedCatalog} skills to ${RULE.largeThreshold} at ${RULE.largeCatalog} and beyond) ` +
  `and coverage ≥ ${RULE.minCoverage} (in catalogs of ${RULE.smallCatalog} skills or fewer, ≥ ${RULE.minMetadataCoverage} in name, description or tags), else none. ` +
  `A top that leads its runner-up by under ${pct(RULE.closeLead)} is a close call: confidence at most ${RULE.closeConfidence}, and the runner-up is named.`;

export function evidenceOf(top: Candidate, second: Candidate | undefined): Evidence {
  // Within −1…1: with meaning, a runner-up can score below zero, and leading it is no more than having none.
  const lead = !second ? 1 : top.score > 0 ? Math.min(1, Math.max(-1, (top.score - second.score) / top.score)) : 0;
  return { coverage: top.weightedCoverage, metadataCoverage: top.metadataCoverage, lead, meaning: top.meaning ?? 0 };
}

/** The fitted logistic function of the evidence. */
export function strength(e: Evidence, rule = RULE): number {
  const w = rule.weights;
  const z =
    w.coverage * e.coverage +
    w.metadataCoverage * e.metadataCoverage +
    w.lead * e.lead +
    w.meaning * e.meaning +
    rule.bias;
  return 1 / (1 + Math.exp(-z));
}

/** Whether evidence `e` of strength `p` makes the top candidate the answer, in a catalog of `catalogSize` skills. */
export function accepts(e: Evidence, p: number, rule = RULE, catalogSize = 0): boolean {
  return strongEnough(e, p, catalogSize, rule) && describedFor(e, catalogSize, rule);
}

/** Whether the evidence reaches the threshold of a catalog of `catalogSize` skills, covering enough of the request. */
function strongEnough(e: Evidence, p: number, catalogSize: number, rule = RULE): boolean {
  return p >= thresholdFor(catalogSize, rule) && e.coverage >= rule.minCoverage;
}

/** Whether a small catalog's top skill says in its name, description or tags enough of what the request asks. */
function describedFor(e: Evidence, catalogSize: number, rule = RULE): boolean {
  return catalogSize > rule.smallCatalog || e.metadataCoverage >= rule.minMetadataCoverage;
}

/**
 * The calibrated rule: the top candidate of `retrieval` when the evidence is strong enough,
 * else none (`id` undefined), with a confidence and a reason in words.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { SkillSearch, retrieve, ruleJudge } from 'skillpress';
 * const search = SkillSearch.load(readFileSync('dist/feed/v1/search.json', 'utf8'));
 * console.log(ruleJudge(retrieve(search, 'rotate a pdf page')).id);
 * ```
 */
export function ruleJudge(retrieval: Retrieval): Judgement {
  const [top, second] = retrieval.candidates;
  if (retrieval.words.length === 0)
    return { id: undefined, confidence: 1, reason: 'The request has no meaningful words to match.' };
  if (!top) return { id: undefined, confidence: 1, reason: 'No skill shares a meaningful word with the request.' };
  const e = evidenceOf(top, second);
  const p = strength(e);
  const matched = `${pct(e.coverage)} of the request (${top.words.map(shownWord).join(', ') || 'no word'})`;
  if (!accepts(e, p, RULE, retrieval.catalogSize))
    return {
      id: undefined,
      confidence: round(1 - p),
      reason: `The closest skill, "${top.id}", matches ${matched}${runnerUp(second, e.lead)}, ${notEnough(e, p, retrieval.catalogSize)}.`,
    };
  const metadata = e.metadataCoverage > 0 ? `, ${pct(e.metadataCoverage)} in its name, description or tags` : '';
  const reason = `"${top.id}" matches ${matched}${metadata}${runnerUp(second, e.lead)}`;
  if (second && e.lead < RULE.closeLead)
    return {
      id: top.id,
      confidence: Math.min(round(p), RULE.closeConfidence),
      reason: `${reason}: a close call, so "${second.id}" may be the one asked for.`,
      runnerUp: second.id,
    };
  return { id: top.id, confidence: round(p), reason: `${reason}.` };
}

/** Why a top candidate is not the answer: too little evidence anywhere, or too little to stand out in a large catalog. */
function notEnough(e: Evidence, p: number, catalogSize: number): string {
  // Strong enough for a catalog of any size but this one's threshold, or its description floor.
  const strong = strongEnough(e, p, 0);
  if (strong && !describedFor(e, catalogSize)) return 'but its name, description and tags hardly say it is for this';
  if (strong) return `not enough to single it out among ${catalogSize.toLocaleString('en-US')} skills`;
  return 'not enough to say it is the one asked for';
}

/** How the top candidate stands against the runner-up. */
function runnerUp(second: Candidate | undefined, lead: number): string {
  if (!second) return ', with no runner-up';
  // A keyword query lists skills whose metadata holds every word first, whatever their score.
  if (lead < 0) return `, and ranks above "${second.id}" by having every word in what it says it is for`;
  return `, and leads "${second.id}" by ${pct(lead)}`;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

const round = (n: number): number => Math.round(n * 100) / 100;
