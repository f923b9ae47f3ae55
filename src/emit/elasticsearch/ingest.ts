/**
 * ingestCatalog: write the whole catalog into fresh versioned indexes, then move both aliases
 * in one atomic `updateAliases` call. Readers see either the previous complete catalog or the
 * new complete one, never a half-written mix:
 *
 *   agent_skills-<version>, agent_skill_files-<version>   created
 *   bulk every document; any failed document → delete them, aliases untouched, IngestError
 *   refresh, count check, then one updateAliases that adds the new and removes the old
 *   delete the previous versioned indexes (and leftovers of interrupted ingests)
 *
 * A skill removed from the folder is simply absent from the new indexes. When the catalog's
 * digest equals the one stored in the live indexes' `_meta`, nothing is written at all.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import type { Catalog } from '../../model/skill.ts';
import {
  assertReachable,
  createClient,
  describeError,
  redactSecrets,
  redactUrl,
  withDefaultUrl,
  type ConnectionOptions,
} from './client.ts';
import {
  indexNames,
  loadIndexDefinitions,
  withoutSemanticText,
  type IndexDefinition,
  type IndexDefinitions,
  type IndexNames,
} from './definitions.ts';
import type { Skill } from '../../model/skill.ts';
import { catalogOperations, type IndexOperation } from './documents.ts';

export interface IngestOptions {
  /** A ready client; otherwise one is made from `connection`. */
  client?: Client;
  /** The cluster (default: http://127.0.0.1:9200, no credentials; the CLI reads ELASTICSEARCH_* for it). */
  connection?: Partial<ConnectionOptions>;
  /** Alias names (default agent_skills / agent_skill_files). */
  names?: Partial<IndexNames>;
  /** Mappings and settings; default: read from `configDir` (default: the package's config/). */
  definitions?: IndexDefinitions;
  configDir?: string;
  /** Write new indexes even when the catalog is unchanged. */
  force?: boolean;
  /** `auto`: semantic_text where the cluster has inference, else text. */
  semanticContent?: 'auto' | 'text';
  /** Called as file and skill documents are acknowledged. */
  onProgress?: (done: number, total: number) => void;
  log?: (line: string) => void;
  /** Bulk request size and parallelism. */
  flushBytes?: number;
  concurrency?: number;
}

export interface IngestResult {
  /** False when the live indexes already held this exact catalog (nothing was written). */
  changed: boolean;
  skills: number;
  files: number;
  /** The concrete indexes now behind the aliases. */
  indexes: IndexNames;
  /** Indexes deleted after the switch. */
  deleted: string[];
  digest: string;
  semanticContentType: 'semantic_text' | 'text';
}

export interface DocumentFailure {
  index: string;
  id: string;
  status: number;
  error: string;
}

/** Some documents were refused; the aliases still serve the previous catalog. */
export class IngestError extends Error {
  readonly failures: DocumentFailure[];
  constructor(message: string, failures: DocumentFailure[]) {
    super(message);
    this.failures = failures;
  }
}

/** Marks indexes this tool created, so cleanup never touches anything else. */
const CREATED_BY = 'skillpress';

interface LiveState {
  /** Concrete indexes behind the alias now. */
  indexes: string[];
  /** The alias name is a plain index (a pre-alias deployment of the seed). */
  concrete: boolean;
  /** The catalog digest the indexes were loaded with; unset when they were written to since. */
  digest?: string;
  /** Why the digest is not trusted: the indexes were written to after skillpress loaded them. */
  drift?: string;
}

/** Both aliases point to one index each, made from a catalog with this digest. */
function holdsDigest(live: Awaited<ReturnType<typeof liveStates>>, digest: string): boolean {
  return (
    live.skills.digest === digest &&
    live.files.digest === digest &&
    live.skills.indexes.length === 1 &&
    live.files.indexes.length === 1
  );
}

/**
 * New indexes (named by a fresh version suffix) filled with the catalog's operations and checked;
 * deleted again when anything fails, so the aliases keep serving the previous catalog.
 */
