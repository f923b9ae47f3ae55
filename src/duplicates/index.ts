/**
 * Duplicate skills, found without an LLM (seed 004 checks for duplicates before creating a
 * skill; here the build reports them):
 *
 * - identical: the same SKILL.md body and the same other files (every path and sha256), whatever
 *   the name and description say — one skill published twice;
 * - near: TF-IDF cosine similarity of description + body at or above
 *   `duplicates.near_threshold` — two skills an agent could not tell apart.
 */
import type { Problem, Skill } from '../model/skill.ts';
import { sha256Hex } from '../lib/hash.ts';
import { scanPairs, termCounts, tokenize, type PairScan } from './tfidf.ts';

export interface Duplicate {
  kind: 'identical' | 'near';
  /** Skill ids, `a` < `b`. */
  a: string;
  b: string;
  /** Cosine similarity (1 for identical content). */
  similarity: number;
}

/**
 * Identity of a skill's content apart from its name: body plus every other file's path and digest.
 * Kept by body between scans (a rebuild hashes only the bodies that changed).
 */
export function contentKey(skill: Skill): string {
  const files = skill.files
    .filter((f) => f.path !== 'SKILL.md')
    .map((f) => `${f.path}\0${f.sha256}\0${f.size}`)
    .sort();
  const listed = JSON.stringify(files);
  const kept = keptKeys.get(skill.body);
  if (kept?.listed === listed) return kept.key;
  const key = sha256Hex(JSON.stringify([skill.body.replace(/\r\n?/g, '\n').trim(), files]));
  keptKeys.set(skill.body, { listed, key });
  return key;
}

/**
 * Pairs of skills that are the same under different names: identical content, or texts whose
 * TF-IDF cosine similarity reaches `nearThreshold` (0–1; the config's default is
 * `duplicates.near_threshold`). `tokenize`: the duplicate finder's words of a skill's text (default:
 * its own; `build` passes the same, kept between builds). The words of a text already scanned in
 * the previous call are reused, and only the pairs an edit can change are scored again, so a
 * rebuild after one edit tokenizes one text and scores a few skills' pairs.
 *
 * @example
 * ```ts
 * import { findDuplicates, loadCatalog } from 'skillpress';
 * const { skills } = await loadCatalog('skills');
 * for (const d of findDuplicates(skills, { nearThreshold: 0.9 })) console.log(d.kind, d.a, d.b, d.similarity);
 * ```
 */
export function findDuplicates(
  skills: readonly Skill[],
  opts: { nearThreshold: number; tokenize?: (text: string) => string[] },
): Duplicate[] {
  const sorted = [...skills].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const out: Duplicate[] = [];

  const byKey = new Map<string, string[]>();
  for (const s of sorted) {
    const key = contentKey(s);
    byKey.set(key, [...(byKey.get(key) ?? []), s.id]);
  }
  const identical = new Set<string>();
  for (const ids of byKey.values()) {
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        out.push({ kind: 'identical', a: ids[i]!, b: ids[j]!, similarity: 1 });
        identical.add(`${ids[i]}\0${ids[j]}`);
      }
    }
  }

  const words = opts.tokenize ?? tokenize;
  lastScan = scanPairs(
    sorted.map((s) => countsOf(`${s.description}\n${s.body}`, words)),
    opts.nearThreshold,
    lastScan,
  );
  keptCounts.nextScan();
  keptKeys.nextScan();
  for (const { i, j, similarity } of lastScan.pairs) {
    const a = sorted[i]!.id;
    const b = sorted[j]!.id;
    if (!identical.has(`${a}\0${b}`))
      out.push({ kind: 'near', a, b, similarity: Math.round(similarity * 1000) / 1000 });
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

/**
 * What was made from each text, kept from one scan to the next in this process (a rebuild after
 * one edit makes it again for one text); only what the last scan and the calls since used is kept.
 */
class Kept<V> {
  /** Past this many texts without a scan, the older half is dropped all the same. */
  static readonly LIMIT = 100_000;
  private current = new Map<string, V>();
  private previous = new Map<string, V>();

  get(text: string): V | undefined {
    const value = this.current.get(text) ?? this.previous.get(text);
    if (value !== undefined) this.set(text, value);
    return value;
  }

  set(text: string, value: V): void {
    if (this.current.size >= Kept.LIMIT) this.nextScan();
    this.current.set(text, value);
  }

  nextScan(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

/** Each text's token counts. */
class KeptCounts extends Kept<Map<string, number>> {
  counts(text: string, words: (text: string) => string[]): Map<string, number> {
    const kept = this.get(text);
    if (kept) return kept;
    const counts = termCounts(words(text));
    this.set(text, counts);
    return counts;
  }
}

const keptCounts = new KeptCounts();
/** Each body's content key, with the other files it was made with (their list, as JSON). */
const keptKeys = new Kept<{ listed: string; key: string }>();
/** This process's last scan: a rebuild after one edit scores again only the pairs the edit can change. */
let lastScan: PairScan | undefined;
const countsOf = (text: string, words: (text: string) => string[]): Map<string, number> =>
  keptCounts.counts(text, words);

/**
 * The token counts of a skill's description and body, the texts the near-duplicate scan
 * compares: kept between calls as the scan keeps them (not to be changed).
 */
export const textCounts = (skill: Pick<Skill, 'description' | 'body'>): ReadonlyMap<string, number> =>
  countsOf(`${skill.description}\n${skill.body}`, tokenize);

/**
 * The report as warnings, one per pair, attached to the second skill of the pair. A pair of two
 * imported skills is left out: only their registry can change them (the count keeps it).
 */
export function duplicateProblems(
  duplicates: readonly Duplicate[],
  skills: readonly Skill[],
  threshold: number,
): Problem[] {
  const byId = new Map(skills.map((s) => [s.id, s]));
  const local = (id: string): boolean => byId.get(id)?.source.kind === 'local';
  const where = (id: string): string => {
    const s = byId.get(id);
    if (!s) return id;
    return s.source.kind === 'local'
      ? s.source.dir
      : s.source.kind === 'peer'
        ? `peer:${s.source.peer}/skills/${s.id}`
        : `url:${s.source.skill_md_url}`;
  };
  return duplicates
    .filter((d) => local(d.a) || local(d.b))
    .map((d) =>
      d.kind === 'identical'
        ? {
            severity: 'warning',
            skill: where(d.b),
            file: 'SKILL.md',
            rule: 'duplicate-identical',
            message: `"${d.b}" has the same instructions and files as "${d.a}": remove one, or make it differ`,
          }
        : {
            severity: 'warning',
            skill: where(d.b),
            file: 'SKILL.md',
            rule: 'duplicate-near',
            message:
              `"${d.b}" is ${Math.round(d.similarity * 100)}% similar to "${d.a}" (TF-IDF cosine of description and body; ` +
              `duplicates.near_threshold is ${threshold}): merge them, or make the descriptions say when to use each`,
          },
    );
}
