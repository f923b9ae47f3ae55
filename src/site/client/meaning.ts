/**
 * Ranking by meaning in the browser, loaded only when a query needs it (three meaningful words
 * or more): the feed's skill vectors, the tokenizer (its vocabulary is a plain text file the
 * host compresses) and, for each query, only the token shards of its own tokens. The closeness
 * is computed by the same code as the MCP server's (src/semantic), from the same bytes, so the
 * site and `skills_search` rank alike.
 */
import type { MeaningIndex } from '../../search/index.ts';
import { Embedder, type StaticVectors } from '../../semantic/embedder.ts';
import {
  applyTokenShard,
  decodeSkillVectors,
  joinTokenizer,
  shardOf,
  tokenShardFile,
} from '../../semantic/feed-vectors.ts';
import { SkillVectors } from '../../semantic/skill-vectors.ts';
import type { SiteModelManifest } from '../../semantic/site-model.ts';

interface Loaded {
  embedder: Embedder;
  vectors: StaticVectors;
  skills: SkillVectors;
  /** Shards fetched (or being fetched). */
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

  /** The catalog's closeness in meaning, ready for `query` (its tokens' shards fetched). */
  async forQuery(query: string): Promise<MeaningIndex> {
    if (!this.#loaded) {
      this.#loaded = this.#load();
      this.#loaded.catch(() => (this.#loaded = undefined));
    }
    const loaded = await this.#loaded;
    const wanted = new Set(loaded.embedder.tokenIds(query).map(shardOf));
    await Promise.all(
      [...wanted].map((shard) => {
        let pending = loaded.shards.get(shard);
        if (!pending) {
          pending = bytes(`${this.#model}${tokenShardFile(shard)}`).then((b) =>
            applyTokenShard(loaded.vectors, shard, b),
          );
          pending.catch(() => loaded.shards.delete(shard));
          loaded.shards.set(shard, pending);
        }
        return pending;
      }),
    );
    return loaded.skills;
  }

  async #load(): Promise<Loaded> {
    const [{ Tokenizer }, manifest, config, vocab, skillBytes] = await Promise.all([
      import('@huggingface/tokenizers'),
      bytes(`${this.#model}model.json`).then((b) => JSON.parse(text(b)) as SiteModelManifest),
      bytes(`${this.#model}tokenizer.json`).then((b) => JSON.parse(text(b)) as unknown),
      bytes(`${this.#model}vocab.txt`).then(text),
      bytes(`${this.#feed}skill-vectors.bin`),
    ]);
    // Sized for the whole vocabulary, filled shard by shard: rows never fetched are never read.
    const vectors: StaticVectors = {
      dims: manifest.dims,
      scales: new Float32Array(manifest.vocab_size),
      values: new Int8Array(manifest.vocab_size * manifest.dims),
    };
    const embedder = new Embedder(new Tokenizer(joinTokenizer(config, vocab), {}), vectors);
    const { dims, matrix } = decodeSkillVectors(skillBytes);
    if (dims !== manifest.dims)
      throw new Error(`skill-vectors.bin: ${dims} dimensions, the model has ${manifest.dims}`);
    return { embedder, vectors, skills: SkillVectors.fromMatrix(embedder, this.#ids, matrix), shards: new Map() };
  }
}

async function bytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
