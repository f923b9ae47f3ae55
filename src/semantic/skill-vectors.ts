/**
 * What each skill of a catalog says it is for — its name and description — as embeddings, and
 * how close a request comes to each. Closeness is reported as a z-score over the catalog (how
 * many standard deviations above the catalog's mean similarity): raw cosines of static
 * embeddings sit in a narrow band that differs between requests, z-scores are comparable. A
 * skill's vector is kept as one sign bit per dimension (./feed-vectors.ts), what the feed holds:
 * the similarity is the request's embedding summed with the skill's signs.
 * Browser-safe.
 */
import type { MeaningIndex } from '../search/hybrid.ts';
import type { Embedder } from './embedder.ts';
import { indexedDescription } from '../model/bounds.ts';
import { packSigns, rotateForSigns, signBytes, type SignVectors } from './feed-vectors.ts';

export interface DescribedSkill {
  id: string;
  name: string;
  description: string;
}

/** Below this many skills a z-score says nothing: every request scores zero. */
const MIN_SKILLS = 5;
/** Skills embedded between two yields to the event loop by `build` (about 60 ms of work). */
const CHUNK = 256;

/**
 * The text embedded for a skill: its name in words, then its description, as much of it as
 * search indexes: the average of a whole vocabulary sits close to every request.
 */
export function purposeText(skill: DescribedSkill): string {
  return `${skill.name.replace(/[-_]+/g, ' ')}: ${indexedDescription(skill.description)}`;
}

/**
 * The embeddings of what each skill says it is for (name and description), and how close a
 * request comes to each: pass it to {@link retrieve} as `meaning` to rank by meaning as well as words.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { SkillSearch, SkillVectors, loadEmbedder, retrieve } from 'skillpress';
 * const search = SkillSearch.load(readFileSync('dist/feed/v1/search.json', 'utf8'));
 * const meaning = await SkillVectors.build(await loadEmbedder(), search.all());
 * console.log(retrieve(search, 'tidy up my spreadsheet', { meaning }).candidates[0]?.name);
 * ```
 */
export class SkillVectors implements MeaningIndex {
  readonly skills: readonly DescribedSkill[];
  readonly slotIds: readonly string[];
  readonly #embedder: Embedder;
  /** One row of sign bits per skill, and what a bit is worth (./feed-vectors.ts `packSigns`). */
  readonly #signs: SignVectors;
  readonly #slots: Map<string, number>;

  /** Embeds every skill at once; `build` does the same without holding up the event loop. */
  constructor(embedder: Embedder, skills: readonly DescribedSkill[], signs?: SignVectors) {
    this.#embedder = embedder;
    this.skills = skills;
    this.#signs =
      signs ??
      packSigns(
        embedRange(embedder, skills, 0, skills.length, new Float32Array(skills.length * embedder.dims)),
        embedder.dims,
      );
    if (this.#signs.count !== skills.length || this.#signs.dims !== embedder.dims)
      throw new Error(
        `skill vectors: ${this.#signs.count} of ${this.#signs.dims} dimensions for ${skills.length} skills of ${embedder.dims}`,
      );
    this.#slots = new Map(skills.map((skill, i) => [skill.id, i]));
    this.slotIds = skills.map((skill) => skill.id);
  }

  /**
   * Skill vectors made at build time (the feed's `skill-vectors.bin`, ./feed-vectors.ts): one row
   * of sign bits per id; `embedder` embeds the requests.
   */
  static fromSigns(embedder: Embedder, ids: readonly string[], signs: SignVectors): SkillVectors {
    return new SkillVectors(
      embedder,
      ids.map((id) => ({ id, name: '', description: '' })),
      signs,
    );
  }

  /**
   * Embeds the skills a chunk at a time, yielding between chunks: a server warming this up in the
   * background (10,000 skills take seconds) still answers the requests that arrive meanwhile.
   */
  static async build(embedder: Embedder, skills: readonly DescribedSkill[]): Promise<SkillVectors> {
    const matrix = new Float32Array(skills.length * embedder.dims);
    for (let start = 0; start < skills.length; start += CHUNK) {
      embedRange(embedder, skills, start, Math.min(skills.length, start + CHUNK), matrix);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return new SkillVectors(embedder, skills, packSigns(matrix, embedder.dims));
  }

  /** The position of a skill in `skills` and in what `closeness` returns. */
  slot(id: string): number | undefined {
    return this.#slots.get(id);
  }

  /** The z-score of each skill (in `skills` order) for `request`. */
  closeness(request: string): Float32Array {
    const { weights, scales, signs } = this.#signs;
    // What each bit is worth: the rotated query times each dimension's weight, each skill's sum times its scale.
    const query = rotateForSigns(this.#embedder.embed(request)).map((x, k) => x * weights[k]!);
    const sums = signedSums(query, signs, this.skills.length);
    for (let i = 0; i < sums.length; i++) sums[i]! *= scales[i]!;
    return zScores(sums);
  }
}

/**
 * Each row's sum of the query's values, each with its sign bit's sign (+ set, − clear). A byte of
 * signs stands for eight dimensions, so the query becomes one table of 256 sums per byte position
 * and a row costs one lookup per byte (32 at 256 dimensions): at 10,000 skills this loop is most
 * of a query's cost. The order of additions is fixed, so the server and the browser compute the
 * same numbers.
 */
function signedSums(query: Float64Array, signs: Uint8Array, count: number): Float32Array {
  const dims = query.length;
  const width = signBytes(dims);
  const table = new Float64Array(width * 256);
  for (let j = 0; j < width; j++) {
    const at = j * 256;
    let none = 0;
    for (let k = j * 8; k < Math.min(dims, j * 8 + 8); k++) none -= query[k]!;
    table[at] = none;
    for (let v = 1; v < 256; v++) {
      const low = v & -v;
      const k = j * 8 + 31 - Math.clz32(low);
      table[at + v] = table[at + (v ^ low)]! + (k < dims ? 2 * query[k]! : 0);
    }
  }
  const out = new Float32Array(count);
  const tail = width - (width % 4);
  for (let i = 0, row = 0; i < count; i++, row += width) {
    // Four sums at a time: fewer loop steps and independent additions.
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let j = 0; j < tail; j += 4) {
      a += table[j * 256 + signs[row + j]!]!;
      b += table[(j + 1) * 256 + signs[row + j + 1]!]!;
      c += table[(j + 2) * 256 + signs[row + j + 2]!]!;
      d += table[(j + 3) * 256 + signs[row + j + 3]!]!;
    }
    for (let j = tail; j < width; j++) a += table[j * 256 + signs[row + j]!]!;
    out[i] = a + b + c + d;
  }
  return out;
}

function embedRange(
  embedder: Embedder,
  skills: readonly DescribedSkill[],
  from: number,
  to: number,
  matrix: Float32Array,
): Float32Array {
  for (let i = from; i < to; i++) matrix.set(embedder.embed(purposeText(skills[i]!)), i * embedder.dims);
  return matrix;
}

function zScores(values: Float32Array): Float32Array {
  const n = values.length;
  if (n < MIN_SKILLS) return new Float32Array(n);
  let mean = 0;
  for (const v of values) mean += v / n;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2 / n;
  const sd = Math.sqrt(variance);
  return values.map((v) => (sd > 0 ? (v - mean) / sd : 0));
}