async function writeNewIndexes(
  client: Client,
  job: {
    names: IndexNames;
    definitions: IndexDefinitions;
    digest: string;
    total: { skills: number; files: number };
    operations: () => Generator<IndexOperation>;
    options: IngestOptions;
    log: (line: string) => void;
  },
): Promise<IndexNames & { semanticContentType: Awaited<ReturnType<typeof createIndex>> }> {
  const { names, definitions, digest, total, options } = job;
  const version = versionSuffix();
  const target: IndexNames = { skills: `${names.skills}-${version}`, files: `${names.files}-${version}` };
  const meta = { created_by: CREATED_BY, catalog_digest: digest, skills: total.skills, files: total.files };
  const [semanticContentType] = await Promise.all([
    createIndex(client, target.skills, definitions.skills, meta, options.semanticContent ?? 'auto'),
    createIndex(client, target.files, definitions.files, meta, 'text'),
  ]);
  job.log(`writing ${total.skills} skill(s) and ${total.files} file(s) into ${target.skills}, ${target.files}`);
  try {
    const failures = await bulkLoad(client, job.operations(), target, total.skills + total.files, options);
    if (failures.length > 0) {
      throw new IngestError(
        `${failures.length} document(s) failed; the aliases still point to the previous catalog`,
        failures,
      );
    }
    await finishLoading(client, target);
    await checkCounts(client, target, total);
    await recordOperations(client, target, meta);
  } catch (err) {
    await deleteIndexes(client, [target.skills, target.files]).catch(() => {});
    throw err;
  }
  return { ...target, semanticContentType };
}

/**
 * Write `catalog` into Elasticsearch: `agent_skills` (one document per skill) and
 * `agent_skill_files` (one per file), into fresh indexes switched in behind the aliases in one
 * atomic call, so readers never see half a catalog. Nothing is written when the live indexes
 * already hold this exact catalog (`changed: false`). Throws {@link IngestError} when a document
 * is refused (the aliases still serve the previous catalog).
 *
 * @example
 * ```ts
 * import { ingestCatalog, loadCatalog } from 'skillpress';
 * const catalog = await loadCatalog('skills');
 * const result = await ingestCatalog(catalog, { connection: { url: 'http://127.0.0.1:9200' } });
 * console.log(result.changed, result.skills, result.files, result.indexes);
 * ```
 */
export async function ingestCatalog(
  catalog: Pick<Catalog, 'skills'>,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const conn = withDefaultUrl(options.connection);
  const client = options.client ?? createClient(conn);
  const log = options.log ?? (() => {});
  try {
    await assertReachable(client, conn);
    const names = indexNames(options.names);
    const definitions = options.definitions ?? (await loadIndexDefinitions(options.configDir));
    const vectorOf = await purposeVectors(definitions, log);
    const operations = (): Generator<IndexOperation> => catalogOperations(catalog.skills, vectorOf);
    const { digest, total } = digestAndCount(operations(), definitions);

    const live = await liveStates(client, names, log);
    if (!options.force && holdsDigest(live, digest)) {
      log(`Elasticsearch already holds this catalog (${digest.slice(0, 19)}…); aliases unchanged`);
      const indexes = { skills: live.skills.indexes[0]!, files: live.files.indexes[0]! };
      // An ingest interrupted since (a crash, a kill) left indexes no alias serves: they go now too.
      const deleted = await deleteLogged(client, await leftoverIndexes(client, names, indexes), log);
      return {
        changed: false,
        skills: total.skills,
        files: total.files,
        indexes,
        deleted,
        digest,
        semanticContentType: await semanticTypeOf(client, live.skills.indexes[0]!),
      };
    }

    const target = await writeNewIndexes(client, { names, definitions, digest, total, operations, options, log });
    const semanticContentType = target.semanticContentType;
    await switchAliases(client, names, target, live);
    const deleted = await deleteOldIndexes(client, names, target, live, log);
    log(`aliases ${names.skills} → ${target.skills}, ${names.files} → ${target.files}`);
    return {
      changed: true,
      skills: total.skills,
      files: total.files,
      indexes: { skills: target.skills, files: target.files },
      deleted,
      digest,
      semanticContentType,
    };
  } catch (err) {
    if (err instanceof IngestError) throw err;
    // Client errors can carry the request URL: never let credentials out.
    const message = redactSecrets(
      err instanceof errors.ConnectionError
        ? `lost Elasticsearch at ${redactUrl(conn.url)} during the ingest (${describeError(err)}): its aliases still serve the previous catalog; ingest again once it is back`
        : err instanceof Error && !(err instanceof errors.ElasticsearchClientError)
          ? err.message
          : describeError(err),
      conn,
    );
    const wrapped = new Error(message);
    if (err instanceof Error) wrapped.name = err.name;
    throw Object.assign(wrapped, { cause: err });
  } finally {
    if (!options.client) await client.close();
  }
}

