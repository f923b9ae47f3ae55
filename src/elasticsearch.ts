/**
 * The Elasticsearch calls of `import … from 'skillpress'`, loaded on first call: its client
 * takes longer to import than the rest of skillpress, and most users never ingest. The same
 * functions, and everything else of the emitter, load at once from `skillpress/elasticsearch`.
 */
import type { Client } from '@elastic/elasticsearch';
import type { ConnectionOptions } from './emit/elasticsearch/index.ts';

type Emitter = typeof import('./emit/elasticsearch/index.ts');
type AsyncCall =
  'ingestCatalog' | 'getSkillById' | 'getSkillFiles' | 'validateIndex' | 'writeSkillFolder' | 'searchElasticsearch';

const emitter = (): Promise<Emitter> => import('./emit/elasticsearch/index.ts');

/** `name` of the emitter, with its own signature, importing the emitter when first called. */
function onFirstCall<K extends AsyncCall>(name: K): Emitter[K] {
  return (async (...args: unknown[]) =>
    ((await emitter())[name] as (...a: unknown[]) => unknown)(...args)) as Emitter[K];
}

/**
 * Write a catalog into Elasticsearch behind the `agent_skills` and `agent_skill_files` aliases,
 * switched in atomically (see `ingestCatalog` of `skillpress/elasticsearch`).
 *
 * @example
 * ```ts
 * import { ingestCatalog, loadCatalog } from 'skillpress';
 * const result = await ingestCatalog(await loadCatalog('skills'), { connection: { url: 'http://127.0.0.1:9200' } });
 * console.log(result.changed, result.skills, result.files);
 * ```
 */
export const ingestCatalog = onFirstCall('ingestCatalog');

/**
 * One skill read back: metadata, every file and `skill_markdown` (see `getSkillById` of `skillpress/elasticsearch`).
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById } from 'skillpress';
 * const client = await elasticsearchClient({ url: 'http://127.0.0.1:9200' });
 * console.log(Object.keys((await getSkillById(client, 'pdf-tools')).files));
 * await client.close();
 * ```
 */
export const getSkillById = onFirstCall('getSkillById');

/**
 * Every file document of a skill, sorted by path (see `getSkillFiles` of `skillpress/elasticsearch`).
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillFiles } from 'skillpress';
 * const client = await elasticsearchClient();
 * console.log((await getSkillFiles(client, 'pdf-tools')).map((f) => f.file_path));
 * await client.close();
 * ```
 */
export const getSkillFiles = onFirstCall('getSkillFiles');

/**
 * What the index holds for each skill compared with the skill, file by file (see `validateIndex` of `skillpress/elasticsearch`).
 *
 * @example
 * ```ts
 * import { elasticsearchClient, loadCatalog, validateIndex } from 'skillpress';
 * const client = await elasticsearchClient();
 * const checks = await validateIndex(client, (await loadCatalog('skills')).skills);
 * console.log(checks.filter((c) => c.differences.length > 0));
 * await client.close();
 * ```
 */
export const validateIndex = onFirstCall('validateIndex');

/**
 * A skill's files, as read back, written into an empty folder (see `writeSkillFolder` of `skillpress/elasticsearch`).
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById, writeSkillFolder } from 'skillpress';
 * const client = await elasticsearchClient();
 * await writeSkillFolder((await getSkillById(client, 'pdf-tools')).file_entries, 'restored/pdf-tools');
 * await client.close();
 * ```
 */
export const writeSkillFolder = onFirstCall('writeSkillFolder');
/**
 * The skills of `agent_skills` best matching a request, by words (BM25) and meaning (kNN over
 * `purpose_vector`, filled at ingest with the shipped model): no inference endpoint needed. An
 * RRF retriever where the cluster has one, else a query and a knn clause summed.
 *
 * @example
 * ```ts
 * import { searchElasticsearch } from 'skillpress';
 * const { hits, method } = await searchElasticsearch('the database lookups are sluggish', { size: 5 });
 * console.log(method, hits.map((h) => h.skill_id));
 * ```
 */
export const searchElasticsearch = onFirstCall('searchElasticsearch');

/**
 * A client for the read-back calls, connected to `connection` (default http://127.0.0.1:9200, no
 * credentials). The library reads no environment: pass `ELASTICSEARCH_URL` yourself, as the CLI does.
 * Close it when done.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById } from 'skillpress';
 * const client = await elasticsearchClient({ url: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200' });
 * try {
 *   const skill = await getSkillById(client, 'pdf-tools');
 *   console.log(Object.keys(skill.files));
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export async function elasticsearchClient(connection: Partial<ConnectionOptions> = {}): Promise<Client> {
  const { createClient, withDefaultUrl } = await emitter();
  return createClient(withDefaultUrl(connection));
}
