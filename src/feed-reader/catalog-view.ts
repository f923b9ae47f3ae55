/**
 * Where a build keeps the site's catalog when it imports peers' skills without re-exporting them:
 * `catalog/v1` beside `feed/v1` (src/build.ts). Commands pointed at such a build's own feed say so.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CATALOG_PATH, FEED_PATH } from '../lib/layout.ts';
import { DirStore, type FeedStore } from './store.ts';

/**
 * The catalog view beside `store` (its own skills and the imported ones), when `store` is a
 * build's own `feed/v1` folder and the view is there; else undefined.
 */
export async function catalogViewBeside(store: FeedStore): Promise<string | undefined> {
  if (!(store instanceof DirStore) || !store.location.endsWith(path.join(...FEED_PATH.split('/')))) return undefined;
  const view = path.join(store.location, '..', '..', ...CATALOG_PATH.split('/'));
  return (await stat(path.join(view, 'index.json')).catch(() => undefined))?.isFile() ? view : undefined;
}