/**
 * Each skill's purpose vector (the static model's embedding of its name and description, as in
 * the feed's skill vectors), when the mapping has `purpose_vector`; made once per skill and kept
 * for the digest pass and the bulk pass. An unreadable model leaves the field out, and says so.
 */
async function purposeVectors(
  definitions: IndexDefinitions,
  log: (line: string) => void,
): Promise<((skill: Skill) => number[] | undefined) | undefined> {
  if (definitions.skills.mappings.properties.purpose_vector?.type !== 'dense_vector') return undefined;
  const [{ loadEmbedder }, { purposeText }] = await Promise.all([
    import('../../semantic/load.ts'),
    import('../../semantic/skill-vectors.ts'),
  ]);
  const embedder = await loadEmbedder().catch((err: Error) => {
    log(`purpose_vector left out: the meaning model could not be read (${err.message})`);
    return undefined;
  });
  if (!embedder) return undefined;
  const made = new Map<string, number[] | undefined>();
  return (skill) => {
    if (!made.has(skill.id)) {
      const v = embedder.embed(purposeText(skill));
      made.set(skill.id, v.some((x) => x !== 0) ? Array.from(v, (x) => Math.round(x * 1e6) / 1e6) : undefined);
    }
    return made.get(skill.id);
  };
}

/**
 * sha256 over the index definitions and every document in their stable order, and the number
 * of documents per index, in one pass over the documents. A file's content is represented by
 * its sha256 and encoding (which determine it), so the digest stays cheap for large catalogs.
 */
function digestAndCount(
  operations: Iterable<IndexOperation>,
  definitions: IndexDefinitions,
): { digest: string; total: { skills: number; files: number } } {
  const hash = createHash('sha256');
  const total = { skills: 0, files: 0 };
  hash.update(JSON.stringify(definitions));
  for (const op of operations) {
    total[op.target]++;
    const doc = op.target === 'files' ? { ...op.doc, file_content: undefined } : op.doc;
    hash.update(`\n${op.target}\0${op.id}\0${JSON.stringify(doc)}`);
  }
  return { digest: `sha256:${hash.digest('hex')}`, total };
}

/** Sortable, lowercase and unique enough: 20261121t221500123-a1b2. */
function versionSuffix(): string {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '').toLowerCase().replace('z', '');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** Both aliases' live state; a drift (an index written to since it was loaded) is said. */
async function liveStates(
  client: Client,
  names: IndexNames,
  log: (line: string) => void,
): Promise<{ skills: LiveState; files: LiveState }> {
  const [skills, files] = await Promise.all([liveState(client, names.skills), liveState(client, names.files)]);
  for (const drift of [skills.drift, files.drift]) if (drift) log(`${drift}; loading the catalog again`);
  return { skills, files };
}

async function liveState(client: Client, alias: string): Promise<LiveState> {
  const exists = await client.indices.exists({ index: alias });
  if (!exists) return { indexes: [], concrete: false };
  const aliased = await client.indices.getAlias({ name: alias }, { ignore: [404] });
  const indexes = Object.keys(aliased ?? {}).filter((name) => name !== 'error' && name !== 'status');
  if (indexes.length === 0) return { indexes: [alias], concrete: true };
  const mappings = await client.indices.getMapping({ index: indexes });
  const metas = Object.entries(mappings).map(
    ([index, m]) => [index, m.mappings._meta as LoadedMeta | undefined] as const,
  );
  const digests = new Set(metas.map(([, meta]) => meta?.catalog_digest));
  const drift = await driftOf(client, metas);
  if (drift) return { indexes, concrete: false, drift };
  return { indexes, concrete: false, digest: digests.size === 1 ? [...digests][0] : undefined };
}

/** What ingest records in an index's `_meta`. */
interface LoadedMeta {
  catalog_digest?: string;
  /** Write operations the index had taken when skillpress finished loading it. */
  operations?: number;
}

/**
 * Write operations an index has taken: over its primary shards, the highest sequence number
 * plus one. Every index, update or delete of a document takes one, and the count survives
 * restarts; so a document edited, added or deleted after the load shows as more operations.
 */
