/** The Elasticsearch emitter: two indexes behind aliases, written atomically, read back byte-exact. */
import type { Catalog } from '../../model/skill.ts';
import { progress } from '../../lib/progress.ts';
import { redactUrl } from './client.ts';
import { ingestCatalog, type IngestOptions, type IngestResult } from './ingest.ts';

export { ingestCatalog, IngestError, type IngestOptions, type IngestResult, type DocumentFailure } from './ingest.ts';
export {
  getSkillById,
  getSkillFiles,
  storedBytes,
  SkillNotFoundError,
  type SkillRecord,
  type ReadOptions,
} from './read.ts';
export { writeSkillFolder, type RestoreResult } from './restore.ts';
export { validateIndex, type IndexCheck } from './verify.ts';
export {
  connectionFromEnv,
  createClient,
  redactUrl,
  redactSecrets,
  assertReachable,
  UnreachableError,
  DEFAULT_URL,
  type ConnectionOptions,
} from './client.ts';
export {
  DEFAULT_NAMES,
  indexNames,
  loadIndexDefinitions,
  type IndexNames,
  type IndexDefinitions,
} from './definitions.ts';
export {
  searchElasticsearch,
  hybridQuery,
  KNN_BOOST,
  LEXICAL_FIELDS,
  type HybridHit,
  type HybridSearchOptions,
} from './search.ts';
export { fileDocumentId, skillDocument, fileDocument, type SkillDocument, type FileDocument } from './documents.ts';

/** Ingest with a progress line on a terminal; used by `skillpress ingest` and `build`. */
export async function ingestWithProgress(
  catalog: Pick<Catalog, 'skills'>,
  options: IngestOptions = {},
): Promise<IngestResult> {
  let bar: ReturnType<typeof progress> | undefined;
  try {
    return await ingestCatalog(catalog, {
      ...options,
      onProgress: (done, total) => {
        bar ??= progress('elasticsearch: indexing', total);
        bar.update(done);
        options.onProgress?.(done, total);
      },
    });
  } finally {
    bar?.done();
  }
}

/**
 * For `skillpress build`: ingest when ELASTICSEARCH_URL is set, otherwise say it was skipped.
 * Failures throw (the build must fail, and the aliases still serve the previous catalog).
 */
export async function ingestIfConfigured(
  catalog: Pick<Catalog, 'skills'>,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<IngestResult | undefined> {
  if (!env.ELASTICSEARCH_URL) {
    log('elasticsearch: skipped: ELASTICSEARCH_URL not set');
    return undefined;
  }
  const result = await ingestWithProgress(catalog, {
    connection: { url: env.ELASTICSEARCH_URL },
    log: (line) => log(`elasticsearch: ${line}`),
  });
  log(
    result.changed
      ? `elasticsearch: ${result.skills} skill(s), ${result.files} file(s) ingested into ${redactUrl(env.ELASTICSEARCH_URL)}`
      : `elasticsearch: unchanged at ${redactUrl(env.ELASTICSEARCH_URL)}`,
  );
  return result;
}
