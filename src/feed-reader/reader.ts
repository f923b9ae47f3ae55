/**
 * FeedReader: a feed (v1) read through a FeedStore, every byte checked against the digest its
 * parent lists. index.json is the root of trust: parts (cards, changes) and skill JSONs must
 * match the sha256 it gives, every file the sha256 its skill JSON gives, and a skill's files
 * together the content digest of its index entry and card. Feed URLs must stay inside the feed
 * (paths.ts); file paths must be publishable (src/lib/paths.ts) and form a tree.
 *
 * Errors are the typed errors of src/lib/errors.ts, with a `rule`:
 *   IntegrityError    digest-mismatch
 *   UnsafePathError   unsafe-path, leaves-feed
 *   InvalidInputError invalid-json, schema, too-deep, too-large, inconsistent, invalid-name
 *   NetworkError      timeout, too-large, redirect, http-status, network (URL feeds)
 *   NotFoundError     not-found (listed, but not there), missing-part; none for a skill the index does not list
 */
import type { z } from 'zod';
import { Cards, Changes, FeedIndex, FeedSkill, type FeedFile } from '../model/feed.ts';
import { checkName, skillDigest } from '../load/index.ts';
import { InvalidInputError, IntegrityError, NotFoundError, UnsafePathError, errorMessage } from '../lib/errors.ts';
import { checkSchema, parseJson, parseJsonText } from '../lib/json.ts';
import { fileTreeProblem, pathProblem, quotePath } from '../lib/paths.ts';
import { pMap } from '../lib/p-map.ts';
import { resolveFeedPath } from './paths.ts';
import type { FeedStore } from './store.ts';

export type IndexEntry = FeedIndex['skills'][number];

/** One file of a skill as the feed lists it, with its verified bytes (none when the feed skips it). */
export interface VerifiedFile {
  file: FeedFile;
  bytes?: Buffer;
}

/** A skill JSON and every file it lists, all verified. */
export interface VerifiedSkill {
  entry: IndexEntry;
  skill: FeedSkill;
  files: VerifiedFile[];
}

export interface FeedReaderOptions {
  /** Most bytes of one JSON document (skill JSON, cards.json), checked before parsing (default 16 MiB). */
  maxJsonBytes?: number;
  /** Files of one skill read at once (default 4). */
  concurrency?: number;
}

const DEFAULT_MAX_JSON_BYTES = 16 * 1024 * 1024;

export class FeedReader {
  readonly store: FeedStore;
  readonly index: FeedIndex;
  /** sha256 of index.json's bytes: changes whenever anything in the feed changes. */
  readonly version: string;
  #options: FeedReaderOptions;

  private constructor(store: FeedStore, index: FeedIndex, version: string, options: FeedReaderOptions) {
    this.store = store;
    this.index = index;
    this.version = version;
    this.#options = options;
  }

  /** Reads and checks index.json of an opened store. */
  static async open(store: FeedStore, options: FeedReaderOptions = {}): Promise<FeedReader> {
    const { text, sha256 } = await store.readIndex();
    const index = parseJson(text, FeedIndex, `${store.location}: index.json`, {
      maxBytes: options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES,
    });
    return new FeedReader(store, index, sha256, options);
  }

  get location(): string {
    return this.store.location;
  }

  /** The index entry of skill `id`, if the feed lists it. */
  entry(id: string): IndexEntry | undefined {
    return this.index.skills.find((s) => s.id === id);
  }

  /** cards.json, verified and checked; a NotFoundError when the index lists no cards part. */
  async cards(): Promise<Cards> {
    return this.#part('cards', Cards);
  }

  /** changes.json, or undefined when the index lists none. */
  async changes(): Promise<Changes | undefined> {
    return this.index.parts.changes ? this.#part('changes', Changes) : undefined;
  }