async function writeOperations(client: Client, index: string): Promise<number> {
  const stats = await client.indices.stats({ index, level: 'shards', metric: 'docs' });
  const shards = Object.values(stats.indices ?? {})[0]?.shards ?? {};
  let total = 0;
  for (const copies of Object.values(shards) as Array<
    Array<{ routing?: { primary?: boolean }; seq_no?: { max_seq_no?: number } }>
  >) {
    const primary = copies.find((c) => c.routing?.primary);
    total += (primary?.seq_no?.max_seq_no ?? -1) + 1;
  }
  return total;
}

/** Record in each loaded index how many write operations it had taken, for `driftOf`. */
async function recordOperations(client: Client, target: IndexNames, meta: Record<string, unknown>): Promise<void> {
  for (const index of [target.skills, target.files]) {
    const operations = await writeOperations(client, index);
    await client.indices.putMapping({ index, _meta: { ...meta, operations } });
  }
}

/**
 * Why the live indexes are not what skillpress loaded (a document edited, added or deleted in
 * place since, or an index loaded before this check existed); undefined when they are.
 */
async function driftOf(
  client: Client,
  metas: ReadonlyArray<readonly [string, LoadedMeta | undefined]>,
): Promise<string | undefined> {
  for (const [index, meta] of metas) {
    if (meta?.catalog_digest === undefined) continue;
    if (meta.operations === undefined)
      return `Elasticsearch: ${index} records no write count (loaded by an older skillpress)`;
    const now = await writeOperations(client, index);
    if (now !== meta.operations)
      return `Elasticsearch: ${index} was written to since skillpress loaded it (${now - meta.operations} write operation(s) since)`;
  }
  return undefined;
}

async function semanticTypeOf(client: Client, index: string): Promise<'semantic_text' | 'text'> {
  const mappings = await client.indices.getMapping({ index });
  const field = Object.values(mappings)[0]?.mappings.properties?.semantic_content as { type?: string } | undefined;
  return field?.type === 'semantic_text' ? 'semantic_text' : 'text';
}

/**
 * Create one index. `semantic_content` is semantic_text where
 * the cluster can (the inference plugin is there) and falls back to text where it cannot.
 */
async function createIndex(
  client: Client,
  index: string,
  definition: IndexDefinition,
  meta: Record<string, unknown>,
  semantic: 'auto' | 'text',
): Promise<'semantic_text' | 'text'> {
  const create = (def: IndexDefinition) =>
    client.indices.create({
      index,
      settings: def.settings,
      mappings: { ...def.mappings, _meta: meta } as never,
    });
  const hasSemantic = Object.values(definition.mappings.properties).some((f) => f.type === 'semantic_text');
  if (!hasSemantic) {
    await create(definition);
    return 'text';
  }
  if (semantic === 'text') {
    await create(withoutSemanticText(definition));
    return 'text';
  }
  try {
    await create(definition);
    return 'semantic_text';
  } catch (err) {
    const noSemanticText =
      err instanceof errors.ResponseError &&
      /\[semantic_text\].*does not exist|semantic_text/.test(JSON.stringify(err.meta.body)) &&
      err.meta.statusCode === 400;
    if (!noSemanticText) throw err;
    await create(withoutSemanticText(definition));
    return 'text';
  }
}

async function bulkLoad(
  client: Client,
  operations: Iterable<IndexOperation>,
  target: IndexNames,
  total: number,
  options: IngestOptions,
): Promise<DocumentFailure[]> {
  const failures: DocumentFailure[] = [];
  let done = 0;
  options.onProgress?.(0, total);
  const stats = await client.helpers.bulk<IndexOperation>({
    datasource: (async function* () {
      yield* operations;
    })(),
    onDocument: (op) => [{ index: { _index: target[op.target], _id: op.id } }, op.doc],
    onDrop: (dropped) => {
      // `document` is the sent source; the action line carries index and id.
      const action = (dropped.operation as { index?: { _index?: string; _id?: string } }).index ?? {};
      const e = dropped.error;
      failures.push({
        index: action._index ?? '?',
        id: action._id ?? '?',
        status: dropped.status,
        error: e
          ? `${e.type}: ${e.reason ?? ''}${e.caused_by?.reason ? ` (${e.caused_by.reason})` : ''}`
          : 'unknown error',
      });
    },
    onSuccess: () => {
      done++;
      options.onProgress?.(done, total);
    },
    flushBytes: options.flushBytes ?? 5_000_000,
    concurrency: options.concurrency ?? 3,
    retries: 3,
    wait: 1000,
    refreshOnCompletion: false,
  });
  // helpers.bulk resolves even when items fail: the stats must account for every document.
  if (failures.length === 0 && (stats.failed > 0 || stats.successful !== total || stats.aborted)) {
    failures.push({
      index: `${target.skills},${target.files}`,
      id: '*',
      status: 0,
      error: `bulk stats: ${stats.successful} of ${total} indexed, ${stats.failed} failed${stats.aborted ? ', aborted' : ''}`,
    });
  }
  return failures;
}

