/**
 * Hybrid search over `agent_skills` on a cluster without an inference endpoint: BM25 over the
 * skill's text and kNN over `purpose_vector` (filled at ingest by the static model shipped in
 * the package), with the request embedded here by the same model. Two ways to combine them, chosen
 * at run time:
 *
 * - `rrf`: a reciprocal rank fusion retriever (a standard BM25 retriever and a kNN retriever);
 *   it needs a license that offers RRF;
 * - `sum` (where the license refuses RRF): one search with a `query` and a `knn` clause, whose
 *   scores Elasticsearch adds — the kNN similarity (0–1) weighted by KNN_BOOST, so a skill close
 *   in meaning that shares no word is still found, and word matches still count.
 *
 * ```ts
 * const { hits, method } = await searchElasticsearch('make our internal CLI repo public');
 * ```
 */
import type { Client } from '@elastic/elasticsearch';
import type { Embedder } from '../../semantic/embedder.ts';
import { createClient, type ConnectionOptions } from './client.ts';
import { withDefaultUrl } from './connection.ts';
import { indexNames, type IndexNames } from './definitions.ts';

/** Fields BM25 reads, with the site's and skills_search's field weights. */
export const LEXICAL_FIELDS = ['name^1.5', 'description^4', 'tags^2.5', 'domain^1.5', 'semantic_content^1'];
/** How much the kNN similarity counts against BM25 in the `sum` fallback (fitted on the routing sets' dev halves). */
export const KNN_BOOST = 10;
/**
 * The nearest skills in meaning that get a kNN score, however many results are asked for: with
 * `k` = the results asked for, a skill just outside them got none, and the first result changed
 * with `size` (pptx first for 10 results, not for 3). 10 is what KNN_BOOST was fitted with (the
 * routing bench asks for 10); scoring the 100 nearest put the right skill first less often on
 * every held-out half (google-skills 35 → 29 of 53, bench/README.md).
 */
export const KNN_NEAREST = 10;
/** The ranks RRF fuses from each retriever (the 5 × 10 it used for 10 results). */
const RRF_WINDOW = 50;
/** Candidates each kNN shard considers per nearest skill kept. */
const CANDIDATES_PER_RESULT = 10;

export interface HybridSearchOptions {
  /** The cluster (default http://127.0.0.1:9200, no credentials). */
  connection?: Partial<ConnectionOptions>;
  client?: Client;
  names?: Partial<IndexNames>;
  /** How many skills (default 10). */
  size?: number;
  /** The model that embeds the request (default: the one shipped in the package). */
  embedder?: Embedder;
  /** Force one way of combining (default: `rrf`, then `sum` where the license refuses it). */
  method?: 'rrf' | 'sum';
}

export interface HybridHit {
  skill_id: string;
  name: string;
  description: string;
  score: number;
  /** When summed (`sum`): the BM25 score of the request's words; absent when no word matched. */
  words?: number;
  /** When summed: the kNN similarity (0–1) of the request's meaning; absent outside the KNN_NEAREST nearest. */
  meaning?: number;
}

/** The names of the two clauses, whose scores Elasticsearch reports per hit (`include_named_queries_score`). */
const WORDS_CLAUSE = 'words';
const MEANING_CLAUSE = 'meaning';

/** The request body of each way, for a request and its vector: what the docs show and the tests run. */
export function hybridQuery(
  text: string,
  vector: readonly number[],
  method: 'rrf' | 'sum',
  size = 10,
): Record<string, unknown> {
  // Stop words left out of the request ("the", "are"): in a sum with kNN they would outweigh meaning.
  // Its words counted across the fields (`cross_fields`), not the best single field's score: a
  // skill often has a request's words in its name and the rest in its description
  // (bench/README.md, "Routing through Elasticsearch").
  const lexical = { multi_match: { query: text, fields: LEXICAL_FIELDS, analyzer: 'stop', type: 'cross_fields' } };
  const knn = {
    field: 'purpose_vector',
    query_vector: [...vector],
    k: KNN_NEAREST,
    num_candidates: KNN_NEAREST * CANDIDATES_PER_RESULT,
  };
  const source = ['skill_id', 'name', 'description'];
  if (method === 'sum')
    return {
      size,
      _source: source,
      query: { multi_match: { ...lexical.multi_match, _name: WORDS_CLAUSE } },
      knn: { ...knn, boost: KNN_BOOST, _name: MEANING_CLAUSE },
    };
  return {
    size,
    _source: source,
    // The window is fixed too (at least `size`, as RRF requires): the order does not depend on `size`.
    retriever: {
      rrf: { retrievers: [{ standard: { query: lexical } }, { knn }], rank_window_size: Math.max(size, RRF_WINDOW) },
    },
  };
}

/** The skills of `agent_skills` best matching a request, by words and meaning; and which way was used. */
export async function searchElasticsearch(
  text: string,
  options: HybridSearchOptions = {},
): Promise<{ hits: HybridHit[]; method: 'rrf' | 'sum' }> {
  const client = options.client ?? createClient(withDefaultUrl(options.connection));
  try {
    const embedder = options.embedder ?? (await (await import('../../semantic/load.ts')).loadEmbedder());
    const vector = Array.from(embedder.embed(text));
    const index = indexNames(options.names).skills;
    const run = async (method: 'rrf' | 'sum') => {
      const res = await client.search<HybridHit>({
        index,
        ...hybridQuery(text, vector, method, options.size),
        // Each clause's own score: how a hit was found, by words, by meaning or both (`sum` only: RRF fuses ranks).
        ...(method === 'sum' && { include_named_queries_score: true }),
      });
      return { method, hits: res.hits.hits.map((h) => ({ ...h._source!, score: h._score ?? 0, ...clauseScores(h) })) };
    };
    if (options.method) return await run(options.method);
    try {
      return await run('rrf');
    } catch (err) {
      if (!refusedByLicense(err)) throw err;
      return await run('sum');
    }
  } finally {
    if (!options.client) await client.close();
  }
}

/** A summed hit's BM25 score and kNN similarity, from its named clauses' scores. */
function clauseScores(hit: {
  matched_queries?: string[] | Record<string, number>;
}): Pick<HybridHit, 'words' | 'meaning'> {
  const named = hit.matched_queries;
  if (!named || Array.isArray(named)) return {};
  const words = named[WORDS_CLAUSE];
  const meaning = named[MEANING_CLAUSE];
  return {
    ...(words !== undefined && { words }),
    // The clause's score carries its boost.
    ...(meaning !== undefined && { meaning: meaning / KNN_BOOST }),
  };
}

/** Whether Elasticsearch refused the RRF retriever for the cluster's license (or an older version's lack of it). */
function refusedByLicense(err: unknown): boolean {
  const body = JSON.stringify((err as { meta?: { body?: unknown } }).meta?.body ?? (err as Error).message ?? '');
  return /license|non-compliant|unknown retriever|\[rrf\]/i.test(body);
}
