/**
 * Whether a folder of an earlier build holds exactly what this build would write there, so that
 * it can be moved into the new output instead of written again (making folders and files costs
 * far more than checking them on the disks builds run on). Used for the site's skill folders
 * (src/site/page-cache.ts) and the feed's file folders (src/emit/feed/write-feed.ts).
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sha256Regular } from './hash.ts';

/** `dir` when it is a real folder (not a link, which could lead out of the output), else undefined. */
export function realFolder(dir: string): string | undefined {
  return lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : undefined;
}

/**
 * How many files `dir` holds when they are exactly `expected` (relative path → sha256: no other
 * file, no other folder, no link, each file's bytes as expected); undefined otherwise.
 */
export function folderMatches(dir: string, expected: ReadonlyMap<string, string> | undefined): number | undefined {
  if (!expected || !realFolder(dir)) return undefined;
  const folders = new Set(
    [...expected.keys()].flatMap((rel) =>
      rel
        .split(path.sep)
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join(path.sep)),
    ),
  );
  let files = 0;
  const inside = dir + path.sep;
  // Without expected folders, any folder there is a mismatch: the top of `dir` is all there is to read.
  for (const e of readdirSync(dir, { recursive: folders.size > 0, withFileTypes: true })) {
    // Entries' folders are `dir` or below it as the walk joined them: their paths are cut, not worked out again.
    const joined = `${e.parentPath}${path.sep}${e.name}`;
    const cut = joined.startsWith(inside);
    const rel = cut ? joined.slice(inside.length) : path.relative(dir, path.join(e.parentPath, e.name));
    if (e.isDirectory() && folders.has(rel)) continue;
    const digest = e.isFile() ? expected.get(rel) : undefined;
    if (digest === undefined || sha256Regular(cut ? joined : path.join(dir, rel))?.sha256 !== digest) return undefined;
    files++;
  }
  return files === expected.size ? files : undefined;
}
