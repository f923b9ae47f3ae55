import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';

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

/**
 * The sha256 of files read in this process, by inode: a file whose inode, size, modification and
 * change times are unchanged still holds the same bytes (the check git's index makes; the change
 * time cannot be set back). A process that builds again and again (`skillpress dev`) then reads
 * only the files it did not write or check itself.
 */
const checked = new Map<string, FileIdentity & { sha256: string; bytes: number }>();

/** What {@link sha256Regular} remembers a file by: its inode, its size and modification time, its change time. */
export interface FileIdentity {
  inode: string;
  content: string;
  change: bigint;
}

function statKey(file: string): (FileIdentity & { bytes: number }) | undefined {
  const st = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  return {
    inode: `${st.dev}:${st.ino}`,
    content: `${st.size}:${st.mtimeNs}`,
    change: st.ctimeNs,
    bytes: Number(st.size),
  };
}

const sameStat = (a: FileIdentity, b: FileIdentity): boolean => a.content === b.content && a.change === b.change;

/**
 * The sha256 and size of a regular file (never through a link: undefined then, or when it cannot
 * be read), read again only when its inode, size or times changed since this process last did.
 */
export function sha256Regular(file: string): { sha256: string; bytes: number } | undefined {
  const found = sha256Checked(file);
  return found && { sha256: found.sha256, bytes: found.bytes };
}

/** {@link sha256Regular} with the identity the file was checked under (what {@link rememberLink} takes), from one lstat. */
export function sha256Checked(file: string): { sha256: string; bytes: number; identity: FileIdentity } | undefined {
  const key = statKey(file);
  if (!key) return undefined;
  const identity = { inode: key.inode, content: key.content, change: key.change };
  const known = checked.get(key.inode);
  if (known && sameStat(known, key)) return { sha256: known.sha256, bytes: known.bytes, identity };
  const read = sha256File(file, true);
  if (read) checked.set(key.inode, { ...key, ...read });
  return read && { ...read, identity };
}

/**
 * After `to` was made a hard link of `from`, whose sha256 was checked just before: a link changes
 * the inode's change time, so the check is remembered again when `to` is still that inode with
 * the same size and modification time. Returns the check (what {@link sha256Regular} of `to`
 * now gives) when it was remembered.
 */
export function rememberLink(from: FileIdentity, to: string): { sha256: string; bytes: number } | undefined {
  const key = statKey(to);
  const known = checked.get(from.inode);
  if (!(key?.inode === from.inode && known && sameStat(known, from) && key.content === from.content)) return undefined;
  checked.set(key.inode, { ...known, change: key.change });
  return { sha256: known.sha256, bytes: known.bytes };
}

/** Records the sha256 of a file this process just wrote with those bytes: checking it later reads nothing. */
export function rememberSha256(file: string, sha256: string): void {
  const key = statKey(file);
  if (key) checked.set(key.inode, { ...key, sha256 });
}
