/**
 * Where a repository keeps its skills when it is not told: the nearest folder holding every
 * SKILL.md below it (`plugins` for `plugins/<plugin>/skills/<name>/`). `init` writes it into the
 * config; `build` names it when the skills folder it was given is missing.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { STATE_DIR } from './layout.ts';

// Build output, caches and skillpress's state (its version store holds copies of skills) hold no skills of their own.
const SKIP = new Set(['node_modules', 'dist', '.git', '.cache', STATE_DIR]);

const MAX_WALK_DEPTH = 5;

/**
 * The nearest folder below `dir` holding every SKILL.md found there (`plugins` for
 * `plugins/<plugin>/skills/<name>/`), `/`-separated; undefined when there is none. `build` names it
 * when the skills folder it was told of is missing.
 */
export async function folderHoldingSkills(dir: string): Promise<string | undefined> {
  const parents = await skillParents(dir, '', 0);
  return parents.length === 0 ? undefined : commonFolder(parents);
}

/** The folder above each skill below `rel` (a skill's own sub-folders are not searched). */
async function skillParents(dir: string, rel: string, depth: number): Promise<string[]> {
  if (depth > MAX_WALK_DEPTH) return [];
  const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
  if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) return [path.dirname(rel)];
  const found: string[] = [];
  for (const entry of entries)
    if (entry.isDirectory() && !SKIP.has(entry.name))
      found.push(...(await skillParents(dir, path.join(rel, entry.name), depth + 1)));
  return found;
}

/** The deepest folder every one of `folders` is in, `/`-separated (`.` when they share none). */
function commonFolder(folders: readonly string[]): string {
  const split = folders.map((f) => f.split(/[\\/]/).filter((s) => s !== '' && s !== '.'));
  const common: string[] = [];
  for (let i = 0; split.every((s) => i < s.length && s[i] === split[0]![i]); i++) common.push(split[0]![i]!);
  return common.length === 0 ? '.' : common.join('/');
}
