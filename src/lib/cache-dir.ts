/**
 * The folders of `.cache/`, never followed through a link: whoever can write there must not make
 * a build write (or read) anywhere else. A link where a cache folder should be is removed and
 * said (it only costs the next build making that part again); `.cache` itself, when it is a link
 * (someone may have put it on another disk on purpose), is left alone and not used: the build
 * keeps its work in a temporary folder of its own and makes everything.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where a build keeps its work, and how to let go of it at the end. */
export interface CacheRoot {
  dir: string;
  /** A temporary folder used because `.cache` could not be (removed by `close`). */
  temporary: boolean;
  close(): void;
}

/** `dir` (`.cache`) when it is a real folder or missing (then made); else a temporary folder, said through `log`. */
export function openCacheRoot(dir: string, log: (line: string) => void): CacheRoot {
  const abs = path.resolve(dir);
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st || st.isDirectory()) {
    mkdirSync(abs, { recursive: true });
    return { dir: abs, temporary: false, close: () => {} };
  }
  const temp = mkdtempSync(path.join(tmpdir(), 'skillpress-cache-'));
  log(
    `cache: ${abs} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; not used (a build never writes through it): this build keeps its work in ${temp} and makes everything`,
  );
  return { dir: temp, temporary: true, close: () => rmSync(temp, { recursive: true, force: true }) };
}

/**
 * `root/…parts` as a real folder: each part below `root` that is a link or a file is removed
 * (said through `log`) and made a folder. Returns the folder.
 */
export function cacheFolder(root: string, parts: readonly string[], log: (line: string) => void): string {
  let dir = root;
  for (const part of parts) {
    dir = path.join(dir, part);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) {
      log(`cache: ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; removed, not followed`);
      rmSync(dir, { force: true });
    }
    mkdirSync(dir, { recursive: true });
  }
  return dir;
}
