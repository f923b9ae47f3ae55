/**
 * Meaning in the feed and on the site, without the 8 MB model download:
 *
 * - `skill-vectors.bin` (feed part `skill_vectors`): each skill's embedding (name and
 *   description, ./skill-vectors.ts `purposeText`) made at build time, rotated (`rotateForSigns`)
 *   and kept as one sign bit per dimension, its side of the catalog's mean, with a byte of scale:
 *   1 + dims / 8 bytes a skill (33 with the shipped model). Layout (little endian): `SPV2`,
 *   uint32 count, uint32 dims, uint32 0, float32 unit; dims float32 weights; count scale bytes
 *   (× unit); count rows of ceil(dims / 8) bytes of signs, in the order of `search.json`'s
 *   documents (bit b of a row's byte j is dimension 8j + b). Closeness: the request's embedding,
 *   rotated, times the weights, summed with each skill's signs, times its scale; then a z-score
 *   over the catalog (./skill-vectors.ts).
 * - The model split for the site (`_model/`): the manifest with the tokenizer's configuration
 *   without its vocabulary (`model.json`, ./site-model.ts); the whole vocabulary, front-coded, in
 *   the site's own token order (`vocab.txt`, ./site-vocab.ts); and the token vectors in that order,
 *   in shards of TOKEN_SHARD_ROWS rows (`tokens-<n>.bin`: the rows' float32 scales, then their
 *   int8 values), so a query fetches the shards of its own tokens only.
 *
 * The MCP server and the site decode the same bytes with the same code (./embedder.ts,
 * ./skill-vectors.ts): they compute the same closeness. Browser-safe.
 */
import type { StaticVectors } from './embedder.ts';

export const SKILL_VECTORS_FILE = 'skill-vectors.bin';
/** The folder, beside the feed's files, holding the model split for the site. */
export const SITE_MODEL_DIR = 'model';
/** Token vector rows per shard: 4 × (4 + 256) bytes ≈ 1 KB (int8 values barely compress): a query fetches about one shard a token. */
export const TOKEN_SHARD_ROWS = 4;

const MAGIC = 0x32565053; // "SPV2", little endian
const HEADER = 20;

/** Bytes of one skill's sign bits. */
export const signBytes = (dims: number): number => Math.ceil(dims / 8);

/** Bytes a skill takes in `skill-vectors.bin`: its scale, then its signs. */
export const skillVectorBytes = (dims: number): number => 1 + signBytes(dims);

/** The skill vectors of a catalog as sign bits, with what a bit is worth in each dimension and for each skill. */
export interface SignVectors {
  count: number;
  dims: number;
  /** Per (rotated) dimension: the catalog's mean distance from its mean there. */
  weights: Float32Array;
  /** Per skill: its mean distance from the catalog's mean, in units of `weights` (decoded from one byte). */
  scales: Float32Array;
  /** `count` rows of `signBytes(dims)` bytes: bit b of byte j is set when rotated dimension 8j + b is above the mean. */
  signs: Uint8Array;
}

/** The seed of the rotation's ±1 pattern (Park–Miller generator, bit 0 of each draw). */
const ROTATION_SEED = 12345;
const rotationSigns = new Map<number, Int8Array>();

/**
 * `v` rotated by a randomized Hadamard transform (a fixed ±1 per dimension, then the normalized
 * Walsh–Hadamard transform): a length- and angle-keeping rotation that spreads each dimension's
 * information over all of them, so that one sign bit per dimension loses less. Dimensions that
 * are not a power of two are left as they are.
 */
export function rotateForSigns(v: ArrayLike<number>): Float64Array {
  const n = v.length;
  const out = Float64Array.from(v);
  if (n < 2 || (n & (n - 1)) !== 0) return out;
  let signs = rotationSigns.get(n);
  if (!signs) {
    let x = ROTATION_SEED;
    signs = Int8Array.from({ length: n }, () => ((x = (x * 48271) % 2147483647) & 1 ? 1 : -1));
    rotationSigns.set(n, signs);
  }
  for (let k = 0; k < n; k++) out[k]! *= signs[k]!;
  for (let h = 1; h < n; h *= 2)
    for (let i = 0; i < n; i += 2 * h)
      for (let j = i; j < i + h; j++) {
        const a = out[j]!;
        const b = out[j + h]!;
        out[j] = a + b;
        out[j + h] = a - b;
      }
  const norm = 1 / Math.sqrt(n);
  for (let k = 0; k < n; k++) out[k]! *= norm;
  return out;
}

/**
 * Skill embeddings (count × dims floats, row by row) as sign bits: each row rotated
 * (`rotateForSigns`), centred on the catalog's mean, one bit per dimension for its side of the
 * mean; what a bit is worth per dimension (`weights`) and per skill (`scales`, one byte each)
 * kept beside them. Every reader of the bits computes closeness from these alone.
 */