/**
 * Make everything searchable. No refresh_interval juggling during the load: with the default
 * interval, shards nobody searches yet are "search idle" and skip scheduled refreshes anyway.
 */
async function finishLoading(client: Client, target: IndexNames): Promise<void> {
  await client.indices.refresh({ index: [target.skills, target.files] });
}

async function checkCounts(
  client: Client,
  target: IndexNames,
  expected: { skills: number; files: number },
): Promise<void> {
  const counts = await Promise.all(
    (['skills', 'files'] as const).map(
      async (key) => [key, (await client.count({ index: target[key] })).count] as const,
    ),
  );
  for (const [key, count] of counts) {
    if (count !== expected[key]) {
      throw new IngestError(
        `${target[key]} holds ${count} documents, expected ${expected[key]}; the aliases still point to the previous catalog`,
        [],
      );
    }
  }
}

/** One atomic call: both aliases move together, or neither does. */
async function switchAliases(
  client: Client,
  names: IndexNames,
  target: IndexNames,
  live: { skills: LiveState; files: LiveState },
): Promise<void> {
  const actions: Record<string, unknown>[] = [];
  for (const key of ['skills', 'files'] as const) {
    const alias = names[key];
    if (live[key].concrete) {
      // A plain index where the alias must go (the seed's single-index layout): replace it atomically.
      actions.push({ remove_index: { index: alias } });
    } else {
      for (const index of live[key].indexes) actions.push({ remove: { index, alias } });
    }
    actions.push({ add: { index: target[key], alias } });
  }
  await client.indices.updateAliases({ actions });
}

/** Delete what the aliases pointed to before, and versioned indexes left by interrupted ingests. */
async function deleteOldIndexes(
  client: Client,
  names: IndexNames,
  target: IndexNames,
  live: { skills: LiveState; files: LiveState },
  log: (line: string) => void,
): Promise<string[]> {
  const old = new Set<string>(await leftoverIndexes(client, names, target));
  for (const key of ['skills', 'files'] as const)
    if (!live[key].concrete) for (const index of live[key].indexes) old.add(index);
  return deleteLogged(client, [...old], log);
}

/** The versioned indexes skillpress made under `names` that are not `keep`: a previous catalog's, or an interrupted ingest's. */
async function leftoverIndexes(client: Client, names: IndexNames, keep: IndexNames): Promise<string[]> {
  const found: string[] = [];
  for (const key of ['skills', 'files'] as const) {
    const versioned = await client.indices.getMapping({ index: `${names[key]}-*`, expand_wildcards: 'all' });
    for (const [index, { mappings }] of Object.entries(versioned)) {
      const createdByUs = (mappings._meta as { created_by?: string } | undefined)?.created_by === CREATED_BY;
      if (createdByUs && index !== keep[key] && /-\d{8}t\d{9}-[0-9a-f]{4}$/.test(index)) found.push(index);
    }
  }
  return found;
}

/** Deletes `list`; a failure is a warning (the aliases already serve the catalog), and nothing is said deleted. */
async function deleteLogged(client: Client, list: string[], log: (line: string) => void): Promise<string[]> {
  try {
    await deleteIndexes(client, list);
  } catch (err) {
    log(`warning: could not delete old indexes ${list.join(', ')}: ${describeError(err)}`);
    return [];
  }
  return list;
}

async function deleteIndexes(client: Client, indexes: string[]): Promise<void> {
  if (indexes.length > 0) await client.indices.delete({ index: indexes, ignore_unavailable: true });
}
