/**
 * Ranking by meaning in the browser, loaded only when a query needs it (three meaningful words
 * or more): the feed's skill vectors (sign bits), the model's manifest with the tokenizer's
 * configuration, and for each query only the vocabulary pieces its words can use and the token
 * shards of its own tokens. The closeness is computed by the same code as the MCP server's
 * (src/semantic), from the same bytes, so the site and `skills_search` rank alike.
 */
import type { MeaningIndex } from '../../search/index.ts';
import { Embedder, type StaticVectors, type TextTokenizer } from '../../semantic/embedder.ts';
import { applyTokenShard, decodeSkillVectors, shardOf, tokenShardFile } from '../../semantic/feed-vectors.ts';
import { SkillVectors } from '../../semantic/skill-vectors.ts';
import type { SiteModelManifest } from '../../semantic/site-model.ts';
import {
  BASE_PIECE,
  CONTINUATION_PIECE,
  joinTokenizer,
  piecesFor,
  vocabPieceFile,
} from '../../semantic/vocab-pieces.ts';

interface Loaded {
  manifest: SiteModelManifest;
  makeTokenizer: (vocab: Record<string, unknown>) => TextTokenizer;
  /** The tokenizer of the vocabulary pieces fetched so far (replaced as pieces arrive). */
  tokenizer: TextTokenizer;
  embedder: Embedder;
  vectors: StaticVectors;
  skills: SkillVectors;
  /** Vocabulary pieces fetched (or being fetched), by key. */
  pieces: Map<string, Promise<string>>;
  /** Token shards fetched (or being fetched). */
  shards: Map<number, Promise<void>>;
}

export class SiteMeaning {
  readonly #model: string;
  readonly #feed: string;
  readonly #ids: readonly string[];
  #loaded: Promise<Loaded> | undefined;

  /** `ids`: the search index's skill ids in its order (that of the feed's skill vectors). */
  constructor(modelUrl: string, feedUrl: string, ids: readonly string[]) {
    this.#model = modelUrl;
    this.#feed = feedUrl;
    this.#ids = ids;
  }

  /** The catalog's closeness in meaning, ready for `query` (its words' vocabulary and its tokens' shards fetched). */
  async forQuery(query: string): Promise<MeaningIndex> {
    if (!this.#loaded) {
      this.#loaded = this.#load();
      this.#loaded.catch(() => (this.#loaded = undefined));
    }
    const loaded = await this.#loaded;
    await this.#vocabulary(loaded, piecesFor(query));
    const wanted = new Set(loaded.embedder.tokenIds(query).map(shardOf));
    await Promise.all([...wanted].map((shard) => this.#shard(loaded, shard)));
    return loaded.skills;
  }

  /** Fetches the vocabulary pieces not yet fetched and, when any arrive, rebuilds the tokenizer with them. */
  async #vocabulary(loaded: Loaded, keys: Set<string>): Promise<void> {
    const available = new Set(loaded.manifest.vocab_pieces);
    const fresh = [...keys].filter((key) => available.has(key) && !loaded.pieces.has(key));
    if (fresh.length === 0) return;
    for (const key of fresh) {
      const pending = bytes(`${this.#model}${vocabPieceFile(key)}`).then(text);
      pending.catch(() => loaded.pieces.delete(key));
      loaded.pieces.set(key, pending);
    }
    const pieces = await Promise.all(loaded.pieces.values());
    loaded.tokenizer = loaded.makeTokenizer(joinTokenizer(loaded.manifest.tokenizer, pieces));
  }

  #shard(loaded: Loaded, shard: number): Promise<void> {
    let pending = loaded.shards.get(shard);
    if (!pending) {
      pending = bytes(`${this.#model}${tokenShardFile(shard)}`).then((b) => applyTokenShard(loaded.vectors, shard, b));
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
    const makeTokenizer = (json: Record<string, unknown>): TextTokenizer => new Tokenizer(json, {});
    const pieces = new Map([
      [BASE_PIECE, Promise.resolve(base)],
      [CONTINUATION_PIECE, Promise.resolve(cont)],
    ]);
    const tokenizer = makeTokenizer(joinTokenizer(manifest.tokenizer, [base, cont]));
    // The embedder reads whichever tokenizer is current: the pieces grow with the queries.
    const current: TextTokenizer = { encode: (t, o) => loaded.tokenizer.encode(t, o) };
    const embedder = new Embedder(current, vectors);
    const signs = decodeSkillVectors(skillBytes);
    if (signs.dims !== manifest.dims)
      throw new Error(`skill-vectors.bin: ${signs.dims} dimensions, the model has ${manifest.dims}`);
    const skills = SkillVectors.fromSigns(embedder, this.#ids, signs);
    const loaded: Loaded = { manifest, makeTokenizer, tokenizer, embedder, vectors, skills, pieces, shards: new Map() };
    return loaded;
  }
}

async function bytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
