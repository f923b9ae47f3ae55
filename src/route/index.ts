/**
 * Routing: from the words a user types to one skill or none (seed 004). Retrieval on the shared
 * index narrows to a few candidates; a judge — the calibrated rule, or the client's model where
 * the MCP client offers sampling — picks one or none. Browser-safe.
 */
export {
  MEANING_WEIGHT,
  retrieve,
  type Candidate,
  type RequestWord,
  type RetrieveOptions,
  type Retrieval,
} from './retrieve.ts';
export {
  accepts,
  evidenceOf,
  RULE,
  RULE_TEXT,
  ruleJudge,
  strength,
  thresholdFor,
  type Evidence,
  type Judgement,
} from './rule.ts';
export {
  breakTiesByUse,
  combinedConfidence,
  withOutcomes,
  CONFIDENCE_BLEND,
  NEAR_TIE,
  OUTCOME_PENALTY,
  type SuccessRateOf,
} from './usage.ts';
export { modelPrompt, oneLine, parseModelAnswer, quotedDescription, replyText, type ModelPrompt } from './model.ts';
