/**
 * The feed's int8 skill vectors and the model split for the site (src/semantic/feed-vectors.ts):
 * what goes in comes back within a quantization step, a damaged file is an error naming it, and
 * the shards and split tokenizer rebuild exactly what the shipped model holds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import {
  applyTokenShard,
  decodeSkillVectors,
  encodeSkillVectors,
  encodeTokenShard,
  joinTokenizer,
  shardCount,
  shardOf,
  splitTokenizer,
  TOKEN_SHARD_ROWS,
} from '../../src/semantic/feed-vectors.ts';
import { Embedder, type StaticVectors } from '../../src/semantic/embedder.ts';
import { loadEmbedder, MODEL_DIR } from '../../src/semantic/load.ts';

/** Deterministic unit vectors. */
function unitRows(count: number, dims: number): Float32Array {
  const m = new Float32Array(count * dims);
  let x = 7;
  for (let i = 0; i < m.length; i++) m[i] = ((x = (x * 48271) % 2147483647) / 2147483647) * 2 - 1;
  for (let r = 0; r < count; r++) {
    const row = m.subarray(r * dims, (r + 1) * dims);
    const n = Math.hypot(...row);
    for (let k = 0; k < dims; k++) row[k]! /= n;
  }
  return m;
}

describe('int8 skill vectors', () => {
  it('round-trip each value within half a quantization step, at 4 + dims bytes a skill', () => {
    const dims = 256;
    const m = unitRows(5, dims);
    m.fill(0, 2 * dims, 3 * dims); // a skill with no token embeds as zeros
    const bytes = encodeSkillVectors(m, dims);
    expect(bytes.byteLength).toBe(16 + 5 * (4 + dims));
    const back = decodeSkillVectors(bytes);
    expect(back.dims).toBe(dims);
    for (let r = 0; r < 5; r++) {
      const row = m.subarray(r * dims, (r + 1) * dims);
      const step = Math.max(...row.map(Math.abs)) / 127;
      for (let k = 0; k < dims; k++)
        expect(Math.abs(back.matrix[r * dims + k]! - row[k]!)).toBeLessThanOrEqual(step / 2 + 1e-7);
    }
    expect(back.matrix.subarray(2 * dims, 3 * dims).every((v) => v === 0)).toBe(true);
    // Decoding the same bytes twice gives the same floats: server and browser agree exactly.
    expect(decodeSkillVectors(bytes).matrix).toEqual(back.matrix);
  });

  it('refuses a file that is not skill vectors, or is cut short, naming it', () => {
    const bytes = encodeSkillVectors(unitRows(3, 8), 8);
    expect(() => decodeSkillVectors(bytes.subarray(0, bytes.length - 1), 'feed/v1/skill-vectors.bin')).toThrow(
      /feed\/v1\/skill-vectors\.bin: \d+ bytes, expected/,
    );
    expect(() => decodeSkillVectors(new TextEncoder().encode('{"not":"vectors"}'))).toThrow(/no SPV1 header/);
  });
});

describe('the model split for the site', () => {
  it('shards hold the rows of the token ids they are named for, and rebuild the same embeddings', async () => {
    const model = await loadEmbedder();
    const full = readFileSync(path.join(MODEL_DIR, 'vectors.bin'));
    const rows = full.byteLength / (4 + model.dims);
    const shipped: StaticVectors = {
      dims: model.dims,
      scales: new Float32Array(full.buffer.slice(full.byteOffset, full.byteOffset + rows * 4)),
      values: new Int8Array(full.buffer, full.byteOffset + rows * 4, rows * model.dims),
    };
    const text = 'make our internal CLI repository public next month';
    const ids = model.tokenIds(text);
    const sparse: StaticVectors = {
      dims: model.dims,
      scales: new Float32Array(rows),
      values: new Int8Array(rows * model.dims),
    };
    for (const shard of new Set(ids.map(shardOf))) applyTokenShard(sparse, shard, encodeTokenShard(shipped, shard));
    expect(shardCount(rows)).toBe(Math.ceil(rows / TOKEN_SHARD_ROWS));
    const tokenizer = JSON.parse(readFileSync(path.join(MODEL_DIR, 'tokenizer.json'), 'utf8'));
    const { config, vocab } = splitTokenizer(tokenizer);
    const rebuilt = new Embedder(new Tokenizer(joinTokenizer(config, vocab), {}), sparse);
    expect(rebuilt.tokenIds(text)).toEqual(ids);
    expect(rebuilt.embed(text)).toEqual(model.embed(text));
    // The last shard is short: the vocabulary is not a multiple of the shard size.
    const last = shardCount(rows) - 1;
    expect(encodeTokenShard(shipped, last).byteLength).toBe((rows - last * TOKEN_SHARD_ROWS) * (4 + model.dims));
  });
});
