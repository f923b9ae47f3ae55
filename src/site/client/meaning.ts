/**
 * Ranking by meaning in the browser, loaded only when a query needs it (three meaningful words
 * or more): the feed's skill vectors (sign bits), the model's manifest with the tokenizer's
 * configuration and its whole vocabulary (src/semantic/site-vocab.ts), then for each query the
 * token shards of its own tokens: one round of requests. The closeness is computed by the same
 * code as the MCP server's (src/semantic), from the same bytes, so the site and `skills_search`
 * rank alike.
 */
import type { MeaningIndex } from '../../search/index.ts';
import { Embedder, type StaticVectors } from '../../semantic/embedder.ts';
import { applyTokenShard, decodeSkillVectors, shardOf, tokenShardFile } from '../../semantic/feed-vectors.ts';
import { SkillVectors } from '../../semantic/skill-vectors.ts';
import type { SiteModelManifest } from '../../semantic/site-model.ts';
import {
  completionIds,
  COMPLETIONS,
  decodeSiteVocab,
  SITE_VOCAB_FILE,
  type SiteVocab,
  withSiteVocab,
  wordBeingTyped,
} from '../../semantic/site-vocab.ts';

interface Loaded {
  vocab: SiteVocab;
  embedder: Embedder;
  vectors: StaticVectors;
  skills: SkillVectors;
  /** Token shards fetched (or being fetched). */
  shards: Map<number, Promise<void>>;
  /** Token shards fetched and applied. */
  applied: Set<number>;
}

export class SiteMeaning {
  readonly #model: string;
  readonly #feed: string;
  readonly #ids: readonly string[];
  #loaded: Promise<Loaded> | undefined;
  /** `#loaded` once it has resolved. */
  #ready: Loaded | undefined;
  /** The last text tokenized, with its token shards: `readyFor` and `forQuery` ask for the same one. */
  #last: { text: string; shards: ReadonlySet<number> } | undefined;

  /** `ids`: the search index's skill ids in its order (that of the feed's skill vectors). */
  constructor(modelUrl: string, feedUrl: string, ids: readonly string[]) {
    this.#model = modelUrl;
    this.#feed = feedUrl;
    this.#ids = ids;
  }

  /** Starts fetching what every query ranked by meaning needs: the skill vectors, the manifest and the vocabulary. */
  warm(): void {
    this.#warm().catch(() => {});
  }

  #warm(): Promise<Loaded> {
    if (!this.#loaded) {
      this.#loaded = this.#load().then((loaded) => (this.#ready = loaded));
      this.#loaded.catch(() => (this.#loaded = undefined));
    }
    return this.#loaded;
  }

  /** The catalog's closeness in meaning, ready for `query` (its tokens' shards fetched). */
  async forQuery(query: string): Promise<MeaningIndex> {
    // Once loaded, without an `await` first: the requests go out before the results by words are drawn.
    const loaded = this.#ready ?? (await this.#warm());
    await this.#shards(loaded, this.#shardsOf(loaded, query));
    return loaded.skills;
  }

  /**
   * The closeness in meaning for `query` without waiting, when its tokens' shards are all here:
   * the results are then drawn once, ranked by meaning, instead of by words first.
   */
  readyFor(query: string): MeaningIndex | undefined {
    const loaded = this.#ready;
    if (!loaded) return undefined;
    for (const shard of this.#shardsOf(loaded, query)) if (!loaded.applied.has(shard)) return undefined;
    return loaded.skills;
  }

  #shardsOf(loaded: Loaded, text: string): ReadonlySet<number> {
    if (this.#last?.text !== text) this.#last = { text, shards: tokenShards(loaded, text) };
    return this.#last.shards;
  }

  /**
   * While a request is typed: fetches the token shards of its finished words, and those of the
   * words its last word can still become once they are few, so that when typing stops little or
   * nothing is left to fetch. Only once the catalog's meaning is loaded (`warm`).
   */
  prefetch(typed: string): void {
    const loaded = this.#ready;
    if (!loaded) return;
    const finished = typed.slice(0, typed.search(/\S*$/));
    if (finished.trim()) void this.#shards(loaded, tokenShards(loaded, finished)).catch(() => {});
    const typing = wordBeingTyped(typed, COMPLETIONS.after);
    if (!typing) return;
    const shards = new Set(completionIds(loaded.vocab, typing).map(shardOf));
    if (shards.size <= COMPLETIONS.shards) void this.#shards(loaded, shards).catch(() => {});
  }

  #shards(loaded: Loaded, shards: ReadonlySet<number>): Promise<unknown> {
    return Promise.all([...shards].map((shard) => this.#shard(loaded, shard)));
  }

  #shard(loaded: Loaded, shard: number): Promise<void> {
    let pending = loaded.shards.get(shard);
    if (!pending) {
      pending = bytes(`${this.#model}${tokenShardFile(shard)}`).then((b) => {
        applyTokenShard(loaded.vectors, shard, b);
        loaded.applied.add(shard);
      });
      pending.catch(() => loaded.shards.delete(shard));
      loaded.shards.set(shard, pending);
    }
    return pending;
  }

  async #load(): Promise<Loaded> {
    const [{ Tokenizer }, model, vocabText, skillBytes] = await Promise.all([
      import('@huggingface/tokenizers'),
      bytes(`${this.#model}model.json`).then((b) => JSON.parse(text(b)) as SiteModelManifest),
      // Fetched beside the manifest rather than after it: its name is fixed.
      bytes(`${this.#model}${SITE_VOCAB_FILE}`).then(text),
      bytes(`${this.#feed}skill-vectors.bin`),
    ]);
    // Sized for the whole vocabulary, filled shard by shard: rows never fetched are never read.
    const vectors: StaticVectors = {
      dims: model.dims,
      scales: new Float32Array(model.vocab_size),
      values: new Int8Array(model.vocab_size * model.dims),
    };
    const vocab = decodeSiteVocab(vocabText);
    const embedder = new Embedder(new Tokenizer(withSiteVocab(model.tokenizer, vocab), {}), vectors);
    const signs = decodeSkillVectors(skillBytes);
    if (signs.dims !== model.dims)
      throw new Error(`skill-vectors.bin: ${signs.dims} dimensions, the model has ${model.dims}`);
    const skills = SkillVectors.fromSigns(embedder, this.#ids, signs);
    return { vocab, embedder, vectors, skills, shards: new Map(), applied: new Set() };
  }
}

/** The token shards `text` needs. */
const tokenShards = (loaded: Loaded, text: string): Set<number> => new Set(loaded.embedder.tokenIds(text).map(shardOf));

async function bytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
