/**
 * The feed's sign-bit skill vectors and the model split for the site (src/semantic/feed-vectors.ts,
 * vocab-pieces.ts): the bits are each dimension's side of the catalog mean, closeness from them is
 * the documented sum, a damaged file is an error naming it, and the shards and the vocabulary
 * pieces a text needs tokenize and embed it exactly as the shipped model does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import {
  applyTokenShard,
  decodeSkillVectors,
  encodeSkillVectors,
  encodeTokenShard,
  packSigns,
  rotateForSigns,
  shardCount,
  shardOf,
  signBytes,
  TOKEN_SHARD_ROWS,
} from '../../src/semantic/feed-vectors.ts';
import {
  BASE_PIECE,
  CONTINUATION_PIECE,
  addPiece,
  joinTokenizer,
  piecesFor,
  splitTokenizer,
  wordBeingTyped,
} from '../../src/semantic/vocab-pieces.ts';
import { purposeText, SkillVectors } from '../../src/semantic/skill-vectors.ts';
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

describe('sign-bit skill vectors', () => {
  it('keep, per rotated dimension, whether a skill is above the catalog mean, at 1 + dims / 8 bytes a skill', () => {
    const dims = 256;
    const m = unitRows(7, dims);
    m.fill(0, 2 * dims, 3 * dims); // a skill with no token embeds as zeros
    const bytes = encodeSkillVectors(m, dims);
    expect(bytes.byteLength).toBe(20 + 4 * dims + 7 * (1 + 32));
    expect(signBytes(dims)).toBe(32);
    const back = decodeSkillVectors(bytes);
    expect([back.count, back.dims]).toEqual([7, dims]);
    const rows = Array.from({ length: 7 }, (_, r) => rotateForSigns(m.subarray(r * dims, (r + 1) * dims)));
    for (let k = 0; k < dims; k++) {
      const mean = rows.reduce((a, row) => a + row[k]! / 7, 0);
      const spread = rows.reduce((a, row) => a + Math.abs(row[k]! - mean) / 7, 0);
      expect(back.weights[k]).toBeCloseTo(spread, 6);
      rows.forEach((row, r) => {
        const bit = (back.signs[r * 32 + (k >> 3)]! >> (k & 7)) & 1;
        expect(bit, `row ${r}, dimension ${k}`).toBe(row[k]! > mean ? 1 : 0);
      });
    }
    // Each skill's scale: its mean distance from the mean in units of the weights, to a 255th of the largest.
    const largest = Math.max(...back.scales);
    rows.forEach((row, r) => {
      let own = 0;
      for (let k = 0; k < dims; k++) {
        const mean = rows.reduce((a, x) => a + x[k]! / 7, 0);
        own += Math.abs(row[k]! - mean) / back.weights[k]! / dims;
      }
      expect(Math.abs(back.scales[r]! - own)).toBeLessThanOrEqual(largest / 255 / 2 + 1e-6);
    });
    // What the server builds without a feed is what the feed holds: the same numbers, to the bit.
    const packed = packSigns(m, dims);
    expect([packed.weights, packed.scales, packed.signs]).toEqual([back.weights, back.scales, back.signs]);
    expect(decodeSkillVectors(bytes)).toEqual(back);
  });

  it('rotates by an orthogonal transform: lengths and angles are kept', () => {
    const [a, b] = [unitRows(2, 256).subarray(0, 256), unitRows(2, 256).subarray(256)];
    const [ra, rb] = [rotateForSigns(a), rotateForSigns(b)];
    const dot = (x: ArrayLike<number>, y: ArrayLike<number>): number =>
      Array.from(x).reduce((sum, v, k) => sum + v * y[k]!, 0);
    expect(dot(ra, ra)).toBeCloseTo(1, 6);
    expect(dot(ra, rb)).toBeCloseTo(dot(a, b), 6);
    expect(Array.from(ra)).not.toEqual(Array.from(a));
    // Not a power of two: left as it is.
    expect(Array.from(rotateForSigns(a.subarray(0, 12)))).toEqual(Array.from(a.subarray(0, 12)));
  });

  it('refuses a file that is not skill vectors, is cut short, or is the former int8 layout, naming it', () => {
    const bytes = encodeSkillVectors(unitRows(3, 8), 8);
    expect(() => decodeSkillVectors(bytes.subarray(0, bytes.length - 1), 'feed/v1/skill-vectors.bin')).toThrow(
      /feed\/v1\/skill-vectors\.bin: \d+ bytes, expected/,
    );
    expect(() => decodeSkillVectors(new TextEncoder().encode('{"not":"vectors"}'))).toThrow(/no SPV2 header/);
    const former = new Uint8Array(16 + 3 * (4 + 8));
    new DataView(former.buffer).setUint32(0, 0x31565053, true); // "SPV1"
    expect(() => decodeSkillVectors(former, 'feed/v1/skill-vectors.bin')).toThrow(
      /feed\/v1\/skill-vectors\.bin: not skillpress skill vectors \(no SPV2 header; .*rebuild it\)/,
    );
  });
});

describe('closeness from sign bits', () => {
  it("is the z-score of the rotated, weighted request summed with each skill's signs, times its scale", async () => {
    const model = await loadEmbedder();
    const skills = [
      'pdf: fill and merge PDF forms',
      'xlsx: clean up spreadsheets and formulas',
      'git-release: tag and publish a release',
      'slides: make a slide deck presentation',
      'email: draft replies to customer email',
      'docker: build container images',
    ].map((line) => {
      const [name, description] = line.split(': ') as [string, string];
      return { id: name, name, description };
    });
    const vectors = new SkillVectors(model, skills);
    const request = 'turn this spreadsheet of numbers into something tidy';
    const z = vectors.closeness(request);
    // The same numbers, the slow way: float embeddings → signs → weighted ± sums → z-scores.
    const matrix = new Float32Array(skills.length * model.dims);
    skills.forEach((s, i) => matrix.set(model.embed(purposeText(s)), i * model.dims));
    const { weights, scales, signs } = packSigns(matrix, model.dims);
    const q = rotateForSigns(model.embed(request));
    const sums = skills.map((_, i) => {
      let sum = 0;
      for (let k = 0; k < model.dims; k++)
        sum += ((signs[i * 32 + (k >> 3)]! >> (k & 7)) & 1 ? 1 : -1) * q[k]! * weights[k]!;
      return sum * scales[i]!;
    });
    const mean = sums.reduce((a, b) => a + b) / sums.length;
    const sd = Math.sqrt(sums.reduce((a, b) => a + (b - mean) ** 2, 0) / sums.length);
    sums.forEach((sum, i) => expect(z[i]).toBeCloseTo((sum - mean) / sd, 4));
    expect(vectors.skills[z.indexOf(Math.max(...z))]!.id).toBe('xlsx');
    // The feed's bytes give the same numbers, to the bit.
    const fromFeed = SkillVectors.fromSigns(
      model,
      vectors.slotIds,
      decodeSkillVectors(encodeSkillVectors(matrix, model.dims)),
    );
    expect(fromFeed.closeness(request)).toEqual(z);
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
    const { config, pieces } = splitTokenizer(shippedTokenizer());
    const needed = [...piecesFor(text)].flatMap((key) => pieces.get(key) ?? []);
    const rebuilt = new Embedder(new Tokenizer(joinTokenizer(config, needed), {}), sparse);
    expect(rebuilt.tokenIds(text)).toEqual(ids);
    expect(rebuilt.embed(text)).toEqual(model.embed(text));
    // The last shard is short: the vocabulary is not a multiple of the shard size.
    const last = shardCount(rows) - 1;
    expect(encodeTokenShard(shipped, last).byteLength).toBe((rows - last * TOKEN_SHARD_ROWS) * (4 + model.dims));
  });

  it('all the vocabulary pieces together are the whole vocabulary, each token in one piece', () => {
    const tokenizer = shippedTokenizer();
    const { config, pieces } = splitTokenizer(tokenizer);
    const joined = joinTokenizer(config, pieces.values()) as typeof tokenizer;
    expect(joined.model.vocab).toEqual(tokenizer.model.vocab);
    expect(pieces.get(BASE_PIECE)).toMatch(/^\[UNK\]\t/m);
    expect(
      pieces
        .get(CONTINUATION_PIECE)!
        .split('\n')
        .every((line) => line.startsWith('##')),
    ).toBe(true);
    expect(
      pieces
        .get('sp')!
        .split('\n')
        .every((line) => line.startsWith('sp')),
    ).toBe(true);
  });

  it("the pieces a text's words can use tokenize it exactly as the whole vocabulary does", async () => {
    const model = await loadEmbedder();
    const { config, pieces } = splitTokenizer(shippedTokenizer());
    const texts = [
      // Every sixth: a tokenizer per text costs about 30 ms.
      ...routingRequests().filter((_, i) => i % 6 === 0),
      'Crème brûlée für Ärzte: ÉTÉ naïve café',
      'İstanbul ΑΘΗΝΑ Москва 東京タワー 北京',
      'a\u0000b\u200bcd x\tyz e-mail [MASK] foo_bar.baz 3d 2fa ß ﬁle',
      'unbelievably supercalifragilistic antidisestablishmentarianism',
      'Q3_board_report.pdf → CSV files; “quotes” and emoji 📄 too',
    ];
    expect(texts.length).toBeGreaterThan(130);
    for (const text of texts) {
      const needed = [...piecesFor(text)].flatMap((key) => pieces.get(key) ?? []);
      const partial = new Tokenizer(joinTokenizer(config, needed), {});
      expect(partial.encode(text, { add_special_tokens: false }).ids, text).toEqual(model.tokenIds(text));
    }
  });

  it('a tokenizer grown piece by piece across requests, as the site grows it, tokenizes each as the whole vocabulary does', async () => {
    const model = await loadEmbedder();
    const { config, pieces } = splitTokenizer(shippedTokenizer());
    const grown = new Tokenizer(joinTokenizer(config, [pieces.get(BASE_PIECE)!, pieces.get(CONTINUATION_PIECE)!]), {});
    const added = new Set([BASE_PIECE, CONTINUATION_PIECE]);
    const texts = [...routingRequests(), 'Crème brûlée für Ärzte', 'İstanbul 東京タワー', '[MASK] foo_bar.baz ﬁle'];
    for (const text of texts) {
      for (const key of piecesFor(text)) {
        if (added.has(key) || !pieces.has(key)) continue;
        addPiece(grown, pieces.get(key)!);
        added.add(key);
      }
      expect(grown.encode(text, { add_special_tokens: false }).ids, text).toEqual(model.tokenIds(text));
    }
    expect(added.size).toBeGreaterThan(100);
    expect(() => addPiece({ model: null }, pieces.get('sp')!)).toThrow(/no model/);
  });

  it('names the last word while it is being typed, normalized, with the piece of the words it can become', () => {
    expect(wordBeingTyped('pdf Tabl', 3)).toEqual({ word: 'tabl', piece: 'ta' });
    expect(wordBeingTyped('un Résu', 3)).toEqual({ word: 'resu', piece: 're' });
    expect(wordBeingTyped('foo_bar.bazq', 3)).toEqual({ word: 'bazq', piece: 'ba' });
    // Finished (a space or punctuation after it), too short, or a CJK word: nothing to guess.
    expect(wordBeingTyped('pdf tables ', 3)).toBeUndefined();
    expect(wordBeingTyped('pdf tables,', 3)).toBeUndefined();
    expect(wordBeingTyped('pdf ta', 3)).toBeUndefined();
    expect(wordBeingTyped('東京', 2)).toBeUndefined();
  });
});

function shippedTokenizer(): { model: { vocab: Record<string, number> }; added_tokens: Array<{ content: string }> } {
  return JSON.parse(readFileSync(path.join(MODEL_DIR, 'tokenizer.json'), 'utf8'));
}

/** Every request of the routing sets kept in the repository (real users' words, typos and file names). */
function routingRequests(): string[] {
  const dir = path.join(import.meta.dirname, '../../bench/routing');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap(
      (f) => (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { requests: Array<{ request: string }> }).requests,
    )
    .map((r) => r.request);
}
