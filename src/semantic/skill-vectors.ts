/**
 * What each skill of a catalog says it is for — its name and description — as embeddings, and
 * how close a request comes to each. Closeness is reported as a z-score over the catalog (how
 * many standard deviations above the catalog's mean similarity): raw cosines of static
 * embeddings sit in a narrow band that differs between requests, z-scores are comparable.
 * Browser-safe.
 */
import { cosine, type Embedder } from './embedder.ts';

export interface DescribedSkill {
  id: string;
  name: string;
  description: string;
}

/** Below this many skills a z-score says nothing: every request scores zero. */
const MIN_SKILLS = 5;

/** The text embedded for a skill: its name in words, then its description. */
export function purposeText(skill: DescribedSkill): string {
  return `${skill.name.replace(/[-_]+/g, ' ')}: ${skill.description}`;
}

export class SkillVectors {
  readonly skills: readonly DescribedSkill[];
  readonly #embedder: Embedder;
  /** skills.length × dims, row by row. */
  readonly #matrix: Float32Array;
  readonly #slots: Map<string, number>;

  constructor(embedder: Embedder, skills: readonly DescribedSkill[]) {
    this.#embedder = embedder;
    this.skills = skills;
    this.#matrix = new Float32Array(skills.length * embedder.dims);
    skills.forEach((skill, i) => this.#matrix.set(embedder.embed(purposeText(skill)), i * embedder.dims));
    this.#slots = new Map(skills.map((skill, i) => [skill.id, i]));
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
    for (let i = 0; i < n; i++) sims[i] = cosine(q, this.#matrix.subarray(i * dims, (i + 1) * dims));
    return zScores(sims);
  }

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
