/**
 * The Elasticsearch calls of `import … from 'skillpress'`, loaded on first call: its client
 * takes longer to import than the rest of skillpress, and most users never ingest. The same
 * functions, and everything else of the emitter, load at once from `skillpress/elasticsearch`.
 */
import type { Client } from '@elastic/elasticsearch';
import type { ConnectionOptions } from './emit/elasticsearch/index.ts';

type Emitter = typeof import('./emit/elasticsearch/index.ts');
type AsyncCall = 'ingestCatalog' | 'getSkillById' | 'getSkillFiles' | 'validateIndex' | 'writeSkillFolder';

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

/**
 * A client for the read-back calls, connected to `connection` (default http://127.0.0.1:9200, no
 * credentials; nothing is read from the environment). Close it when done.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById } from 'skillpress';
 * const client = await elasticsearchClient({ url: 'http://127.0.0.1:9200' });
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
