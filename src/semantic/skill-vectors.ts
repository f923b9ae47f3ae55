/**
 * What each skill of a catalog says it is for — its name and description — as embeddings, and
 * how close a request comes to each. Closeness is reported as a z-score over the catalog (how
 * many standard deviations above the catalog's mean similarity): raw cosines of static
 * embeddings sit in a narrow band that differs between requests, z-scores are comparable.
 * Browser-safe.
 */
import type { MeaningIndex } from '../search/hybrid.ts';
import type { Embedder } from './embedder.ts';
import { indexedDescription } from '../model/bounds.ts';

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
  /** skills.length × dims, row by row. */
  readonly #matrix: Float32Array;
  readonly #slots: Map<string, number>;

  /** Embeds every skill at once; `build` does the same without holding up the event loop. */
  constructor(embedder: Embedder, skills: readonly DescribedSkill[], matrix?: Float32Array) {
    this.#embedder = embedder;
    this.skills = skills;
    this.#matrix =
      matrix ?? embedRange(embedder, skills, 0, skills.length, new Float32Array(skills.length * embedder.dims));
    this.#slots = new Map(skills.map((skill, i) => [skill.id, i]));
    this.slotIds = skills.map((skill) => skill.id);
  }

  /**
   * Skill vectors made at build time (the feed's `skill-vectors.bin`, ./feed-vectors.ts), one
   * row per id; `embedder` embeds the requests.
   */
  static fromMatrix(embedder: Embedder, ids: readonly string[], matrix: Float32Array): SkillVectors {
    if (matrix.length !== ids.length * embedder.dims)
      throw new Error(`skill vectors: ${matrix.length / embedder.dims} rows for ${ids.length} skills`);
    return new SkillVectors(
      embedder,
      ids.map((id) => ({ id, name: '', description: '' })),
      matrix,
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
    return new SkillVectors(embedder, skills, matrix);
  }

  /** The position of a skill in `skills` and in what `closeness` returns. */
  slot(id: string): number | undefined {
    return this.#slots.get(id);
  }

  /** The z-score of each skill (in `skills` order) for `request`. */
  closeness(request: string): Float32Array {
    const n = this.skills.length;
    const dims = this.#embedder.dims;
    const q = this.#embedder.embed(request);
    const sims = new Float32Array(n);
    const m = this.#matrix;
    // The rows are read in place (no view per skill): at 10,000 skills this loop is most of a query's cost.
    // Four sums at a time: fewer loop steps and independent additions (the order is fixed, so the
    // server and the browser still compute the same numbers).
    const tail = dims - (dims % 4);
    for (let i = 0, row = 0; i < n; i++, row += dims) {
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      for (let k = 0; k < tail; k += 4) {
        a += q[k]! * m[row + k]!;
        b += q[k + 1]! * m[row + k + 1]!;
        c += q[k + 2]! * m[row + k + 2]!;
        d += q[k + 3]! * m[row + k + 3]!;
      }
      for (let k = tail; k < dims; k++) a += q[k]! * m[row + k]!;
      sims[i] = a + b + c + d;
    }
    return zScores(sims);
  }
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
