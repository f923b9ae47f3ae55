/**
 * Meaning in the feed and on the site, without the 8 MB model download:
 *
 * - `skill-vectors.bin` (feed part `skill_vectors`): each skill's embedding (name and
 *   description, ./skill-vectors.ts `purposeText`) made at build time, int8 with a float32 scale
 *   per skill — 4 + dims bytes a skill (260 with the shipped model), in the order of
 *   `search.json`'s documents. Layout: `SPV1`, uint32 count, uint32 dims, uint32 0 (little
 *   endian), then count float32 scales, then count × dims int8 values; a value is scale × int8.
 * - The model split for the site (`model/` beside the feed): the tokenizer without its vocabulary
 *   (`tokenizer.json`), the vocabulary one token a line in id order (`vocab.txt`, which a static
 *   host compresses), and the token vectors in shards of TOKEN_SHARD_ROWS rows
 *   (`tokens-<n>.bin`: the rows' float32 scales, then their int8 values) so that a query fetches
 *   the shards of its own tokens only.
 *
 * The MCP server and the site decode the same bytes with the same code (./embedder.ts,
 * ./skill-vectors.ts): they compute the same closeness. Browser-safe.
 */
import type { StaticVectors } from './embedder.ts';

export const SKILL_VECTORS_FILE = 'skill-vectors.bin';
/** The folder, beside the feed's files, holding the model split for the site. */
export const SITE_MODEL_DIR = 'model';
/** Token vector rows per shard: 16 × (4 + 256) bytes ≈ 4 KB (int8 values barely compress): a query fetches about one shard a token. */
export const TOKEN_SHARD_ROWS = 16;

const MAGIC = 0x31565053; // "SPV1", little endian
const HEADER = 16;

/** Skill embeddings (count × dims floats, row by row) as the feed's int8 bytes. */
export function encodeSkillVectors(matrix: Float32Array, dims: number): Uint8Array {
  const count = matrix.length / dims;
  if (!Number.isInteger(count)) throw new Error(`skill vectors: ${matrix.length} values are not rows of ${dims}`);
  const bytes = new Uint8Array(HEADER + count * 4 + count * dims);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, count, true);
  view.setUint32(8, dims, true);
  const values = new Int8Array(bytes.buffer, HEADER + count * 4, count * dims);
  for (let i = 0; i < count; i++) {
    let max = 0;
    for (let k = 0; k < dims; k++) max = Math.max(max, Math.abs(matrix[i * dims + k]!));
    const scale = max / 127;
    view.setFloat32(HEADER + i * 4, scale, true);
    for (let k = 0; k < dims; k++) values[i * dims + k] = scale > 0 ? Math.round(matrix[i * dims + k]! / scale) : 0;
  }
  return bytes;
}

/** The feed's int8 skill vectors as floats (count × dims, row by row); a wrong file is an error naming `source`. */
export function decodeSkillVectors(
  bytes: Uint8Array,
  source = SKILL_VECTORS_FILE,
): { dims: number; matrix: Float32Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER || view.getUint32(0, true) !== MAGIC)
    throw new Error(`${source}: not skillpress skill vectors (no SPV1 header)`);
  const count = view.getUint32(4, true);
  const dims = view.getUint32(8, true);
  if (bytes.byteLength !== HEADER + count * (4 + dims))
    throw new Error(
      `${source}: ${bytes.byteLength} bytes, expected ${HEADER + count * (4 + dims)} for ${count} × ${dims}`,
    );
  const matrix = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) {
    const scale = view.getFloat32(HEADER + i * 4, true);
    const row = HEADER + count * 4 + i * dims;
    for (let k = 0; k < dims; k++) matrix[i * dims + k] = scale * view.getInt8(row + k);
  }
  return { dims, matrix };
}

/** The shard a token id is in. */
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

/** The tokenizer's JSON without its vocabulary, and the vocabulary one token a line in id order. */
export function splitTokenizer(tokenizer: { model: { vocab: Record<string, number> } }): {
  config: unknown;
  vocab: string;
} {
  const { vocab, ...model } = tokenizer.model;
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(vocab)) tokens[id] = token;
  if (tokens.some((t) => t === undefined || t.includes('\n')) || tokens.length !== Object.keys(vocab).length)
    throw new Error('tokenizer.json: its vocabulary is not one token per id from 0');
  return { config: { ...tokenizer, model }, vocab: tokens.join('\n') };
}

/** The tokenizer's JSON again from `splitTokenizer`'s two parts. */
export function joinTokenizer(config: unknown, vocab: string): Record<string, unknown> {
  const c = config as { model: Record<string, unknown> };
  return { ...c, model: { ...c.model, vocab: Object.fromEntries(vocab.split('\n').map((token, id) => [token, id])) } };
}
