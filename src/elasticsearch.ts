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

export const ingestCatalog = onFirstCall('ingestCatalog');
export const getSkillById = onFirstCall('getSkillById');
export const getSkillFiles = onFirstCall('getSkillFiles');
export const validateIndex = onFirstCall('validateIndex');
export const writeSkillFolder = onFirstCall('writeSkillFolder');
export const searchElasticsearch = onFirstCall('searchElasticsearch');

/**
 * A client for the read-back calls. `connection` wins over the environment `skillpress ingest`
 * reads (ELASTICSEARCH_URL, ELASTICSEARCH_API_KEY, …; default http://127.0.0.1:9200). Close it when done.
 */
export async function elasticsearchClient(connection: Partial<ConnectionOptions> = {}): Promise<Client> {
  const { createClient, connectionFromEnv } = await emitter();
  return createClient(connectionFromEnv(connection));
}
