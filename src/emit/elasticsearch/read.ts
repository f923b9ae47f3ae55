/**
 * Reading skills back from Elasticsearch alone: the seed's two-index lookup, done in one
 * `_msearch` round trip (metadata + the first page of files), then more pages only for skills
 * with many files.
 */
import type { Client } from '@elastic/elasticsearch';
import { fileBytes } from '../../load/read-file.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { IntegrityError } from '../../lib/errors.ts';
import { nearNames } from '../../lib/near-names.ts';
import { indexNames, type IndexNames } from './definitions.ts';
import type { FileDocument, SkillDocument } from './documents.ts';

export interface ReadOptions {
  names?: Partial<IndexNames>;
}

/** The seed's `get_skill_by_id` shape: metadata, every file, and SKILL.md as `skill_markdown`. */
export interface SkillRecord extends SkillDocument {
  /** file_path → file_content as stored (UTF-8 text, or base64 where the entry says so). Skipped files are absent. */
  files: Record<string, string>;
  /** Every file document, skipped ones included, sorted by path. */
  file_entries: FileDocument[];
  /** SKILL.md's content, for backward compatibility with the single-index layout. */
  skill_markdown?: string;
}

export class SkillNotFoundError extends Error {
  readonly skillId: string;
  constructor(skillId: string) {
    super(`skill not found: ${skillId}`);
    this.skillId = skillId;
  }
}

const PAGE = 500;

interface SearchResult<T> {
  hits: { hits: Array<{ _source?: T; sort?: unknown[] }> };
}

function filesQuery(skillId: string, searchAfter?: unknown[]) {
  return {
    query: { term: { skill_id: skillId } },
    sort: [{ file_path: 'asc' as const }],
    size: PAGE,
    track_total_hits: false,
    ...(searchAfter ? { search_after: searchAfter } : {}),
  };
}

function failIfError(response: unknown, index: string): void {
  const error = (response as { error?: { type?: string; reason?: string } }).error;
  if (error) throw new Error(`${index}: ${error.type}: ${error.reason}`);
}

/** Pages after the first one, for skills with more than PAGE files. */
async function remainingFiles(
  client: Client,
  index: string,
  skillId: string,
  first: SearchResult<FileDocument>,
): Promise<FileDocument[]> {
  const files = first.hits.hits.map((h) => h._source!);
  let page = first.hits.hits;
  while (page.length === PAGE) {
    const next = await client.search<FileDocument>({ index, ...filesQuery(skillId, page[page.length - 1]!.sort) });
    page = next.hits.hits;
    files.push(...page.map((h) => h._source!));
  }
  return files;
}

/**
 * Every file document of a skill, sorted by path; empty when the skill has none or is unknown.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillFiles } from 'skillpress';
 * const client = await elasticsearchClient();
 * for (const f of await getSkillFiles(client, 'pdf-tools')) console.log(f.file_path, f.sha256);
 * await client.close();
 * ```
 */
export async function getSkillFiles(
  client: Client,
  skillId: string,
  options: ReadOptions = {},
): Promise<FileDocument[]> {
  const names = indexNames(options.names);
  const first = await client.search<FileDocument>({ index: names.files, ...filesQuery(skillId) });
  return remainingFiles(client, names.files, skillId, first);
}

/**
 * One skill read back from Elasticsearch: its metadata, every file (`files`: path → text, and
 * `file_entries` with encodings and digests) and `skill_markdown`. Throws
 * {@link SkillNotFoundError} for an unknown id.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById } from 'skillpress';
 * const client = await elasticsearchClient({ url: 'http://127.0.0.1:9200' });
 * const skill = await getSkillById(client, 'pdf-tools');
 * console.log(skill.description, Object.keys(skill.files));
 * await client.close();
 * ```
 */
