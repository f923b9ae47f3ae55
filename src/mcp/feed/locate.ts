/**
 * `--feed` accepts a build folder (`dist`), a feed folder (`dist/feed/v1`), or an http(s) URL of
 * a published site or of its `feed/v1/index.json`. This turns any of them into a FeedStore.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DirStore, type FeedStore } from './store.ts';
import type { RemoteStoreOptions } from './remote-store.ts';

export const FEED_SUBDIR = 'feed/v1';

export async function openFeed(feed: string, options: RemoteStoreOptions = {}): Promise<FeedStore> {
  if (/^https?:\/\//i.test(feed)) {
    // Only URL feeds need the cache and HTTP code: local ones start without loading it.
    const { RemoteStore } = await import('./remote-store.ts');
    const store = new RemoteStore(indexUrlOf(feed), options);
    await store.open();
    return store;
  }
  return new DirStore(await feedDirOf(feed));
}

/** `https://site/` → `https://site/feed/v1/index.json`; a URL ending in `.json` is taken as is. */
export function indexUrlOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith('.json')) return parsed.href;
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return new URL(`${FEED_SUBDIR}/index.json`, parsed).href;
}

async function feedDirOf(dir: string): Promise<string> {
  const candidates = [dir, path.join(dir, FEED_SUBDIR)];
  for (const candidate of candidates) {
    if (await isFile(path.join(candidate, 'index.json'))) return candidate;
  }
  throw new Error(`no feed at ${dir}: expected ${path.join(dir, 'index.json')} or ${path.join(dir, FEED_SUBDIR, 'index.json')} (run \`skillpress build\` first)`);
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
