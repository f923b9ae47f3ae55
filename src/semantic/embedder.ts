/**
 * A static sentence embedding: the mean of one learned vector per token, unit length. It knows
 * that making a repository public is open-sourcing and that a .xlsx is a spreadsheet, which no
 * index of words can; it costs a tokenization and a few thousand additions, not a neural network. The
 * vectors are distilled from a sentence-embedding model (models/static-bge-small/model.json says
 * which and how). Browser-safe: the caller supplies the tokenizer and the vectors.
 */

/**
 * What the embedder needs of a tokenizer: `Tokenizer` of @huggingface/tokenizers has this shape.
 * Named here rather than imported so the published declarations do not pull that package's own
 * (which fail a consumer's type check with `skipLibCheck: false`).
 */
export interface TextTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
}

/** The learned vectors: int8 per row, with a float scale per row. */
export interface StaticVectors {
  dims: number;
  /** One per token id. */
  scales: Float32Array;
  /** `scales.length` × `dims`, row by row. */
  values: Int8Array;
}

/** Text beyond this many characters is not read: a skill's purpose is in its first lines, a request is short. */
const MAX_TEXT = 2000;

export class Embedder {
  readonly dims: number;
  readonly #tokenizer: TextTokenizer;
  readonly #vectors: StaticVectors;

  constructor(tokenizer: TextTokenizer, vectors: StaticVectors) {
    if (vectors.values.length !== vectors.scales.length * vectors.dims)
      throw new Error(
        `static vectors: ${vectors.values.length} values for ${vectors.scales.length} rows of ${vectors.dims}`,
      );
    this.#tokenizer = tokenizer;
    this.#vectors = vectors;
    this.dims = vectors.dims;
  }

  /** The unit-length embedding of `text`; all zeros when it has no token. */
  embed(text: string): Float32Array {
    return this.embedTokens(this.tokenIds(text));
  }

  /** The token ids of `text` (its first MAX_TEXT characters), as the vectors were trained on. */
  tokenIds(text: string): number[] {
    return this.#tokenizer.encode(text.slice(0, MAX_TEXT), { add_special_tokens: false }).ids;
  }

  /** The unit-length mean of these tokens' vectors (ids outside the vocabulary are ignored). */
  embedTokens(ids: readonly number[]): Float32Array {
    const { dims, scales, values } = this.#vectors;
    const out = new Float32Array(dims);
    for (const id of ids) {
      if (id < 0 || id >= scales.length) continue;
      const scale = scales[id]!;
      for (let k = 0, row = id * dims; k < dims; k++) out[k]! += scale * values[row + k]!;
    }
    return normalize(out);
  }
}

function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k]! /= norm;
  return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += a[k]! * b[k]!;
  return sum;
}
