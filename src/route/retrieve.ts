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
import type { MeaningIndex } from '../search/hybrid.ts';

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

/** How much a standard deviation of closeness in meaning counts: the shared ranking's weight (../search/hybrid.ts). */
export { MEANING_WEIGHT } from '../search/hybrid.ts';

export interface RetrieveOptions {
  /** How many candidates (default 5). */
  limit?: number;
  /** The catalog's closeness in meaning: rank by meaning as well as words. */
  meaning?: MeaningIndex;
  /** Overrides MEANING_WEIGHT (calibration). */
  meaningWeight?: number;
}

/**
 * The shared ranking (mode `ranked`, with meaning when given: the same order as `skills_search`
 * and the site) narrowed to `limit` candidates, each with its evidence.
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
    limit,
    mode: 'ranked',
    ...(options.meaning && { meaning: options.meaning }),
    ...(options.meaningWeight !== undefined && { meaningWeight: options.meaningWeight }),
  });
  const n = search.size;
  const words = page.words.map((w): RequestWord => ({ ...w, weight: idf(w.documents, n) }));
  return { request, words, candidates: page.hits.map((hit) => candidate(hit, words)), catalogSize: n };
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
    wordScore: hit.wordScore,
    meaning: hit.meaning,
    words: hit.words,
    coverage: hit.coverage,
    weightedCoverage: weighted / total,
    metadataCoverage: metadata / total,
  };
}
