/**
 * Skills loaded by an earlier build of the same process, kept for the next one: a long-running
 * process (`skillpress dev`, `skillpress mcp --skills`) rebuilds after every change, and reading,
 * parsing and checking every skill again is most of a rebuild's load stage. A skill folder is
 * loaded again when anything the walk found in it changed, or any of its files' size, inode, or
 * modification or change time (in nanoseconds); otherwise a copy of the earlier result is used.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { copyData } from '../lib/copy.ts';
import type { FoundSkill } from './find-skills.ts';
import type { LoadResult, SkillLoadOptions } from './load-skill.ts';

export class LoadMemo {
  /** Skill folders taken from the memo since the last `begin` (one catalog's load). */
  reused = 0;
  readonly #entries = new Map<string, { signature: string; result: LoadResult }>();

  /** `load(found, opts)`, or a copy of its earlier result when nothing it reads has changed. */
  async load(
    found: FoundSkill,
    opts: SkillLoadOptions,
    load: (found: FoundSkill, opts: SkillLoadOptions) => Promise<LoadResult>,
  ): Promise<LoadResult> {
    const signature = folderSignature(found, opts);
    const kept = this.#entries.get(found.abs);
    if (kept?.signature === signature) {
      this.reused++;
      // A copy: a build adds to the skills it loaded (usage figures, versions, tool status).
      return copyData(kept.result);
    }
    const result = await load(found, opts);
    this.#entries.set(found.abs, { signature, result: copyData(result) });
    return result;
  }

  /** A new load of the catalog, whose walk found `folders`: the others are forgotten. */
  begin(folders: ReadonlySet<string>): void {
    this.reused = 0;
    for (const dir of this.#entries.keys()) if (!folders.has(dir)) this.#entries.delete(dir);
  }
}

/** Everything a skill's load depends on: the options, what the walk found, and each file's stat. */
function folderSignature(found: FoundSkill, opts: SkillLoadOptions): string {
  const hash = createHash('sha256');
  const { tokens: _tokens, ...options } = opts;
  hash.update(JSON.stringify([options, { ...found, targets: [...found.targets] }]));
  for (const rel of found.files) {
    const file = found.targets.get(rel) ?? path.join(found.abs, ...rel.split('/'));
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    hash.update(st ? `\n${rel}\0${st.size}\0${st.ino}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.mode}` : `\n${rel}\0missing`);
  }
  return hash.digest('hex');
}
