/** The render cache: content-addressed, reused across builds, pruned by age, safe to delete. */
import { mkdtemp, readFile, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RenderCache } from '../../src/site/render-cache.ts';

let dir: string;
beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'skillpress-render-cache-')), 'cache');
});
afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

describe('RenderCache', () => {
  it('keys by every input, so a changed input is a new entry', () => {
    expect(RenderCache.key('a', ['x', 'y'])).toBe(RenderCache.key('a', ['x', 'y']));
    expect(RenderCache.key('a', ['x', 'y'])).not.toBe(RenderCache.key('a', ['x,y']));
    expect(RenderCache.key('ab', 'c')).not.toBe(RenderCache.key('a', 'bc'));
  });

  it('renders once; a later build (a new cache over the same folder) reuses it', async () => {
    let renders = 0;
    const render = () => `<p>${++renders}</p>`;
    const first = new RenderCache(dir);
    const file = await first.file('k1', render);
    expect([first.rendered, first.reused, await readFile(file, 'utf8')]).toEqual([1, 0, '<p>1</p>']);
    const second = new RenderCache(dir);
    expect(await second.file('k1', render)).toBe(file);
    await second.file('k2', render);
    expect([second.rendered, second.reused, renders]).toEqual([1, 1, 2]);
    // Deleted: rendered again, nothing breaks.
    await rm(dir, { recursive: true });
    const third = new RenderCache(dir);
    expect(await readFile(await third.file('k1', render), 'utf8')).toBe('<p>3</p>');
  });

  it('prunes entries no build used for a week, and keeps what a build just used', async () => {
    const cache = new RenderCache(dir);
    const old = await cache.file('old', () => 'old');
    const fresh = await cache.file('fresh', () => 'fresh');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await utimes(old, weekAgo, weekAgo);
    await utimes(fresh, weekAgo, weekAgo);
    // A build uses `fresh` again: its entry is touched.
    await new RenderCache(dir).file('fresh', () => 'never');
    expect(await cache.prune()).toBe(1);
    expect(await readdir(dir)).toEqual([path.basename(fresh)]);
  });
});
