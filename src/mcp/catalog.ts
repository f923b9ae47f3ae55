/**
 * One loaded snapshot of a feed: what the server answers from. index.json, cards.json and
 * search.json are read (and checked against the index's digests) when it loads; the body index
 * is read on first use, skill JSONs and files on demand (with a small cache). A rebuild produces
 * a new snapshot; the old one keeps serving until the new one has loaded completely.
 */
import { Cards, FeedIndex, FeedSkill, type Card, type FeedFile } from '../model/feed.ts';
import { sha256Hex } from '../lib/hash.ts';
import { BODY_INDEX_FILE, SEARCH_FILE, SkillSearch } from '../search/index.ts';
import { resolveFeedPath } from './feed/paths.ts';
import type { FeedStore } from './feed/store.ts';

const SKILL_CACHE_SIZE = 256;

/** A skill or file the agent named that is not in the feed; the message says what to do next. */
export class NotFoundError extends Error {}

export class FeedCatalog {
  readonly store: FeedStore;
  readonly index: FeedIndex;
  /** sha256 of index.json's bytes: changes whenever anything in the feed changes. */
  readonly version: string;
  /** Every card, sorted by name. */
  readonly cards: readonly Card[];
  readonly search: SkillSearch;
  #byId = new Map<string, Card>();
  #byName = new Map<string, Card>();
  #skillRefs = new Map<string, { path: string; sha256: string }>();
  #skills = new Map<string, Promise<FeedSkill>>();
  #body: Promise<void> | undefined;
  #bodyPart: { path: string; sha256: string } | undefined;

  private constructor(store: FeedStore, index: FeedIndex, version: string, cards: Card[], search: SkillSearch) {
    this.store = store;
    this.index = index;
    this.version = version;
    this.cards = cards.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    this.search = search;
    for (const card of this.cards) {
      this.#byId.set(card.id, card);
      // Local skills win a name shared with an imported one.
      if (!this.#byName.has(card.name) || card.id === card.name) this.#byName.set(card.name, card);
    }
    for (const ref of index.skills) this.#skillRefs.set(ref.id, { path: resolveFeedPath('', ref.url), sha256: ref.sha256 });
    this.#bodyPart = part(index, 'search_body', BODY_INDEX_FILE);
  }

  static async load(store: FeedStore): Promise<FeedCatalog> {
    const indexBytes = await store.readIndex();
    const index = parseJson(FeedIndex, indexBytes, 'index.json');
    const cardsPart = part(index, 'cards', 'cards.json');
    const searchPart = part(index, 'search', SEARCH_FILE);
    if (!cardsPart || !searchPart) throw new Error(`${store.location}: index.json lists no cards.json or ${SEARCH_FILE} part`);
    const [cardsBytes, searchBytes] = await Promise.all([
      store.read(cardsPart.path, cardsPart.sha256),
      store.read(searchPart.path, searchPart.sha256),
    ]);
    const cards = parseJson(Cards, cardsBytes, 'cards.json').skills;
    const search = SkillSearch.load(searchBytes.toString('utf8'));
    return new FeedCatalog(store, index, sha256Hex(indexBytes), cards, search);
  }

  /** A card by id or name. */
  card(name: string): Card | undefined {
    return this.#byId.get(name) ?? this.#byName.get(name);
  }

  /** Like `card`, but a missing skill is a NotFoundError that tells the agent how to recover. */
  requireCard(name: string): Card {
    const card = this.card(name);
    if (!card) throw new NotFoundError(`Skill "${name}" not found. Use skills_search to find the correct name.`);
    return card;
  }

  /** The full skill (level 2 and 3), read on demand and checked against the index's digest. */
  skill(card: Card): Promise<FeedSkill> {
    let pending = this.#skills.get(card.id);
    if (!pending) {
      const ref = this.#skillRefs.get(card.id);
      if (!ref) return Promise.reject(new Error(`index.json lists no JSON for skill "${card.id}"`));
      pending = this.store.read(ref.path, ref.sha256).then((bytes) => parseJson(FeedSkill, bytes, ref.path));
      pending.catch(() => this.#skills.delete(card.id));
      this.#skills.set(card.id, pending);
      if (this.#skills.size > SKILL_CACHE_SIZE) this.#skills.delete(this.#skills.keys().next().value!);
    }
    return pending;
  }

  /** One file of a skill, by its path in the skill's manifest; nothing outside the manifest is read. */
  async file(card: Card, path: string): Promise<{ file: FeedFile; bytes: Buffer }> {
    const skill = await this.skill(card);
    const file = skill.files.find((f) => f.path === path);
    if (!file) {
      throw new NotFoundError(`File "${path}" not found in skill "${card.name}". Use view_skill to list its files.`);
    }
    if (file.skipped || !file.url) {
      throw new NotFoundError(`File "${path}" of skill "${card.name}" is not published (${file.skipped?.reason ?? 'no content'}).`);
    }
    return { file, bytes: await this.store.read(resolveFeedPath('', file.url), file.sha256) };
  }

  /** Full-text search needs the body index; it is read once, on first use. */
  loadBodyIndex(): Promise<void> {
    if (!this.#body) {
      const part = this.#bodyPart;
      this.#body = part
        ? this.store.read(part.path, part.sha256).then((bytes) => this.search.attachBody(bytes.toString('utf8')))
        : Promise.resolve();
      this.#body.catch(() => (this.#body = undefined));
    }
    return this.#body;
  }
}

/** A part of the feed by its key in index.json (or, failing that, by its file name). URLs are relative to the feed root. */
function part(index: FeedIndex, key: string, file: string): { path: string; sha256: string } | undefined {
  const found = index.parts[key] ?? Object.values(index.parts).find((p) => resolveFeedPath('', p.url) === file);
  return found ? { path: resolveFeedPath('', found.url), sha256: found.sha256 } : undefined;
}

function parseJson<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, bytes: Buffer, what: string): T {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(`${what}: not JSON (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${what}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
