/**
 * Rendered HTML kept between builds, by content digest: the key is a sha256 of everything the
 * output depends on (the renderer's own code and version, the input text, the URLs it links
 * to), so an entry is never stale — a changed input is a new key. Deleting the folder is always
 * safe: the next build renders everything again.
 *
 * An entry's modification time is the last build that used it; `prune` removes entries no build
 * used for a week (never what a build running beside this one, such as `skillpress dev`, just
 * used). Writes are atomic; a missing entry is a miss.
 */
import { createHash } from 'node:crypto';
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from '../lib/fs.ts';

/** Entries unused this long are removed. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

export class RenderCache {
  readonly #dir: string;
  rendered = 0;
  reused = 0;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The cache key of these inputs (strings, numbers, arrays of them). */
  static key(...inputs: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
  }

  /** The file holding `render()`'s output for `key`; renders only when no earlier build did. */
  async file(key: string, render: () => string): Promise<string> {
    const file = path.join(this.#dir, `${key}.html`);
    const now = new Date();
    if (await utimes(file, now, now).then(() => true, () => false)) {
      this.reused++;
      return file;
    }
    await atomicWrite(file, render());
    this.rendered++;
    return file;
  }

  /** Remove entries (and leftover temporary files) no build used for a week; returns how many. */
  async prune(now = Date.now()): Promise<number> {
    const names = await readdir(this.#dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.#dir, name);
      const st = await stat(file).catch(() => undefined);
      if (st?.isFile() && now - st.mtimeMs > KEEP_MS) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
