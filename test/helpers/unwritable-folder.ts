/**
 * A working folder where nothing can be made, for the tests of a build whose `.cache` cannot be:
 * a read-only folder (mode 0555), or `/proc` when the tests run as root, whose writes a folder's
 * mode does not stop (mkdir there fails with ENOENT, and Node's recursive mkdir never returned).
 * A test skips itself with {@link UNWRITABLE_SKIP} where neither works (root without /proc).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Root writes through a folder's mode bits: a read-only folder stops only other users. */
export const ROOT_USER = process.getuid?.() === 0;
/** True where no folder is unwritable to these tests: they skip. */
export const UNWRITABLE_SKIP = ROOT_USER && !existsSync('/proc/self');

export async function unwritableFolder(parent: string): Promise<string> {
  if (UNWRITABLE_SKIP) throw new Error('no unwritable folder here: running as root without /proc');
  if (ROOT_USER) return '/proc';
  const dir = path.join(parent, 'read-only');
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o555);
  return dir;
}
