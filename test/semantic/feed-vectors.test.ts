/**
 * The feed's sign-bit skill vectors and the model split for the site (src/semantic/feed-vectors.ts,
 * site-vocab.ts): the bits are each dimension's side of the catalog mean, closeness from them is
 * the documented sum, a damaged file is an error naming it, and the site's vocabulary and the
 * shards a text needs tokenize and embed it exactly as the shipped model does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
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
  completionIds,
  decodeSiteVocab,
  encodeSiteVocab,
  siteTokenizer,
  withSiteVocab,
  wordBeingTyped,
  type TokenizerJson,
} from '../../src/semantic/site-vocab.ts';
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
  it('the site tokenizes in its own ids and embeds from the shards of its tokens exactly as the model does', async () => {
    const model = await loadEmbedder();
    const shipped = shippedVectors(model.dims);
    const { config, vocab, modelIds } = siteTokenizer(shippedTokenizer());
    const inSite = siteVectors(shipped, modelIds);
    const site = new Tokenizer(withSiteVocab(config, decodeSiteVocab(encodeSiteVocab(vocab))), {});
    const texts = [
      ...routingRequests().filter((_, i) => i % 3 === 0),
      'make our internal CLI repository public next month',
      'Crème brûlée für Ärzte: ÉTÉ naïve café',
      'İstanbul ΑΘΗΝΑ Москва 東京タワー 北京',
      'a\u0000b\u200bcd x\tyz e-mail [MASK] [CLS] foo_bar.baz 3d 2fa ß ﬁle',
      'unbelievably supercalifragilistic antidisestablishmentarianism',
      'Q3_board_report.pdf → CSV files; “quotes” and emoji 📄 too',
    ];
    expect(texts.length).toBeGreaterThan(250);
    const rows = shipped.scales.length;
    for (const text of texts) {
      const ids: number[] = site.encode(text, { add_special_tokens: false }).ids;
      // Each site id names the model's token: the same tokens, renumbered.
      expect(
        ids.map((id) => modelIds[id]),
        text,
      ).toEqual(model.tokenIds(text));
      const sparse: StaticVectors = {
        dims: model.dims,
        scales: new Float32Array(rows),
        values: new Int8Array(rows * model.dims),
      };
      for (const shard of new Set(ids.map(shardOf))) applyTokenShard(sparse, shard, encodeTokenShard(inSite, shard));
      expect(new Embedder(site, sparse).embed(text), text).toEqual(model.embed(text));
    }
    expect(shardCount(rows)).toBe(Math.ceil(rows / TOKEN_SHARD_ROWS));
    // The last shard is short: the vocabulary is not a multiple of the shard size.
    const last = shardCount(rows) - 1;
    expect(encodeTokenShard(inSite, last).byteLength).toBe((rows - last * TOKEN_SHARD_ROWS) * (4 + model.dims));
  });

  it('vocab.txt holds the whole vocabulary, whole words then continuations, each sorted, and stays small', () => {
    const tokenizer = shippedTokenizer();
    const { vocab, modelIds, config } = siteTokenizer(tokenizer);
    const text = encodeSiteVocab(vocab);
    expect(decodeSiteVocab(text)).toEqual(vocab);
    expect(new Set(vocab.tokens)).toEqual(new Set(Object.keys(tokenizer.model.vocab)));
    expect(vocab.tokens.slice(0, vocab.whole).some((t) => t.startsWith('##'))).toBe(false);
    expect(vocab.tokens.slice(vocab.whole).every((t) => t.startsWith('##'))).toBe(true);
    expect(vocab.tokens.slice(0, vocab.whole)).toEqual([...vocab.tokens.slice(0, vocab.whole)].sort());
    vocab.tokens.forEach((token, i) => expect(tokenizer.model.vocab[token]).toBe(modelIds[i]));
    // The configuration keeps no vocabulary; its special tokens name their site ids.
    expect(config.model.vocab).toEqual({});
    for (const t of config.added_tokens ?? []) expect(vocab.tokens[t.id]).toBe(t.content);
    expect(config.post_processor?.special_tokens?.['[CLS]']?.ids).toEqual([vocab.tokens.indexOf('[CLS]')]);
    // Front-coded, it is a third of the plain list, and gzips to about 51 KB.
    expect(text.length).toBeLessThan(130_000);
    expect(gzipSync(text).byteLength).toBeLessThan(56_000);
  });

  it('a word being typed can become the run of whole-word tokens that start with it', () => {
    const { vocab } = siteTokenizer(shippedTokenizer());
    const ids = completionIds(vocab, 'deploy');
    expect(ids.map((id) => vocab.tokens[id])).toEqual(
      vocab.tokens.slice(0, vocab.whole).filter((t) => t.startsWith('deploy')),
    );
    expect(ids.map((id) => vocab.tokens[id])).toContain('deployment');
    expect(ids.length).toBeGreaterThan(2);
    expect(completionIds(vocab, 'zzzzqx')).toEqual([]);
  });

  it('refuses a tokenizer whose special token is not in its vocabulary', () => {
    const tokenizer = shippedTokenizer();
    tokenizer.added_tokens = [{ id: 99_999, content: '[NOPE]' }];
    expect(() => siteTokenizer(tokenizer)).toThrow(/special token "\[NOPE\]" \(id 99999\) is not in the vocabulary/);
  });

  it('names the last word while it is being typed, normalized as the tokenizer reads it', () => {
    expect(wordBeingTyped('pdf Tabl', 3)).toBe('tabl');
    expect(wordBeingTyped('un Résu', 3)).toBe('resu');
    expect(wordBeingTyped('foo_bar.bazq', 3)).toBe('bazq');
    // Finished (a space or punctuation after it), too short, or a CJK word: nothing to guess.
    expect(wordBeingTyped('pdf tables ', 3)).toBeUndefined();
    expect(wordBeingTyped('pdf tables,', 3)).toBeUndefined();
    expect(wordBeingTyped('pdf ta', 3)).toBeUndefined();
    expect(wordBeingTyped('東京', 2)).toBeUndefined();
  });
});

function shippedVectors(dims: number): StaticVectors {
  const full = readFileSync(path.join(MODEL_DIR, 'vectors.bin'));
  const rows = full.byteLength / (4 + dims);
  return {
    dims,
    scales: new Float32Array(full.buffer.slice(full.byteOffset, full.byteOffset + rows * 4)),
    values: new Int8Array(full.buffer, full.byteOffset + rows * 4, rows * dims),
  };
}

/** The rows in site ids, as site-model.ts writes them (the slow way). */
function siteVectors(shipped: StaticVectors, modelIds: Int32Array): StaticVectors {
  const { dims } = shipped;
  const out: StaticVectors = {
    dims,
    scales: new Float32Array(modelIds.length),
    values: new Int8Array(modelIds.length * dims),
  };
  modelIds.forEach((id, i) => {
    out.scales[i] = shipped.scales[id]!;
    for (let k = 0; k < dims; k++) out.values[i * dims + k] = shipped.values[id * dims + k]!;
  });
  return out;
}

function shippedTokenizer(): TokenizerJson {
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
