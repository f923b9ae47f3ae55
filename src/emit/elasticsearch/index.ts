/** The Elasticsearch emitter: two indexes behind aliases, written atomically, read back byte-exact. */
// First: on a Node.js too old for skillpress, a clear error instead of a missing built-in.
import '../../lib/node-version.ts';
import type { Catalog } from '../../model/skill.ts';
import { progress } from '../../lib/progress.ts';
import { redactUrl, type ConnectionOptions } from './client.ts';
import { ingestCatalog, type IngestOptions, type IngestResult } from './ingest.ts';
import type { IndexNames } from './definitions.ts';

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
  withDefaultUrl,
  createClient,
  redactUrl,
  redactSecrets,
  assertCatalog,
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
      // A line logged mid-ingest replaces the bar instead of being appended to it.
      log: (line) => {
        bar?.clear();
        options.log?.(line);
      },
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
 * For `build()`: ingest into the cluster at `connection` with a progress line, and one line saying
 * what changed. Failures throw (the build must fail, and the aliases still serve the previous catalog).
 */
export async function ingestForBuild(
  catalog: Pick<Catalog, 'skills'>,
  connection: ConnectionOptions,
  log: (line: string) => void,
  names?: IndexNames,
): Promise<IngestResult> {
  const result = await ingestWithProgress(catalog, {
    connection,
    ...(names ? { names } : {}),
    log: (line) => log(`elasticsearch: ${line}`),
  });
  const where = redactUrl(connection.url);
  log(
    result.changed
      ? `elasticsearch: ${result.skills} skill(s), ${result.files} file(s) ingested into ${where}`
      : `elasticsearch: unchanged at ${where}`,
  );
  return result;
}
