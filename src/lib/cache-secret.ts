/**
 * The secret that signs what a build keeps in `.cache/` (src/lib/file-cache.ts): an entry that is
 * made from its inputs (an archive, a rendered page) cannot be checked by its bytes alone, since
 * whoever can write to `.cache/` can write new bytes and name them by their own digest. So such
 * entries carry an HMAC of their key and digest, made with a secret kept OUTSIDE `.cache/`:
 *
 * - `SKILLPRESS_CACHE_KEY` when set (at least 32 characters): for CI, from a secret of the
 *   repository, so entries restored from a CI cache verify only when this workflow signed them;
 * - else `$XDG_STATE_HOME/skillpress/cache-key` (default `~/.local/state/skillpress/cache-key`),
 *   32 random bytes made on first use, readable by its owner only;
 * - else (no home to write to, or that file would lie inside the cache folder itself) a random
 *   secret for this process: nothing kept by an earlier process is trusted, everything is made.
 *
 * A CI job without the variable starts on a fresh machine with a fresh secret: it verifies no
 * restored entry that needs one and makes them all (content-addressed entries, checked by their
 * bytes, are still reused).
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.ts';
import { isInsideDir } from './fs.ts';

export const CACHE_KEY_ENV = 'SKILLPRESS_CACHE_KEY';
const MIN_ENV_LENGTH = 32;
const SECRET_BYTES = 32;

/** Where the machine's secret is kept when no variable gives one. */
export function cacheSecretFile(): string {
  const state = process.env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  return path.join(state, 'skillpress', 'cache-key');
}

/** The secret in `file` (a regular file, never through a link), made when missing; undefined when neither works. */
function fileSecret(file: string): Buffer | undefined {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Made whole under another name, then linked in: a process starting at the same moment
    // never reads half a secret, and the first one made is the one every process uses.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(tmp, randomBytes(SECRET_BYTES), { flag: 'wx', mode: 0o600 });
    try {
      linkSync(tmp, file);
    } finally {
      unlinkSync(tmp);
    }
  } catch {
    /* kept already (or not writable: read below decides) */
  }
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return undefined;
    const secret = Buffer.alloc(SECRET_BYTES);
    return readSync(fd, secret) === SECRET_BYTES ? secret : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Per cache folder: its secret is resolved once per process. */
const secrets = new Map<string, { secret: Buffer; source: string }>();

/**
 * The secret for entries kept below `cacheDir`, and where it comes from (for the docs and the
 * warnings: `SKILLPRESS_CACHE_KEY`, the file, or `this process only`).
 */
export function cacheSecret(cacheDir: string): { secret: Buffer; source: string } {
  const env = process.env[CACHE_KEY_ENV];
  if (env) {
    if (env.length < MIN_ENV_LENGTH)
      throw new UsageError(
        `${CACHE_KEY_ENV} is ${env.length} characters long; the cache key needs at least ${MIN_ENV_LENGTH}`,
      );
    return { secret: Buffer.from(env, 'utf8'), source: CACHE_KEY_ENV };
  }
  const file = cacheSecretFile();
  const id = `${file}\0${path.resolve(cacheDir)}`;
  let found = secrets.get(id);
  if (!found) {
    // A secret inside the cache folder is as forgeable as the entries it signs.
    const inside = isInsideDir(file, cacheDir) || isInsideDir(file, path.resolve('.cache'));
    const kept = inside ? undefined : fileSecret(file);
    found = kept ? { secret: kept, source: file } : { secret: randomBytes(SECRET_BYTES), source: 'this process only' };
    secrets.set(id, found);
  }
  return found;
}

/** The HMAC-SHA256 (hex, first 32 characters: 128 bits) of `parts` under `secret`. */
export function cacheTag(secret: Buffer, ...parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('\0')).digest('hex').slice(0, 32);
}