export async function getSkillById(client: Client, skillId: string, options: ReadOptions = {}): Promise<SkillRecord> {
  const names = indexNames(options.names);
  const { responses } = await client.msearch({
    searches: [
      { index: names.skills },
      { query: { term: { skill_id: skillId } }, size: 1 },
      { index: names.files },
      filesQuery(skillId),
    ],
  });
  failIfError(responses[0], names.skills);
  failIfError(responses[1], names.files);
  const meta = (responses[0] as SearchResult<SkillDocument>).hits.hits[0]?._source;
  if (!meta) throw new SkillNotFoundError(skillId);
  const entries = await remainingFiles(client, names.files, skillId, responses[1] as SearchResult<FileDocument>);
  checkStored(entries, names.files);
  // Keyed by file path: a file named "__proto__" is a file like any other.
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const entry of entries) if (entry.file_content !== undefined) files[entry.file_path] = entry.file_content;
  const skillMd = entries.find((e) => e.file_path === 'SKILL.md');
  return {
    ...meta,
    files,
    file_entries: entries,
    ...(skillMd?.file_content !== undefined ? { skill_markdown: fileText(skillMd) } : {}),
  };
}

/** How many ids {@link nearSkillIds} weighs: its query's best-scored hits, not the whole index. */
const NEAR_CANDIDATES = 50;

/**
 * Ids of skills whose name is near `skillId`, for a "did you mean": one bounded query, whose hits
 * `nearNames` ranks and cuts as install and view_skill do.
 */
export async function nearSkillIds(client: Client, skillId: string, options: ReadOptions = {}): Promise<string[]> {
  const response = await client.search<Pick<SkillDocument, 'skill_id'>>({
    index: indexNames(options.names).skills,
    size: NEAR_CANDIDATES,
    _source: ['skill_id'],
    track_total_hits: false,
    query: nearQuery(skillId),
  });
  return nearNames(
    skillId,
    response.hits.hits.map((h) => h._source!.skill_id),
  );
}

/**
 * What nearNames counts as near: a typo of the id, a typo of one of its words, or a word that
 * prefixes a word of the name or is prefixed by one (`pdftk` ~ `pdf-tools`; 3 characters or more).
 */
function nearQuery(skillId: string) {
  const id = skillId.toLowerCase().slice(0, 256);
  const words = id
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3)
    .slice(0, 8);
  // Each word's prefixes as terms: finds the names with a word that prefixes it.
  const prefixes = words.flatMap((w) =>
    Array.from({ length: Math.min(w.length, 40) - 2 }, (_, i) => w.slice(0, i + 3)),
  );
  return {
    bool: {
      should: [
        { fuzzy: { skill_id: { value: id, fuzziness: 'AUTO' } } },
        { match: { name: { query: id, fuzziness: 'AUTO' } } },
        ...words.map((w) => ({ prefix: { name: w } })),
        ...(prefixes.length > 0 ? [{ terms: { name: prefixes } }] : []),
      ],
    },
  };
}

/**
 * Every stored file hashes to the sha256 it was stored with: a document edited in the live
 * index is refused, never handed out as the skill's file.
 */
function checkStored(entries: readonly FileDocument[], index: string): void {
  for (const entry of entries) {
    if (entry.file_content === undefined) continue;
    const actual = sha256Hex(storedBytes(entry));
    if (actual !== entry.sha256) {
      throw new IntegrityError(
        `${index}: ${entry.skill_id}/${entry.file_path} does not hash to its sha256 (${entry.sha256} stored with it, ${actual} now): the index was edited since it was loaded; run skillpress ingest to load the catalog again`,
        { rule: 'digest-mismatch' },
      );
    }
  }
}

/** A stored file's bytes (text is UTF-8, base64 is decoded): the loader's decoding, under the index's field names. */
export function storedBytes(entry: Pick<FileDocument, 'file_content' | 'encoding'>): Buffer {
  return fileBytes({ content: entry.file_content, encoding: entry.encoding });
}

function fileText(entry: FileDocument): string {
  return entry.encoding === 'base64' ? storedBytes(entry).toString('utf8') : entry.file_content!;
}
