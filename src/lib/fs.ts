/** File-system helpers shared by every stage that writes: paths kept inside a root, atomic writes. */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UnsafePathError } from './errors.ts';
import { pathSegments, quotePath } from './paths.ts';

/** Join a publishable relative path onto `root` (throws UnsafePathError for anything else). */
export function resolveInside(root: string, relPath: string): string {
  const abs = path.resolve(root, ...pathSegments(relPath));
  const base = path.resolve(root);
  if (abs !== base && !abs.startsWith(base + path.sep))
    throw new UnsafePathError(`path ${quotePath(relPath)} leaves ${base}`);
  return abs;
}

/** Whether `child` is `parent` or inside it (resolved OS paths, compared by whole segments). */
export function isInsideDir(child: string, parent: string): boolean {
  const c = path.resolve(child);
  const p = path.resolve(parent);
  return c === p || c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
}

/**
 * The real path of `file` (links resolved), which must be inside `realRoot` (itself a real
 * path): a link inside a folder must not lead out of it. Throws UnsafePathError (`leaves-folder`)
 * naming `what` and the root (`rootName`), or the file system's error (ENOENT…).
 */
export function realpathInside(realRoot: string, file: string, what: string, rootName = realRoot): string {
  const real = realpathSync(file);
  if (!real.startsWith(realRoot + path.sep))
    throw new UnsafePathError(`${what} resolves outside ${rootName}`, { rule: 'leaves-folder' });
  return real;
}

/** Write through a temporary name and rename, so a crash never leaves a half-written file. */
export async function atomicWrite(file: string, data: Uint8Array | string, makeFolder = true): Promise<void> {
  if (makeFolder) await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** What marks a folder or lock as made by this process: the host, the process id, when. */
export const processMark = (): { host: string; pid: number; started: string } => ({
  host: hostname(),
  pid: process.pid,
  started: new Date().toISOString(),
});

/** Whether `mark` (a processMark) names a process of this machine that is no longer running: what it made was left behind. */
export function isMarkOfGoneProcess(mark: unknown): boolean {
  const { host, pid } = (mark ?? {}) as { host?: unknown; pid?: unknown };
  if (host !== hostname() || typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
