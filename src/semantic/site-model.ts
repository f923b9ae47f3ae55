/**
 * The model split for the site (./feed-vectors.ts describes the files), written into the built
 * site's `_model/` folder: the browser fetches the tokenizer's configuration and its whole
 * vocabulary (./site-vocab.ts) once, and the token shards of a query's own tokens, only when
 * queries are ranked by meaning.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_DIR } from './load.ts';
import type { StaticVectors } from './embedder.ts';
import { sha256Hex } from '../lib/hash.ts';
import { folderMatches } from '../lib/folder-match.ts';
import { encodeTokenShard, shardCount, tokenShardFile, TOKEN_SHARD_ROWS } from './feed-vectors.ts';
import { encodeSiteVocab, SITE_VOCAB_FILE, siteTokenizer, type TokenizerJson } from './site-vocab.ts';

/** The folder below the site's base. */
export const SITE_MODEL_PATH = '_model';

/** What the site reads first: the model's shape and where its parts are. */
export interface SiteModelManifest {
  name: string;
  dims: number;
  vocab_size: number;
  shard_rows: number;
  /** The tokenizer's configuration without its vocabulary (small: read with the manifest), in the site's token ids (`vocab.txt`, ./site-vocab.ts). */
  tokenizer: TokenizerJson;
}

/** The files of the split model, by name (made once per process: they depend on the model only). */
const modelFiles = new Map<string, Map<string, string | Uint8Array>>();

function siteModelFiles(modelDir: string): Map<string, string | Uint8Array> {
  const made = modelFiles.get(modelDir);
  if (made) return made;
  const manifest = JSON.parse(readFileSync(path.join(modelDir, 'model.json'), 'utf8')) as SiteModelManifest;
  const { dims, vocab_size: rows } = manifest;
  const bin = readFileSync(path.join(modelDir, 'vectors.bin'));
  const tokenizer = JSON.parse(readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8')) as TokenizerJson;
  const { config, vocab, modelIds } = siteTokenizer(tokenizer);
  if (modelIds.length !== rows)
    throw new Error(`${modelDir}: the tokenizer has ${modelIds.length} tokens, the vectors ${rows} rows`);
  const vectors = inSiteOrder({ dims, rows, bin }, modelIds);
  const files = new Map<string, string | Uint8Array>();
  files.set(
    'model.json',
    JSON.stringify({
      name: manifest.name,
      dims,
      vocab_size: rows,
      shard_rows: TOKEN_SHARD_ROWS,
      tokenizer: config,
    } satisfies SiteModelManifest),
  );
  files.set(SITE_VOCAB_FILE, encodeSiteVocab(vocab));
  for (let shard = 0; shard < shardCount(rows); shard++)
    files.set(tokenShardFile(shard), encodeTokenShard(vectors, shard));
  modelFiles.set(modelDir, files);
  return files;
}

/** The model's token vectors (`vectors.bin`: float32 scales, then int8 rows) with row i that of site id i. */
function inSiteOrder(model: { dims: number; rows: number; bin: Buffer }, modelIds: Int32Array): StaticVectors {
  const { dims, rows, bin } = model;
  const scales = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + rows * 4));
  const values = new Int8Array(bin.buffer, bin.byteOffset + rows * 4, rows * dims);
  const out: StaticVectors = { dims, scales: new Float32Array(rows), values: new Int8Array(rows * dims) };
  modelIds.forEach((id, siteId) => {
    out.scales[siteId] = scales[id]!;
    out.values.set(values.subarray(id * dims, (id + 1) * dims), siteId * dims);
  });
  return out;
}

/** Writes the split model into `<siteDir>/_model/`; returns its size in bytes. */
export function writeSiteModel(siteDir: string, modelDir = MODEL_DIR): number {
  const out = path.join(siteDir, SITE_MODEL_PATH);
  mkdirSync(out, { recursive: true });
  let bytes = 0;
  for (const [name, data] of siteModelFiles(modelDir)) {
    writeFileSync(path.join(out, name), data);
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  }
  return bytes;
}

/**
 * Whether `<siteDir>/_model/` of an earlier build holds exactly the files {@link writeSiteModel}
 * writes (each checked against its sha256, nothing else): the model is the same for every build,
 * and some 8,000 small files cost more to write than to read back.
 */
export function siteModelMatches(siteDir: string, modelDir = MODEL_DIR): boolean {
  return folderMatches(path.join(siteDir, SITE_MODEL_PATH), siteModelDigests(modelDir)) !== undefined;
}

/** Each file's sha256, by name (made once per process, like the files). */
const modelDigests = new Map<string, Map<string, string>>();

function siteModelDigests(modelDir: string): Map<string, string> {
  let digests = modelDigests.get(modelDir);
  if (!digests) {
    digests = new Map([...siteModelFiles(modelDir)].map(([name, data]) => [name, sha256Hex(data)]));
    modelDigests.set(modelDir, digests);
  }
  return digests;
}

/** Moves the model's folder of the site being replaced into the new one (run last, as the skill folders are). */
export function takeSiteModel(previousSiteDir: string, siteDir: string): void {
  renameSync(path.join(previousSiteDir, SITE_MODEL_PATH), path.join(siteDir, SITE_MODEL_PATH));
}
