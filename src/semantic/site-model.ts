/**
 * The model split for the site (./feed-vectors.ts describes the files), written into the built
 * site's `_model/` folder: the browser fetches the tokenizer's configuration, the vocabulary
 * pieces of a query's own words and the token shards of its own tokens, only when a query is
 * ranked by meaning.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_DIR } from './load.ts';
import { encodeTokenShard, shardCount, tokenShardFile, TOKEN_SHARD_ROWS } from './feed-vectors.ts';
import { splitTokenizer, vocabPieceFile } from './vocab-pieces.ts';

/** The folder below the site's base. */
export const SITE_MODEL_PATH = '_model';

/** What the site reads first: the model's shape and where its parts are. */
export interface SiteModelManifest {
  name: string;
  dims: number;
  vocab_size: number;
  shard_rows: number;
  /** The keys of the vocabulary pieces written (`vocab-<key>.txt`): a query's words fetch those among them. */
  vocab_pieces: string[];
  /** The tokenizer's configuration without its vocabulary (small: read with the manifest). */
  tokenizer: unknown;
}

/** Writes the split model into `<siteDir>/_model/`; returns its size in bytes. */
export function writeSiteModel(siteDir: string, modelDir = MODEL_DIR): number {
  const out = path.join(siteDir, SITE_MODEL_PATH);
  mkdirSync(out, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(modelDir, 'model.json'), 'utf8')) as SiteModelManifest;
  const { dims, vocab_size: rows } = manifest;
  const bin = readFileSync(path.join(modelDir, 'vectors.bin'));
  const vectors = {
    dims,
    scales: new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + rows * 4)),
    values: new Int8Array(bin.buffer, bin.byteOffset + rows * 4, rows * dims),
  };
  const { config, pieces } = splitTokenizer(JSON.parse(readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8')));
  const write = (name: string, data: string | Uint8Array): number => (
    writeFileSync(path.join(out, name), data),
    typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength
  );
  let bytes = write(
    'model.json',
    JSON.stringify({
      name: manifest.name,
      dims,
      vocab_size: rows,
      shard_rows: TOKEN_SHARD_ROWS,
      vocab_pieces: [...pieces.keys()],
      tokenizer: config,
    } satisfies SiteModelManifest),
  );
  for (const [key, text] of pieces) bytes += write(vocabPieceFile(key), text);
  for (let shard = 0; shard < shardCount(rows); shard++)
    bytes += write(tokenShardFile(shard), encodeTokenShard(vectors, shard));
  return bytes;
}
