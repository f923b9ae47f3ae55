/**
 * Is a skill about to be created already in the catalog under another name? Three measures,
 * any one of which is enough:
 *
 * - identical content: the same body and other files as a skill there (src/duplicates);
 * - near-identical text: TF-IDF cosine of description + body at or above
 *   `duplicates.near_threshold` (0.85 by default), the build's near-duplicate detector;
 * - the same purpose: cosine of the name-and-description embeddings (src/semantic, the model
 *   best_skill ranks with) at or above MEANING_THRESHOLD, with a TF-IDF cosine of at least
 *   MEANING_TEXT_FLOOR (meaning alone is not enough: templated skills for different services,
 *   "gemini-automation" and "breeze-automation", come 0.99 close in meaning).
 */
import type { Skill } from '../model/skill.ts';
import { contentKey, textCounts } from '../duplicates/index.ts';
import { cosinesWithFirst, termCounts, tokenize } from '../duplicates/tfidf.ts';
import { cosine, type Embedder } from '../semantic/embedder.ts';
import { purposeText } from '../semantic/skill-vectors.ts';

/**
 * Cosine of two skills' name-and-description embeddings at or above which they may be one skill
 * (the seed's 0.95): on the six public catalogs the closest distinct pair is 0.90, a skill with a
 * reworded description 0.99.
 */
export const MEANING_THRESHOLD = 0.95;
/** The TF-IDF cosine a same-purpose match must also reach. */
export const MEANING_TEXT_FLOOR = 0.5;

export interface DuplicateMatch {
  /** The existing skill's name. */
  name: string;
  kind: 'identical' | 'near' | 'meaning';
  similarity: number;
}

type Indexed = Pick<Skill, 'id' | 'name' | 'description' | 'body' | 'files'> & Partial<Pick<Skill, 'source'>>;

export class DuplicateIndex {
  readonly #skills = new Map<
    string,
    { skill: Indexed; key: string; counts: ReadonlyMap<string, number>; meaning?: Float32Array }
  >();
  readonly #nearThreshold: number;
  readonly #embedder: Embedder | undefined;

  constructor(skills: readonly Indexed[], options: { nearThreshold: number; embedder?: Embedder }) {
    this.#nearThreshold = options.nearThreshold;
    this.#embedder = options.embedder;
    for (const skill of skills) this.put(skill);
  }

  get size(): number {
    return this.#skills.size;
  }

  /** The folder (relative to the skills folder) of the indexed skill called `id`; undefined when none is, or when it is not a local skill. */
  folderOf(id: string): string | undefined {
    const source = this.#skills.get(id)?.skill.source;
    return source?.kind === 'local' ? source.dir : undefined;
  }

  /** Adds or replaces a skill (after it was written). */
  put(skill: Indexed): void {
    this.#skills.set(skill.id, {
      skill,
      key: contentKey(skill as Skill),
      // The build's near-duplicate scan keeps them: usually counted already.
      counts: textCounts(skill),
    });
  }

  /**
   * Holds exactly `skills` (a catalog loaded again): what changed is indexed again, what is gone
   * is dropped, the rest (its words and meaning) is kept.
   */
  sync(skills: readonly Indexed[]): void {
    const ids = new Set<string>();
    for (const skill of skills) {
      ids.add(skill.id);
      const kept = this.#skills.get(skill.id);
      const same =
        kept &&
        kept.skill.name === skill.name &&
        kept.skill.description === skill.description &&
        kept.key === contentKey(skill as Skill);
      if (same) kept.skill = skill;
      else this.put(skill);
    }
    for (const id of this.#skills.keys()) if (!ids.has(id)) this.#skills.delete(id);
  }

  /** The closest existing skill `candidate` duplicates, or undefined. `except`: a skill not to compare with (itself). */
  find(candidate: Indexed, except?: string): DuplicateMatch | undefined {
    const others = [...this.#skills.values()].filter((e) => e.skill.id !== except);
    const key = contentKey(candidate as Skill);
    const same = others.find((e) => e.key === key);
    if (same) return { name: same.skill.name, kind: 'identical', similarity: 1 };
    const text = cosinesWithFirst([
      termCounts(tokenize(`${candidate.description}\n${candidate.body}`)),
      ...others.map((e) => e.counts),
    ]);
    let best: DuplicateMatch | undefined;
    const consider = (match: DuplicateMatch, threshold: number) => {
      if (match.similarity >= threshold && (!best || match.similarity > best.similarity)) best = match;
    };
    others.forEach((e, i) => consider({ name: e.skill.name, kind: 'near', similarity: text[i]! }, this.#nearThreshold));
    const embedder = this.#embedder;
    if (embedder) {
      const q = embedder.embed(purposeText(candidate));
      others.forEach((e, i) => {
        if (text[i]! < MEANING_TEXT_FLOOR) return;
        e.meaning ??= embedder.embed(purposeText(e.skill));
        consider({ name: e.skill.name, kind: 'meaning', similarity: cosine(q, e.meaning) }, MEANING_THRESHOLD);
      });
    }
    return best && { ...best, similarity: Math.round(Math.min(1, best.similarity) * 1000) / 1000 };
  }
}
