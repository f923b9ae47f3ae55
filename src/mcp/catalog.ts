/**
 * One loaded snapshot of a feed: what the server answers from. index.json, cards.json and
 * search.json are read (and checked against the index's digests) when it loads; the body index
 * is read on first use, changes.json's tombstones on the first name that is missing, skill JSONs and files on demand (with a small cache). A rebuild produces
 * a new snapshot; the old one keeps serving until the new one has loaded completely.
 *
 * Memory: a snapshot keeps only what the tools need — a compact card per skill (no digest or
 * links), and per skill its JSON's URL and digest (packed) — not the parsed index.json or
 * cards.json, which are garbage once loaded.
 */
import { z } from 'zod';
import { Card, Cards, Changes, FeedIndex, FeedSkill, type FeedFile } from '../model/feed.ts';
import { BODY_INDEX_FILE, SEARCH_FILE, SkillSearch } from '../search/index.ts';
import { resolveFeedPath, type FeedStore } from '../feed-reader/index.ts';
import { checkSchema, parseJson } from '../lib/json.ts';
import { USAGE_VERSION } from '../model/usage.ts';
import type { SkillVectors } from '../semantic/skill-vectors.ts';
import { errorMessage } from '../lib/errors.ts';
import { nearNames } from '../lib/near-names.ts';
import { withoutSkillDirPlaceholder } from '../lib/paths.ts';

const SKILL_CACHE_SIZE = 256;

/** What tools, prompts and the skills extension show of a skill: its card without digest and links. */
export type CatalogCard = Pick<
  Card,
  'id' | 'name' | 'description' | 'tags' | 'domain' | 'version' | 'registry' | 'updated_at' | 'tokens' | 'invocation'
> & {
  /** From the card's usage figures (a version this server reads): what ranking uses of them. */
  uses?: number;
  success_rate?: number;
};

/** A skill or file the agent named that is not in the feed; the message says what to do next. */
export class NotFoundError extends Error {}

/** cards.json with its skills left unparsed: each card is checked on its own, so zod never copies the whole list at once. */
const CardsHead = Cards.extend({ skills: z.array(z.unknown()) });

/**
 * One loaded snapshot of a feed, as the MCP server answers from it: the cards, the search index,
 * and each skill's JSON and files read (and checked) on demand.
 *
 * @example
 * ```ts
 * import { FeedCatalog, openFeedStore } from 'skillpress';
 * const catalog = await FeedCatalog.load(await openFeedStore('dist'));
 * const card = catalog.requireCard('pdf-tools');
 * const { file, bytes } = await catalog.file(card, 'SKILL.md');
 * console.log(file.sha256, bytes.toString('utf8'));
 * ```
 */
export class FeedCatalog {
  readonly store: FeedStore;
  /** sha256 of index.json's bytes: changes whenever anything in the feed changes. */
  readonly version: string;
  /** Every card, sorted by name. */
  readonly cards: readonly CatalogCard[];
  readonly search: SkillSearch;
  #byId = new Map<string, CatalogCard>();
  #byName = new Map<string, CatalogCard>();
  /** Skill JSONs: id → slot in #skillUrls and #skillDigests (32 raw bytes of sha256 per slot). */
  #skillSlots = new Map<string, number>();
  #skillUrls: string[];
  #skillDigests: Buffer;
  /** Each skill's content digest (the card's `digest`), 32 raw bytes per slot: usage events name what was used. */
  #contentDigests: Buffer;
  #skills = new Map<string, Promise<FeedSkill>>();
  #body: Promise<void> | undefined;
  #meaning: Promise<SkillVectors> | undefined;
  #bodyPart: { path: string; sha256: string } | undefined;
  #vectorsPart: { path: string; sha256: string } | undefined;
  #changesPart: { path: string; sha256: string } | undefined;
  /** The feed's tombstones (id → when it was removed), read on the first missing name. */
  #removed: Promise<ReadonlyMap<string, string>> | undefined;
  /**
   * Why a skill the feed does not serve is missing, when the server knows better than the feed
   * (`mcp --skills` has the config: a disabled skill is not "removed").
   */
  whyMissing: ((name: string) => string | undefined) | undefined;

