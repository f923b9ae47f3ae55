/**
 * Retrieval for routing: the shared ranking (src/search) narrows a request to a few candidate
 * skills, each with what a judge needs to decide — how much of the request it covers, weighted
 * by how telling each word is, and whether it covers it in its name and description or only in
 * its body. Given the catalog's skill embeddings (src/semantic), the ranking also counts how
 * close in meaning the request comes to what each skill says it is for: words miss that "make our
 * internal CLI repo public" asks for open-sourcing, meaning does not; meaning alone misses the exact names and
 * terms words catch. Together they put the right skill first more often than either (measured by
 * `npm run bench:routing`). Browser-safe.
 */
// The weight comes from ../search/match.ts, not the search module's entry: the MCP server imports
// this before it answers tools/list, and the index engine (MiniSearch and all) loads with the feed.
import { idf } from '../search/match.ts';
import type { QueryWord, SearchHit, SkillSearch, WordMatch } from '../search/index.ts';
import type { DescribedSkill, SkillVectors } from '../semantic/skill-vectors.ts';

/** Fields that describe what a skill is for; `body` and `paths` only mention things. */
const METADATA_FIELDS = new Set(['name', 'description', 'tags', 'domain']);

/** A request word with its weight: BM25's idf over the catalog (a word every skill has weighs ~0). */
export interface RequestWord extends QueryWord {
  weight: number;
}

export interface Candidate {
  id: string;
  name: string;
  description: string;
  /** What candidates are ranked by: the word score, plus closeness in meaning when it is used. */
  score: number;
  /** The shared ranking's score (0: no meaningful word in common). */
  wordScore: number;
  /** Closeness in meaning (standard deviations above the catalog's mean); undefined when not used. */
  meaning: number | undefined;
  /** The request words it matched, with their fields. */
  words: WordMatch[];
  /** Share of the request's words it matched (0–1). */
  coverage: number;
  /** The same, each word weighted by how rare it is in the catalog (a word matched only by a prefix or typo counts a quarter). */
  weightedCoverage: number;
  /** Weighted share matched in name, description, tags or domain. */
  metadataCoverage: number;
}

export interface Retrieval {
  request: string;
  words: RequestWord[];
  /** Best first. */
  candidates: Candidate[];
  /** Skills in the catalog. */
  catalogSize: number;
}

/**
 * How much a word counts toward coverage when only a prefix or typo neighbour of it matched
 * ("Paris" → "parse"): a quarter (calibrated with the rule on the routing sets' dev half).
 */
const INEXACT_CREDIT = 0.25;

/** How many candidates a judge sees. */
const CANDIDATES = 5;

/**
 * How much a standard deviation of closeness in meaning counts against the word score, scaled
 * so that the best word match scores 1 (calibrated on the routing sets' dev half).
 */
export const MEANING_WEIGHT = 0.3;
/** Word matches ranked again with meaning: enough that a skill far down on words can rise. */
const WORD_POOL = 50;
/** Skills sharing no word with the request that may still be candidates by meaning alone… */
const MEANING_POOL = 10;
/** …when they stand this many standard deviations above the catalog's mean closeness. */
const MEANING_ALONE = 2;

export interface RetrieveOptions {
  /** How many candidates (default 5). */
  limit?: number;
  /** The catalog's skill embeddings: rank by meaning as well as words. */
  meaning?: SkillVectors;
  /** Overrides MEANING_WEIGHT (calibration). */
  meaningWeight?: number;
}

/**
 * The candidates for a request (best first), each with the evidence a judge needs: the word
 * score, the share of the request's words it covers, and closeness in meaning when `meaning` is
 * given. {@link ruleJudge} then picks one skill or none.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { SkillSearch, retrieve, ruleJudge } from 'skillpress';
 * const search = SkillSearch.load(readFileSync('dist/feed/v1/search.json', 'utf8'));
 * const retrieval = retrieve(search, 'check an expense report against the policy');
 * const { id, confidence, reason } = ruleJudge(retrieval);
 * console.log(id ?? 'no skill', confidence, reason);
 * ```
 */
export function retrieve(search: SkillSearch, request: string, options: RetrieveOptions = {}): Retrieval {
  const limit = options.limit ?? CANDIDATES;
  const page = search.searchPage(request, {
    limit: options.meaning ? Math.max(limit, WORD_POOL) : limit,
    mode: 'ranked',
  });
  const n = search.size;
  const words = page.words.map((w): RequestWord => ({ ...w, weight: idf(w.documents, n) }));
  const byWords = page.hits.map((hit) => candidate(hit, words));
  const candidates = options.meaning
    ? withMeaning(byWords, request, options.meaning, options.meaningWeight ?? MEANING_WEIGHT)
    : byWords;
  return { request, words, candidates: candidates.slice(0, limit), catalogSize: n };
}

/** The word matches and the skills closest in meaning, ranked by word score (best = 1) + weight × closeness. */
function withMeaning(byWords: Candidate[], request: string, meaning: SkillVectors, weight: number): Candidate[] {
  const closeness = meaning.closeness(request);
  const best = Math.max(0, ...byWords.map((c) => c.wordScore)) || 1;
  const pool = byWords.map((c): Candidate => {
    // A skill the index lacks (none: both come from one catalog) would count as the catalog's mean.
    const slot = meaning.slot(c.id);
    const near = slot === undefined ? 0 : closeness[slot]!;
    return { ...c, meaning: near, score: c.wordScore / best + weight * near };
  });
  const matched = new Set(byWords.map((c) => c.id));
  const alone: number[] = [];
  for (let slot = 0; slot < closeness.length; slot++) {
    if (closeness[slot]! >= MEANING_ALONE && !matched.has(meaning.skills[slot]!.id)) alone.push(slot);
  }
  alone.sort((a, b) => closeness[b]! - closeness[a]!);
  for (const slot of alone.slice(0, MEANING_POOL))
    pool.push(meaningOnly(meaning.skills[slot]!, closeness[slot]!, weight));
  return pool.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

function meaningOnly(skill: DescribedSkill, closeness: number, weight: number): Candidate {
  const { id, name, description } = skill;
  return {
    id,
    name,
    description,
    score: weight * closeness,
    wordScore: 0,
    meaning: closeness,
    words: [],
    coverage: 0,
    weightedCoverage: 0,
    metadataCoverage: 0,
  };
}

function candidate(hit: SearchHit, words: readonly RequestWord[]): Candidate {
  const total = words.reduce((sum, w) => sum + w.weight, 0) || 1;
  const weightOf = new Map(words.map((w) => [w.word, w.weight]));
  let weighted = 0;
  let metadata = 0;
  for (const m of hit.words) {
    const weight = (weightOf.get(m.word) ?? 0) * (m.exact ? 1 : INEXACT_CREDIT);
    weighted += weight;
    if (m.fields.some((f) => METADATA_FIELDS.has(f))) metadata += weight;
  }
  return {
    id: hit.id,
    name: hit.doc.name,
    description: hit.doc.description,
    score: hit.score,
    wordScore: hit.score,
    meaning: undefined,
    words: hit.words,
    coverage: hit.coverage,
    weightedCoverage: weighted / total,
    metadataCoverage: metadata / total,
  };
}