export function packSigns(matrix: Float32Array, dims: number): SignVectors & { unit: number; scaleBytes: Uint8Array } {
  const count = matrix.length / dims;
  if (!Number.isInteger(count)) throw new Error(`skill vectors: ${matrix.length} values are not rows of ${dims}`);
  const rows = Array.from({ length: count }, (_, i) => rotateForSigns(matrix.subarray(i * dims, (i + 1) * dims)));
  const mean = new Float64Array(dims);
  for (const row of rows) for (let k = 0; k < dims; k++) mean[k]! += row[k]! / count;
  const weights = new Float32Array(dims);
  for (const row of rows) for (let k = 0; k < dims; k++) weights[k]! += Math.abs(row[k]! - mean[k]!) / count;
  const width = signBytes(dims);
  const signs = new Uint8Array(count * width);
  const own = new Float64Array(count);
  rows.forEach((row, i) => {
    for (let k = 0; k < dims; k++) {
      const d = row[k]! - mean[k]!;
      if (d > 0) signs[i * width + (k >> 3)]! |= 1 << (k & 7);
      if (weights[k]! > 0) own[i]! += Math.abs(d) / weights[k]! / dims;
    }
  });
  // One byte a skill: the largest scale is 255 steps (a float32 step, so decoding gives these very numbers).
  const unit = Math.fround(own.reduce((a, b) => Math.max(a, b), 0) / 255) || 1;
  const scaleBytes = Uint8Array.from(own, (x) => Math.round(x / unit));
  return { count, dims, weights, scales: decodeScales(scaleBytes, unit), signs, unit, scaleBytes };
}

const decodeScales = (bytes: Uint8Array, unit: number): Float32Array => Float32Array.from(bytes, (b) => b * unit);

/** Skill embeddings (count × dims floats, row by row) as the feed's bytes (`SPV2`, ./feed-vectors.ts). */
export function encodeSkillVectors(matrix: Float32Array, dims: number): Uint8Array {
  const { count, weights, signs, unit, scaleBytes } = packSigns(matrix, dims);
  const bytes = new Uint8Array(HEADER + 4 * dims + count * skillVectorBytes(dims));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, count, true);
  view.setUint32(8, dims, true);
  view.setFloat32(16, unit, true);
  weights.forEach((w, k) => view.setFloat32(HEADER + 4 * k, w, true));
  bytes.set(scaleBytes, HEADER + 4 * dims);
  bytes.set(signs, HEADER + 4 * dims + count);
  return bytes;
}

/** The feed's skill vectors; a wrong file is an error naming `source`. */
export function decodeSkillVectors(bytes: Uint8Array, source = SKILL_VECTORS_FILE): SignVectors {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER || view.getUint32(0, true) !== MAGIC)
    throw new Error(
      `${source}: not skillpress skill vectors (no SPV2 header; a feed built before sign bits: rebuild it)`,
    );
  const count = view.getUint32(4, true);
  const dims = view.getUint32(8, true);
  const expected = HEADER + 4 * dims + count * skillVectorBytes(dims);
  if (bytes.byteLength !== expected)
    throw new Error(
      `${source}: ${bytes.byteLength} bytes, expected ${expected} for ${count} skills × ${dims} dimensions`,
    );
  const unit = view.getFloat32(16, true);
  const weights = Float32Array.from({ length: dims }, (_, k) => view.getFloat32(HEADER + 4 * k, true));
  const at = HEADER + 4 * dims;
  return {
    count,
    dims,
    weights,
    scales: decodeScales(bytes.subarray(at, at + count), unit),
    signs: bytes.slice(at + count),
  };
}

/** The shard a token id is in (the site's ids, ./site-vocab.ts). */
export const shardOf = (tokenId: number): number => Math.floor(tokenId / TOKEN_SHARD_ROWS);

/** File name of a token shard. */
export const tokenShardFile = (shard: number): string => `tokens-${shard}.bin`;

/** How many shards the model's vocabulary makes. */
export const shardCount = (vocabSize: number): number => Math.ceil(vocabSize / TOKEN_SHARD_ROWS);

/** One shard's bytes: its rows' float32 scales (little endian), then their int8 values. */
export function encodeTokenShard(vectors: StaticVectors, shard: number): Uint8Array {
  const from = shard * TOKEN_SHARD_ROWS;
  const rows = Math.min(TOKEN_SHARD_ROWS, vectors.scales.length - from);
  const bytes = new Uint8Array(rows * (4 + vectors.dims));
  const view = new DataView(bytes.buffer);
  for (let r = 0; r < rows; r++) view.setFloat32(r * 4, vectors.scales[from + r]!, true);
  bytes.set(
    new Uint8Array(vectors.values.buffer, vectors.values.byteOffset + from * vectors.dims, rows * vectors.dims),
    rows * 4,
  );
  return bytes;
}

/** Copies a fetched shard into vectors sized for the whole vocabulary (rows not fetched stay zero). */
export function applyTokenShard(vectors: StaticVectors, shard: number, bytes: Uint8Array): void {
  const from = shard * TOKEN_SHARD_ROWS;
  const rows = Math.min(TOKEN_SHARD_ROWS, vectors.scales.length - from);
  if (bytes.byteLength !== rows * (4 + vectors.dims))
    throw new Error(`${tokenShardFile(shard)}: ${bytes.byteLength} bytes, expected ${rows * (4 + vectors.dims)}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let r = 0; r < rows; r++) vectors.scales[from + r] = view.getFloat32(r * 4, true);
  vectors.values.set(
    new Int8Array(bytes.buffer, bytes.byteOffset + rows * 4, rows * vectors.dims),
    from * vectors.dims,
  );
}
