/** The build caches' store: keyed by inputs, checked against each entry's sha256, pruned by age, safe to delete. */
import { createHash } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileCache } from '../../src/lib/file-cache.ts';

/** Keys as the build makes them (sha256 of the inputs). */
const K = {
  k1: FileCache.key('k1'),
  k2: FileCache.key('k2'),
  a1: FileCache.key('a1'),
  old: FileCache.key('old'),
  fresh: FileCache.key('fresh'),
};
let tmp: string;
let dir: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-file-cache-'));
  dir = path.join(tmp, 'cache');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Flip one byte of a file in place (as a disk error or an edit through a hard link would). */
async function damage(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes[0] = bytes[0]! ^ 0xff;
  await writeFile(file, bytes);
}

describe('FileCache', () => {
  it('keys by every input, so a changed input is a new entry', () => {
    expect(FileCache.key('a', ['x', 'y'])).toBe(FileCache.key('a', ['x', 'y']));
    expect(FileCache.key('a', ['x', 'y'])).not.toBe(FileCache.key('a', ['x,y']));
    expect(FileCache.key('ab', 'c')).not.toBe(FileCache.key('a', 'bc'));
  });

  it('keeps an entry for later builds, and deleting the folder only means making it again', async () => {
    const first = FileCache.open(dir);
    const kept = first.write(K.k1, '<p>1</p>');
    const second = FileCache.open(dir);
    expect(second.entry(K.k1)).toEqual(kept);
    expect(await readFile(kept.file, 'utf8')).toBe('<p>1</p>');
    expect(second.entry(K.k2)).toBeUndefined();
    expect(second.hits).toBe(1);
    await rm(dir, { recursive: true });
    expect(FileCache.open(dir).entry(K.k1)).toBeUndefined();
  });

  it('finds a damaged entry, removes it and never hands it out', async () => {
    const kept = FileCache.open(dir).write(K.k1, 'the rendered page');
    await damage(kept.file);
    const cache = FileCache.open(dir);
    expect(cache.entry(K.k1)).toBeUndefined();
    expect(cache.damaged).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('places an entry as a hard link checked at its destination; a damaged one leaves no file behind', async () => {
    const out = path.join(tmp, 'out.tar.gz');
    await writeFile(out, 'archive bytes');
    const first = FileCache.open(dir);
    first.adopt(K.a1, out, createHash('sha256').update('archive bytes').digest('hex'));
    const again = path.join(tmp, 'again.tar.gz');
    const placed = FileCache.open(dir).place(K.a1, again);
    expect(placed?.bytes).toBe(13);
    expect(await readFile(again, 'utf8')).toBe('archive bytes');
    expect((await stat(again)).ino).toBe((await stat(out)).ino);
    // The output edited in place through the link: the entry is damaged with it.
    await damage(out);
    const third = path.join(tmp, 'third.tar.gz');
    expect(FileCache.open(dir).place(K.a1, third)).toBeUndefined();
    await expect(stat(third)).rejects.toThrow();
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads the bytes of an entry only when they match its digest, and gives its digest to a caller that checks its own copy', async () => {
    const kept = FileCache.open(dir).write(K.k1, 'body terms');
    const cache = FileCache.open(dir);
    expect(cache.read(K.k1)?.toString('utf8')).toBe('body terms');
    expect(cache.use(K.k1)).toBe(kept.sha256);
    expect(cache.use(K.k2)).toBeUndefined();
    await damage(kept.file);
    const later = FileCache.open(dir);
    expect(later.read(K.k1)).toBeUndefined();
    expect(later.damaged).toBe(1);
    expect(later.use(K.k1)).toBeUndefined();
  });

  it('prunes entries no build used for a week (at most once a day), and keeps what a build just used', async () => {
    const cache = FileCache.open(dir);
    const old = cache.write(K.old, 'old');
    const fresh = cache.write(K.fresh, 'fresh');
    const checked = cache.write(K.k2, 'checked');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const e of [old, fresh, checked]) await utimes(e.file, weekAgo, weekAgo);
    // A build uses `fresh` again, and checks a copy of `checked` against its digest: both are touched.
    FileCache.open(dir).entry(K.fresh);
    FileCache.open(dir).use(K.k2);
    expect(cache.prune()).toBe(1);
    expect((await readdir(dir)).filter((n) => !n.startsWith('.')).sort()).toEqual(
      [path.basename(fresh.file), path.basename(checked.file)].sort(),
    );
    // Pruned today already: the next builds of the day do not look again.
    await utimes(fresh.file, weekAgo, weekAgo);
    expect(cache.prune()).toBe(0);
    expect(cache.prune(Date.now() + 25 * 3600 * 1000)).toBe(1);
  });
});

/**
 * Whoever can write to `.cache/` (a CI cache restored from another run) must not get a build to
 * publish bytes it did not make: every attack below worked on a cache checked only against the
 * digest in an entry's own name.
 */
describe('FileCache under a hostile writer', () => {
  const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

  it('content-addressed: an entry renamed to the digest of new bytes is refused, named and removed', async () => {
    const honest = 'honest file bytes';
    const cache = FileCache.open(dir, { kind: 'content' });
    cache.write(sha(honest), honest);
    // The attacker replaces the entry: evil bytes under the honest key, named by their own digest.
    for (const n of await readdir(dir)) await rm(path.join(dir, n));
    await writeFile(path.join(dir, `${sha(honest)}.${sha('evil')}`), 'evil');
    const log: string[] = [];
    const again = FileCache.open(dir, { kind: 'content', log: (l) => log.push(l) });
    const dest = path.join(tmp, 'published');
    expect(again.place(sha(honest), dest)).toBeUndefined();
    await expect(stat(dest)).rejects.toThrow();
    expect(log.join('\n')).toContain(`${sha(honest)}.${sha('evil')}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('derived: an entry not signed with this machine’s key (forged, or made elsewhere) is refused, named and removed', async () => {
    const cache = FileCache.open(dir);
    const kept = cache.write(K.a1, 'the archive as built');
    expect(path.basename(kept.file)).toMatch(/^[0-9a-f]{64}\.[0-9a-f]{64}\.[0-9a-f]{32}$/);
    // The archive gains a file: new bytes, named by their digest, with the old tag or none.
    const [, , tag] = path.basename(kept.file).split('.');
    await rm(kept.file);
    await writeFile(path.join(dir, `${K.a1}.${sha('archive + evil')}.${tag}`), 'archive + evil');
    await writeFile(path.join(dir, `${K.k1}.${sha('page with <script>')}`), 'page with <script>');
    const log: string[] = [];
    const again = FileCache.open(dir, { log: (l) => log.push(l) });
    expect(again.has(K.a1)).toBe(false);
    expect(again.read(K.k1)).toBeUndefined();
    expect(again.damaged).toBe(2);
    expect(log.join('\n')).toContain(`${K.a1}.${sha('archive + evil')}`);
    expect(log.join('\n')).toContain(`${K.k1}.${sha('page with <script>')}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('an entry that is a symbolic link is never followed nor placed into an output', async () => {
    const secretFile = path.join(tmp, 'outside.txt');
    await writeFile(secretFile, 'not for publishing');
    await mkdir(dir, { recursive: true });
    // Named correctly for its target's bytes: only its being a link gives it away.
    await symlink(secretFile, path.join(dir, `${sha('not for publishing')}.${sha('not for publishing')}`));
    const log: string[] = [];
    const cache = FileCache.open(dir, { kind: 'content', log: (l) => log.push(l) });
    const dest = path.join(tmp, 'published');
    expect(cache.place(sha('not for publishing'), dest)).toBeUndefined();
    await expect(lstat(dest)).rejects.toThrow();
    expect(log.join('\n')).toMatch(/symbolic link/);
    expect(await readFile(secretFile, 'utf8')).toBe('not for publishing');
  });

  it('an entry others can rewrite is copied into the output, never shared through a hard link', async () => {
    const kept = FileCache.open(dir, { kind: 'content' }).write(sha('shared bytes'), 'shared bytes');
    await chmod(kept.file, 0o666);
    const dest = path.join(tmp, 'published');
    expect(FileCache.open(dir, { kind: 'content' }).place(sha('shared bytes'), dest)?.sha256).toBe(sha('shared bytes'));
    expect((await stat(dest)).ino).not.toBe((await stat(kept.file)).ino);
    // Rewritten in the cache after the build: the published copy keeps the bytes that were checked.
    await writeFile(kept.file, 'rewritten later');
    expect(await readFile(dest, 'utf8')).toBe('shared bytes');
  });

  it('a cache folder that is a symbolic link is not written through', async () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, dir);
    const log: string[] = [];
    const cache = FileCache.open(dir, { log: (l) => log.push(l) });
    cache.write(K.k1, 'kept');
    expect(await readdir(elsewhere)).toEqual([]);
    expect((await lstat(dir)).isDirectory()).toBe(true);
    expect(log.join('\n')).toContain(`${dir} is a symbolic link`);
  });
});
