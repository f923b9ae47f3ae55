/**
 * Ranking by meaning in the browser, loaded only when a query needs it (three meaningful words
 * or more): the feed's skill vectors (sign bits), the model's manifest with the tokenizer's
 * configuration, and for each query only the vocabulary pieces its words can use and the token
 * shards of its own tokens. The closeness is computed by the same code as the MCP server's
 * (src/semantic), from the same bytes, so the site and `skills_search` rank alike.
 */
import type { MeaningIndex } from '../../search/index.ts';
import { Embedder, type StaticVectors } from '../../semantic/embedder.ts';
import { applyTokenShard, decodeSkillVectors, shardOf, tokenShardFile } from '../../semantic/feed-vectors.ts';
import { SkillVectors } from '../../semantic/skill-vectors.ts';
import type { SiteModelManifest } from '../../semantic/site-model.ts';
import {
  addPiece,
  BASE_PIECE,
  completionIds,
  COMPLETIONS,
  CONTINUATION_PIECE,
  joinTokenizer,
  piecesFor,
  vocabPieceFile,
  wordBeingTyped,
} from '../../semantic/vocab-pieces.ts';
import type { Tokenizer } from '@huggingface/tokenizers';

interface Loaded {
  /** The vocabulary pieces the model publishes. */
  available: ReadonlySet<string>;
  /** The tokenizer, holding the vocabulary pieces fetched so far (each added as it arrives). */
  tokenizer: Tokenizer;
  embedder: Embedder;
  vectors: StaticVectors;
  skills: SkillVectors;
  /** Vocabulary pieces fetched (or being fetched), by key. */
  pieces: Map<string, Promise<void>>;
  /** The vocabulary pieces `tokenizer` holds, by key: their text. */
  texts: Map<string, string>;
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

  /** `ids`: the search index's skill ids in its order (that of the feed's skill vectors). */
  constructor(modelUrl: string, feedUrl: string, ids: readonly string[]) {
    this.#model = modelUrl;
    this.#feed = feedUrl;
    this.#ids = ids;
  }

  /** Starts fetching what every query ranked by meaning needs: the skill vectors, the manifest, the `base` and `cont` pieces. */
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

  /** The catalog's closeness in meaning, ready for `query` (its words' vocabulary and its tokens' shards fetched). */
  async forQuery(query: string): Promise<MeaningIndex> {
    // Once loaded, without an `await` first: the requests go out before the results by words are drawn.
    const loaded = this.#ready ?? (await this.#warm());
    // A word is tokenized by its own pieces alone: its shards are asked for as soon as they are
    // here, while the other words' pieces are still on their way.
    await Promise.all(query.split(/\s+/).map((word) => this.#pieceThenShards(loaded, word)));
    // The request as the embedder reads it: nothing is left to fetch unless a word was split otherwise.
    await this.#pieceThenShards(loaded, query);
    return loaded.skills;
  }

  async #pieceThenShards(loaded: Loaded, text: string): Promise<void> {
    await this.#vocabulary(loaded, piecesFor(text));
    await this.#shards(loaded, new Set(loaded.embedder.tokenIds(text).map(shardOf)));
  }

  /**
   * The closeness in meaning for `query` without waiting, when everything it needs is already
   * here (its words' vocabulary pieces in the tokenizer, its tokens' shards applied): the results
   * are then drawn once, ranked by meaning, instead of by words first.
   */
  readyFor(query: string): MeaningIndex | undefined {
    const loaded = this.#ready;
    if (!loaded) return undefined;
    for (const key of piecesFor(query)) if (loaded.available.has(key) && !loaded.texts.has(key)) return undefined;
    for (const id of loaded.embedder.tokenIds(query)) if (!loaded.applied.has(shardOf(id))) return undefined;
    return loaded.skills;
  }

  /**
   * While a request is typed: fetches the vocabulary pieces of its words (the last one too, once
   * it has two characters) and the token shards of its finished words, so that when typing stops
   * little or nothing is left to fetch. Only once the catalog's meaning is loaded (`warm`).
   */
  prefetch(typed: string): void {
    const loaded = this.#ready;
    if (!loaded) return;
    const finished = typed.slice(0, typed.search(/\S*$/));
    void this.#vocabulary(loaded, piecesFor(typed)).catch(() => {});
    if (finished.trim()) void this.forQuery(finished).catch(() => {});
    void this.#completions(loaded, typed).catch(() => {});
  }

  /** The token shards of the words the last word being typed can still become, once they are few (`COMPLETIONS`). */
  async #completions(loaded: Loaded, typed: string): Promise<void> {
    const typing = wordBeingTyped(typed, COMPLETIONS.after);
    if (!typing || !loaded.available.has(typing.piece)) return;
    await this.#vocabulary(loaded, new Set([typing.piece]));
    const shards = new Set(completionIds(loaded.texts.get(typing.piece)!, typing.word).map(shardOf));
    if (shards.size <= COMPLETIONS.shards) await this.#shards(loaded, shards);
  }

  /** Fetches the vocabulary pieces not yet fetched, each added to the tokenizer as it arrives. */
  async #vocabulary(loaded: Loaded, keys: Set<string>): Promise<void> {
    const wanted = [...keys].filter((key) => loaded.available.has(key));
    for (const key of wanted.filter((key) => !loaded.pieces.has(key))) {
      const pending = bytes(`${this.#model}${vocabPieceFile(key)}`).then((b) => {
        const piece = text(b);
        addPiece(loaded.tokenizer, piece);
        loaded.texts.set(key, piece);
      });
      pending.catch(() => loaded.pieces.delete(key));
      loaded.pieces.set(key, pending);
    }
    await Promise.all(wanted.map((key) => loaded.pieces.get(key)));
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
    const piece = (key: string): Promise<string> => bytes(`${this.#model}${vocabPieceFile(key)}`).then(text);
    const [{ Tokenizer }, manifest, skillBytes, base, cont] = await Promise.all([
      import('@huggingface/tokenizers'),
      bytes(`${this.#model}model.json`).then((b) => JSON.parse(text(b)) as SiteModelManifest),
      bytes(`${this.#feed}skill-vectors.bin`),
      piece(BASE_PIECE),
      piece(CONTINUATION_PIECE),
    ]);
    // Sized for the whole vocabulary, filled shard by shard: rows never fetched are never read.
    const vectors: StaticVectors = {
      dims: manifest.dims,
      scales: new Float32Array(manifest.vocab_size),
      values: new Int8Array(manifest.vocab_size * manifest.dims),
    };
    const texts = new Map([
      [BASE_PIECE, base],
      [CONTINUATION_PIECE, cont],
    ]);
    const pieces = new Map([...texts.keys()].map((key) => [key, Promise.resolve()]));
    const tokenizer = new Tokenizer(joinTokenizer(manifest.tokenizer, texts.values()), {});
    // The tokenizer's vocabulary grows with the queries' pieces (`addPiece`).
    const embedder = new Embedder(tokenizer, vectors);
    const signs = decodeSkillVectors(skillBytes);
    if (signs.dims !== manifest.dims)
      throw new Error(`skill-vectors.bin: ${signs.dims} dimensions, the model has ${manifest.dims}`);
    const skills = SkillVectors.fromSigns(embedder, this.#ids, signs);
    return {
      available: new Set(manifest.vocab_pieces),
      tokenizer,
      embedder,
      vectors,
      skills,
      pieces,
      texts,
      shards: new Map(),
      applied: new Set(),
    };
  }
}

async function bytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
