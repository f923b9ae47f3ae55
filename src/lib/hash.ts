import { createHash } from 'node:crypto';
import { closeSync, constants, openSync, readSync } from 'node:fs';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** One buffer for every sha256File call (they are synchronous, so never share it at once). */
const CHUNK = Buffer.allocUnsafe(1 << 20);

/**
 * The sha256 and size of a file, read through one reused buffer: checking thousands of kept
 * files this way allocates nothing per file (reading each whole kept the collector busy).
 * Undefined when the file cannot be read (or, with `noFollow`, is a symbolic link).
 */
export function sha256File(file: string, noFollow = false): { sha256: string; bytes: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, noFollow ? constants.O_RDONLY | constants.O_NOFOLLOW : constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    const hash = createHash('sha256');
    let bytes = 0;
    for (let n = readSync(fd, CHUNK); n > 0; n = readSync(fd, CHUNK)) {
      hash.update(CHUNK.subarray(0, n));
      bytes += n;
    }
    return { sha256: hash.digest('hex'), bytes };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
