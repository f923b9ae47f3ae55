/**
 * The default judge of `best_skill` (seed 004): exactly one skill that fits a request, or none,
 * decided by a stated rule over what retrieval knows — no model. The thresholds are calibrated
 * on the development half of the routing sets in bench/routing/ (`npm run bench:routing`); the
 * held-out half measures them. The rule is returned with every answer so the agent (and the
 * person reading the transcript) knows why.
 */
import type { Candidate, Retrieval } from './retrieve.ts';

/** The rule's thresholds (see `rule` below for how they combine). */
export const RULE = {
  /** Weighted share of the request the top skill must cover in its name, description, tags or domain. */
  minMetadataCoverage: 0.5,
  /** Weighted share of the request it must cover anywhere (body and file paths included). */
  minCoverage: 0.5,
  /** How far (relative) its score must lead the runner-up's. */
  minLead: 0.1,
};

export interface Judgement {
  /** The chosen skill's id, or undefined for none. */
  id: string | undefined;
  /** 0–1: how clearly the evidence supports the answer (for none: how clearly nothing fits). */
  confidence: number;
  reason: string;
}

export const RULE_TEXT =
  `Rule: rank skills with the shared search; take the top one only if the words of the request it covers ` +
  `(each weighted by how rare it is in the catalog) make up at least ${pct(RULE.minCoverage)} of the request, at least ` +
  `${pct(RULE.minMetadataCoverage)} in its name, description or tags, and its score leads the runner-up's by ` +
  `${pct(RULE.minLead)}; otherwise none.`;

export function ruleJudge(retrieval: Retrieval): Judgement {
  const [top, second] = retrieval.candidates;
  if (retrieval.words.length === 0) return { id: undefined, confidence: 1, reason: `The request has no meaningful words to match. ${RULE_TEXT}` };
  if (!top) return { id: undefined, confidence: 1, reason: `No skill shares a meaningful word with the request. ${RULE_TEXT}` };
  const lead = second ? (top.score - second.score) / top.score : 1;
  const evidence = describe(top, second, lead);
  const failed = failures(top, lead);
  const confidence = round(Math.min(top.weightedCoverage / RULE.minCoverage, top.metadataCoverage / RULE.minMetadataCoverage, lead / RULE.minLead, 1));
  if (failed.length > 0) return { id: undefined, confidence: round(1 - confidence / 2), reason: `${evidence} ${failed.join(' ')} ${RULE_TEXT}` };
  return { id: top.id, confidence, reason: `${evidence} ${RULE_TEXT}` };
}

function failures(top: Candidate, lead: number): string[] {
  const out: string[] = [];
  if (top.weightedCoverage < RULE.minCoverage) out.push('It covers too little of the request.');
  if (top.metadataCoverage < RULE.minMetadataCoverage) out.push('Too little of it is in what the skill says it is for.');
  if (lead < RULE.minLead) out.push('The runner-up is too close to call.');
  return out;
}

function describe(top: Candidate, second: Candidate | undefined, lead: number): string {
  const words = top.words.map((w) => w.word).join(', ') || 'none';
  return (
    `Top: "${top.id}" covers ${pct(top.weightedCoverage)} of the request (${pct(top.metadataCoverage)} in name, description or tags; words: ${words})` +
    (second ? `, ${pct(lead)} above "${second.id}".` : ', no runner-up.')
  );
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

const round = (n: number): number => Math.round(n * 100) / 100;
