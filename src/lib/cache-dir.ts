/**
 * The folders of `.cache/`, never followed through a link: whoever can write there must not make
 * a build write (or read) anywhere else. A link where a cache folder should be is removed and
 * said (it only costs the next build making that part again); `.cache` itself, when it is a link
 * (someone may have put it on another disk on purpose), is left alone and not used: the build
 * keeps its work in a temporary folder of its own and makes everything. So does a build whose
 * `.cache` cannot be made or written (a read-only working folder).
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from './errors.ts';

/** Where a build keeps its work, and how to let go of it at the end. */
export interface CacheRoot {
  dir: string;
  /** A temporary folder used because `.cache` could not be (removed by `close`). */
  temporary: boolean;
  close(): void;
}

/**
 * `dir` (`.cache`) when it is a real folder or missing (then made) and can be written; else a
 * temporary folder, said through `log` in one line.
 */
export function openCacheRoot(dir: string, log: (line: string) => void): CacheRoot {
  const abs = path.resolve(dir);
  const why = unusable(abs);
  if (why === undefined) return { dir: abs, temporary: false, close: () => {} };
  const temp = mkdtempSync(path.join(tmpdir(), 'skillpress-cache-'));
  log(`cache: ${abs} ${why}: this build keeps its work in ${temp} and makes everything`);
  return { dir: temp, temporary: true, close: () => rmSync(temp, { recursive: true, force: true }) };
}

/**
 * Why `abs` cannot be the cache, or undefined when it is (made) a writable folder. Any error
 * counts (a read-only or odd working folder: EACCES, EROFS, EPERM, ENOTDIR…): the cache only
 * saves time, so a build never fails for the want of one.
 */
function unusable(abs: string): string | undefined {
  try {
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (st && !st.isDirectory())
      return `is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; not used (a build never writes through it)`;
    // Not recursive when the working folder exists: Node's recursive mkdir never returns where
    // mkdir says ENOENT under a parent that exists (a working folder under /proc).
    if (!st) makeFolder(abs);
    accessSync(abs, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (err) {
    return `cannot be made or written (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}); not used`;
  }
}

/** Makes `abs`; one made meanwhile (another build starting in the same folder) is as good. */
function makeFolder(abs: string): void {
  try {
    mkdirSync(abs, { recursive: !existsSync(path.dirname(abs)) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
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