  /** The skill JSON of an index entry, verified against the index and checked against the schema. */
  async skill(entry: IndexEntry): Promise<FeedSkill> {
    const problems = checkName(entry.id, undefined);
    if (problems.length > 0)
      throw new InvalidInputError(`skill id ${quotePath(entry.id)}: ${problems.map((p) => p.message).join('; ')}`, {
        rule: 'invalid-name',
      });
    const feedPath = this.#feedPath(entry.url, `skill URL of "${entry.id}"`);
    const bytes = await this.store.read(feedPath, entry.sha256);
    const skill = parseJson(bytes, FeedSkill, `${this.location}: ${feedPath}`, { maxBytes: this.#maxJsonBytes() });
    if (skill.card.id !== entry.id) {
      throw new InvalidInputError(
        `${feedPath} is the skill "${skill.card.id}", but index.json lists it as "${entry.id}"`,
        { rule: 'inconsistent' },
      );
    }
    return skill;
  }

  /**
   * Every file `skill` lists, each read and verified; their content digest must be the one the
   * index entry and the card give. Paths and URLs are all checked before anything is read.
   */
  async files(entry: IndexEntry, skill: FeedSkill): Promise<VerifiedFile[]> {
    const planned = this.#plan(skill);
    const files = await pMap(
      planned,
      async ({ file, feedPath }): Promise<VerifiedFile> =>
        feedPath === undefined ? { file } : { file, bytes: await this.store.read(feedPath, file.sha256, file.size) },
      this.#options.concurrency ?? 4,
    );
    const digest = skillDigest(files.filter((f) => f.bytes).map((f) => f.file));
    if (digest !== entry.digest || digest !== skill.card.digest) {
      throw new IntegrityError(
        `content digest of the files of "${entry.id}" is ${digest}, but the feed lists ${entry.digest}`,
        { rule: 'digest-mismatch' },
      );
    }
    return files;
  }

  /** The skill JSON of `id` and all its files, verified (a NotFoundError when the index does not list it). */
  async readSkill(id: string): Promise<VerifiedSkill> {
    const entry = this.entry(id);
    if (!entry) throw new NotFoundError(`no skill "${id}" in ${this.location}`);
    const skill = await this.skill(entry);
    return { entry, skill, files: await this.files(entry, skill) };
  }

  /** Every file's feed path (none for a skipped file), after checking the paths form a tree and the URLs stay inside the feed. */
  #plan(skill: FeedSkill): Array<{ file: FeedFile; feedPath?: string }> {
    for (const f of skill.files) {
      const problem = pathProblem(f.path);
      if (problem) throw new UnsafePathError(`file ${quotePath(f.path)}: path ${problem}`, { rule: 'unsafe-path' });
    }
    const clash = fileTreeProblem(skill.files.map((f) => f.path));
    if (clash) throw new UnsafePathError(`files of "${skill.card.id}": ${clash}`, { rule: 'unsafe-path' });
    return skill.files.map((file) => {
      if (file.skipped) return { file };
      if (!file.url)
        throw new InvalidInputError(`file ${quotePath(file.path)} has neither a url nor a skip reason`, {
          rule: 'schema',
        });
      return { file, feedPath: this.#feedPath(file.url, `file ${quotePath(file.path)}`) };
    });
  }

  /** A feed URL as a feed path; an UnsafePathError (`leaves-feed`) naming `what` when it leaves the feed. */
  #feedPath(url: string, what: string): string {
    try {
      return resolveFeedPath('', url);
    } catch (err) {
      throw new UnsafePathError(`${what}: ${errorMessage(err)}; feed URLs must stay inside the feed`, {
        rule: 'leaves-feed',
        cause: err,
      });
    }
  }

  async #part<S extends z.ZodType>(key: string, schema: S): Promise<z.infer<S>> {
    const part = this.index.parts[key];
    if (!part) throw new NotFoundError(`${this.location}: index.json lists no "${key}" part`, { rule: 'missing-part' });
    const feedPath = this.#feedPath(part.url, `"${key}" part`);
    const text = await this.store.readText(feedPath, part.sha256);
    // Parts grow with the catalog (cards.json: ~1 KB a skill): bounded by the store's byte cap, not the JSON one.
    const where = `${this.location}: ${feedPath}`;
    return checkSchema(parseJsonText(text, where), schema, where);
  }

  #maxJsonBytes(): number {
    return this.#options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  }
}