  private constructor(store: FeedStore, index: FeedIndex, version: string, cards: CatalogCard[], search: SkillSearch) {
    this.store = store;
    this.version = version;
    this.cards = cards.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    this.search = search;
    for (const card of this.cards) {
      this.#byId.set(card.id, card);
      // Local skills win a name shared with an imported one.
      if (!this.#byName.has(card.name) || card.id === card.name) this.#byName.set(card.name, card);
    }
    this.#skillUrls = new Array<string>(index.skills.length);
    this.#skillDigests = Buffer.alloc(index.skills.length * 32);
    this.#contentDigests = Buffer.alloc(index.skills.length * 32);
    index.skills.forEach((ref, slot) => {
      this.#skillSlots.set(ref.id, slot);
      this.#skillUrls[slot] = ref.url;
      this.#skillDigests.write(ref.sha256, slot * 32, 32, 'hex');
      this.#contentDigests.write(ref.digest.slice('sha256:'.length), slot * 32, 32, 'hex');
    });
    this.#bodyPart = part(index, 'search_body', BODY_INDEX_FILE);
    this.#vectorsPart = index.parts.skill_vectors && part(index, 'skill_vectors', 'skill-vectors.bin');
    this.#changesPart = part(index, 'changes', 'changes.json');
  }

  static async load(store: FeedStore): Promise<FeedCatalog> {
    const indexFile = await store.readIndex();
    const index = parseJson(indexFile.text, FeedIndex, 'index.json');
    const cardsPart = part(index, 'cards', 'cards.json');
    const searchPart = part(index, 'search', SEARCH_FILE);
    if (!cardsPart || !searchPart)
      throw new Error(`${store.location}: index.json lists no cards.json or ${SEARCH_FILE} part`);
    // One big file at a time, each dropped once parsed: the heap never holds two of them raw.
    const cards = compactCards(await store.readText(cardsPart.path, cardsPart.sha256));
    const search = SkillSearch.load(await store.readText(searchPart.path, searchPart.sha256));
    return new FeedCatalog(store, index, indexFile.sha256, shareStrings(cards, search), search);
  }

  /** A card by id or name. */
  card(name: string): CatalogCard | undefined {
    return this.#byId.get(name) ?? this.#byName.get(name);
  }

  /** Like `card`, but a missing skill is a NotFoundError that tells the agent how to recover. */
  requireCard(name: string): CatalogCard {
    const card = this.card(name);
    if (!card) throw this.#notFound(name);
    return card;
  }

  /**
   * Like `requireCard`, and a skill the feed removed is a NotFoundError saying so and when (its
   * tombstone in changes.json, read on the first missing name: an agent that remembered the
   * name stops looking for it under another spelling).
   *
   * @example
   * ```ts
   * import { FeedCatalog, openFeedStore } from 'skillpress';
   * const catalog = await FeedCatalog.load(await openFeedStore('dist'));
   * const card = await catalog.lookupCard('pdf-tools'); // or: Skill "pdf-tools" was removed from this catalog at …
   * console.log(card.description);
   * ```
   */
  async lookupCard(name: string): Promise<CatalogCard> {
    const card = this.card(name);
    if (card) return card;
    const why = this.whyMissing?.(name);
    if (why) throw new NotFoundError(`${why} Use skills_search to find another skill for the task.`);
    this.#removed ??= removedSkills(this.store, this.#changesPart);
    const removedAt = (await this.#removed).get(name);
    if (!removedAt) throw this.#notFound(name);
    throw new NotFoundError(
      `Skill "${name}" was removed from this catalog at ${removedAt}. Use skills_search to find another skill for the task.`,
    );
  }

  #notFound(name: string): NotFoundError {
    const near = nearNames(name, this.#byName.keys());
    const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
    return new NotFoundError(`Skill "${name}" not found.${hint} Use skills_search to find the correct name.`);
  }

  /** The skill's content digest (`sha256:<hex>`), as its card gives it. */
  digest(card: CatalogCard): string | undefined {
    const slot = this.#skillSlots.get(card.id);
    return slot === undefined ? undefined : `sha256:${this.#contentDigests.toString('hex', slot * 32, slot * 32 + 32)}`;
  }

  /** The full skill (level 2 and 3), read on demand and checked against the index's digest. */
  skill(card: CatalogCard): Promise<FeedSkill> {
    let pending = this.#skills.get(card.id);
    if (!pending) {
      const ref = this.#skillRef(card);
      if (!ref) return Promise.reject(new Error(`index.json lists no JSON for skill "${card.id}"`));
      const { path, sha256 } = ref;
      pending = this.store.read(path, sha256).then((bytes) => parseJson(bytes, FeedSkill, path));
      pending.catch(() => this.#skills.delete(card.id));
      this.#skills.set(card.id, pending);
      if (this.#skills.size > SKILL_CACHE_SIZE) this.#skills.delete(this.#skills.keys().next().value!);
    }
    return pending;
  }

  /**
   * One file of a skill, by its path in the skill's manifest (`{baseDir}/x`, as SKILL.md may
   * write it, is `x`); nothing outside the manifest is read.
   */
  async file(card: CatalogCard, asked: string): Promise<{ file: FeedFile; bytes: Buffer }> {
    const skill = await this.skill(card);
    const path = withoutSkillDirPlaceholder(asked);
    const file = skill.files.find((f) => f.path === path);
    if (!file) {
      throw new NotFoundError(`File "${asked}" not found in skill "${card.name}". Use view_skill to list its files.`);
    }
    if (file.skipped || !file.url) {
      throw new NotFoundError(
        `File "${asked}" of skill "${card.name}" is not published (${file.skipped?.reason ?? 'no content'}).`,
      );
    }
    return { file, bytes: await this.store.read(resolveFeedPath('', file.url), file.sha256) };
  }

  /**
   * What a search excerpt needs of a skill that matched only in its body or file paths. Read
   * like `skill` (digest checked) but only these two fields are checked, not the whole skill
   * against its schema: on the search path that is rare work, and it costs a millisecond while
   * the JIT has not compiled the schema's code.
   */
  async excerptSource(card: CatalogCard): Promise<{ body: string; paths: string[] }> {
    const cached = this.#skills.get(card.id);
    const skill: unknown = cached ? await cached : await this.#readSkillJson(card);
    const { body, files } = (skill ?? {}) as { body?: unknown; files?: unknown };
    const paths = Array.isArray(files)
      ? files.map((f: { path?: unknown } | null) => f?.path).filter((p): p is string => typeof p === 'string')
      : [];
    return { body: typeof body === 'string' ? body : '', paths };
  }

  async #readSkillJson(card: CatalogCard): Promise<unknown> {
    const ref = this.#skillRef(card);
    if (!ref) throw new Error(`index.json lists no JSON for skill "${card.id}"`);
    const bytes = await this.store.read(ref.path, ref.sha256);
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      throw new Error(`${ref.path}: not JSON (${errorMessage(err)})`, { cause: err });
    }
  }

  #skillRef(card: CatalogCard): { path: string; sha256: string } | undefined {
    const slot = this.#skillSlots.get(card.id);
    if (slot === undefined) return undefined;
    return {
      path: resolveFeedPath('', this.#skillUrls[slot]!),
      sha256: this.#skillDigests.toString('hex', slot * 32, slot * 32 + 32),
    };
  }

  /** Full-text search needs the body index; it is read once, on first use. */
  loadBodyIndex(): Promise<void> {
    if (!this.#body) {
      const part = this.#bodyPart;
      this.#body = part
        ? this.store.readText(part.path, part.sha256).then((text) => this.search.attachBody(text))
        : Promise.resolve();
      this.#body.catch(() => (this.#body = undefined));
    }
    return this.#body;
  }

  /**
   * Closeness in meaning to what each skill says it is for: the feed's skill vectors (made at
   * build time, digest checked) with the model shipped in the package embedding the requests;
   * for a feed without them, the skills embedded here (about 0.25 ms per skill, yielding to the
   * event loop as it goes). Made once per snapshot, when the server warms up after loading the
   * feed or on the first search, whichever comes first. The model and its tokenizer load only
   * here, never before tools/list is answered.
   */
  meaningIndex(): Promise<SkillVectors> {
    if (!this.#meaning) {
      this.#meaning = this.#readMeaning();
      this.#meaning.catch(() => (this.#meaning = undefined));
    }
    return this.#meaning;
  }

  async #readMeaning(): Promise<SkillVectors> {
    const [{ loadEmbedder }, { SkillVectors }, { decodeSkillVectors }] = await Promise.all([
      import('../semantic/load.ts'),
      import('../semantic/skill-vectors.ts'),
      import('../semantic/feed-vectors.ts'),
    ]);
    const embedder = await loadEmbedder();
    const vectors = this.#vectorsPart;
    if (!vectors) return SkillVectors.build(embedder, this.cards);
    const signs = decodeSkillVectors(await this.store.read(vectors.path, vectors.sha256), vectors.path);
    if (signs.dims !== embedder.dims)
      throw new Error(`${vectors.path}: vectors of ${signs.dims} dimensions, the model makes ${embedder.dims}`);
    return SkillVectors.fromSigns(embedder, this.search.ids, signs);
  }
}

/** A part of the feed by its key in index.json (or, failing that, by its file name). URLs are relative to the feed root. */
function part(index: FeedIndex, key: string, file: string): { path: string; sha256: string } | undefined {
  const found = index.parts[key] ?? Object.values(index.parts).find((p) => resolveFeedPath('', p.url) === file);
  return found ? { path: resolveFeedPath('', found.url), sha256: found.sha256 } : undefined;
}

/**
 * changes.json's tombstones (id → when removed). It explains a missing name and nothing else: a
 * feed without it, or one that cannot be read, only loses that explanation.
 */
async function removedSkills(
  store: FeedStore,
  changesPart: { path: string; sha256: string } | undefined,
): Promise<Map<string, string>> {
  if (!changesPart) return new Map();
  try {
    const { changes } = parseJson(await store.readText(changesPart.path, changesPart.sha256), Changes, 'changes.json');
    return new Map(changes.filter((c) => c.change === 'removed').map((c) => [c.id, c.at]));
  } catch {
    return new Map();
  }
}

/** cards.json → compact cards, checking each card against the Card schema (errors name `skills.<i>.<field>`). */
function compactCards(text: string): CatalogCard[] {
  const { skills } = parseJson(text, CardsHead, 'cards.json');
  const out = new Array<CatalogCard>(skills.length);
  for (let i = 0; i < skills.length; i++) {
    const c = checkSchema(skills[i], Card, 'cards.json', `skills.${i}`);
    const card: CatalogCard = {
      id: c.id,
      name: c.name === c.id ? c.id : c.name,
      description: c.description,
      tags: c.tags,
      registry: c.registry,
      updated_at: c.updated_at,
      tokens: c.tokens,
    };
    if (c.domain !== undefined) card.domain = c.domain;
    if (c.version !== undefined) card.version = c.version;
    if (c.invocation !== undefined) card.invocation = c.invocation;
    if (c.usage?.usage_version === USAGE_VERSION) {
      card.uses = c.usage.usage_count;
      if (c.usage.success_rate !== undefined) card.success_rate = c.usage.success_rate;
    }
    out[i] = card;
  }
  return out;
}

/**
 * The search index stores the same name, description, tags, domain, version and registry: cards
 * point at its strings (and share one copy of each repeated tag, domain and version) instead of
 * holding their own.
 */
function shareStrings(cards: CatalogCard[], search: SkillSearch): CatalogCard[] {
  const pool = new Map<string, string>();
  const intern = (s: string): string => {
    const known = pool.get(s);
    if (known !== undefined) return known;
    pool.set(s, s);
    return s;
  };
  for (const card of cards) {
    const doc = search.doc(card.id);
    if (doc?.description === card.description) card.description = doc.description;
    if (doc?.name === card.name) card.name = doc.name;
    card.tags = card.tags.map(intern);
    card.registry = intern(card.registry);
    if (card.domain !== undefined) card.domain = intern(card.domain);
    if (card.version !== undefined) card.version = intern(card.version);
  }
  return cards;
}
