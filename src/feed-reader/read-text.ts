/**
 * Reading a big feed part (cards.json, the search indexes: ~10 MB each at 10,000 skills) as
 * text, in fixed-size chunks that are hashed and decoded as they come.
 *
 * Why not one `readFile`: glibc's malloc serves a buffer that big with mmap, and freeing it
 * raises malloc's mmap threshold to its size. From then on buffers of that size come from
 * malloc's own heap, which keeps them after they are freed. Whole-file reads of the parts left
 * ~30 MB of such memory in a 10,000-skill server; small chunks leave none.
 */
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { IntegrityError } from '../lib/errors.ts';

/** A feed file's text and the sha256 of its bytes. */
export interface FeedText {
  text: string;
  sha256: string;
}

/**
 * Throws an IntegrityError naming `what` unless `actual` is the digest the feed lists (the
 * bytes changed: a rebuild in progress, or tampering).
 */
export function checkDigest(actual: string, sha256: string, what: string): void {
  if (actual !== sha256)
    throw new IntegrityError(`${what}: sha256 ${actual} does not match the sha256 the feed lists for it (${sha256})`, {
      rule: 'digest-mismatch',
    });
}

/** Below glibc's default mmap threshold (128 KiB). */
const CHUNK = 64 * 1024;

/** The UTF-8 text of `file`, which must hash to `sha256` (else an IntegrityError naming `what`). */
export async function readVerifiedText(file: string, sha256: string, what: string): Promise<string> {
  const { text, sha256: actual } = await readTextFile(file);
  checkDigest(actual, sha256, what);
  return text;
}

/** The UTF-8 text of `file` and the sha256 of its bytes. */
export async function readTextFile(file: string): Promise<FeedText> {
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafeSlow(CHUNK);
    const hash = createHash('sha256');
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    // Synchronous chunk reads: as fast as one whole-file read (an async read per chunk costs a
    // thread-pool round trip each, ~40% slower), and parsing the text blocks for as long anyway.
    for (;;) {
      const bytesRead = readSync(handle.fd, chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, bytesRead);
      hash.update(bytes);
      parts.push(decoder.write(bytes));
    }
    parts.push(decoder.end());
    return { text: parts.join(''), sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
