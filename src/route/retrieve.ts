/**
 * Retrieval for routing: the shared ranking (src/search) narrows a request to a few candidate
 * skills, each with what a judge needs to decide — how much of the request it covers, weighted
 * by how telling each word is, and whether it covers it in its name and description or only in
 * its body. Browser-safe.
 */
// The weight comes from ../search/match.ts, not the search module's entry: the MCP server imports
// this before it answers tools/list, and the index engine (MiniSearch and all) loads with the feed.
import { idf } from '../search/match.ts';
import type { QueryWord, SearchHit, SkillSearch, WordMatch } from '../search/index.ts';

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
  score: number;
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

export function retrieve(search: SkillSearch, request: string, limit = CANDIDATES): Retrieval {
  const page = search.searchPage(request, { limit, mode: 'ranked' });
  const n = search.size;
  const words = page.words.map((w): RequestWord => ({ ...w, weight: idf(w.documents, n) }));
  const candidates = page.hits.map((hit) => candidate(hit, words));
  return { request, words, candidates, catalogSize: n };
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
    words: hit.words,
    coverage: hit.coverage,
    weightedCoverage: weighted / total,
    metadataCoverage: metadata / total,
  };
}
