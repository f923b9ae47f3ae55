/**
 * Finding a feed: a build folder (`dist`), a feed folder (`dist/feed/v1`), or an http(s) URL of a
 * published site, of its feed folder, or of its `feed/v1/index.json`. Any of them becomes a
 * FeedStore (store.ts, remote-store.ts).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { NetworkError, NotFoundError } from '../lib/errors.ts';
import { FEED_PATH } from '../lib/layout.ts';
import { DirStore, type DirStoreOptions, type FeedStore } from './store.ts';
import type { RemoteStore, RemoteStoreOptions } from './remote-store.ts';

export interface OpenOptions extends RemoteStoreOptions, DirStoreOptions {
  /** The feed folder below a build folder or site root (default `feed/v1`). */
  feedPath?: string;
  /** URLs: open from the cache without the network when it holds the feed (the caller refreshes later). Default: fetch now. */
  cacheFirst?: boolean;
}

const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/**
 * The verified bytes of the feed at `location` (folder or URL), for {@link FeedCatalog.load} and
 * the MCP server. A {@link NotFoundError} when no feed is there.
 *
 * @example
 * ```ts
 * import { FeedCatalog, openFeedStore } from 'skillpress';
 * const catalog = await FeedCatalog.load(await openFeedStore('dist'));
 * console.log(catalog.cards.length, catalog.search.search('pdf form', { limit: 3 }));
 * ```
 */
export async function openFeedStore(location: string, options: OpenOptions = {}): Promise<FeedStore> {
  return isUrl(location)
    ? openRemote(location, options)
    : new DirStore(await feedDirOf(location, options.feedPath ?? FEED_PATH), options);
}

/** `https://site/` → `https://site/feed/v1/index.json`; a URL ending in `.json` is taken as is. */
export function indexUrlOf(url: string, feedPath = FEED_PATH): string {
  return feedIndexUrls(url, feedPath)[0]!;
}

/**
 * Where index.json may be under a URL, in the order to try: the URL itself (`…/index.json`), else
 * below the site root, else below the URL as a feed folder, else below it as the feed's parent
 * (`https://site/feed/`, the site's page about its feed). One list for every reader of a feed URL
 * (`mcp --feed`, `build --previous`, `federation.peers`, `install`), so all accept the same URLs.
 */
export function feedIndexUrls(url: string, feedPath = FEED_PATH): string[] {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith('.json')) return [parsed.href];
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  const within = (rel: string) => new URL(`${rel}index.json`, parsed).href;
  const parent = feedPath.slice(0, feedPath.lastIndexOf('/') + 1);
  const belowParent = parent !== '' && parsed.pathname.endsWith(`/${parent}`);
  return [within(`${feedPath}/`), within(''), ...(belowParent ? [within(`${feedPath.slice(parent.length)}/`)] : [])];
}

/**
 * Whether a feed could not be reached: no answer, a timeout, a 5xx or a 429. Not a feed that answered
 * something wrong (404, a schema or digest failure): that is what its server publishes.
 */
export function isUnreachable(err: unknown): err is NetworkError {
  if (!(err instanceof NetworkError)) return false;
  // A 429 (rate limited) passes, as a 503 does.
  return err.rule === 'network' || err.rule === 'timeout' || err.status === 429 || (err.status ?? 0) >= 500;
}

/**
 * `open` on each of {@link feedIndexUrls} in turn until one answers: a 404 moves on to the next
 * place, anything else (refused, broken) is the answer. When every place answers 404, a
 * NotFoundError naming them all. A feed that cannot be reached is named by `location`, the URL
 * the user gave, with the index URL tried under it (same class, rule and status).
 */
export async function openFirstFeedIndex<T>(
  location: string,
  open: (indexUrl: string) => Promise<T>,
  feedPath = FEED_PATH,
): Promise<T> {
  const candidates = feedIndexUrls(location, feedPath);
  for (let i = 0; ; i++) {
    try {
      return await open(candidates[i]!);
    } catch (err) {
      if (isUnreachable(err)) throw namingLocation(err, location, candidates[i]!);
      if (!(err instanceof NetworkError && err.status === 404)) throw err;
      if (i === candidates.length - 1)
        throw new NotFoundError(`no feed at ${location}: ${candidates.join(', ')} answered 404 Not Found`, {
          cause: err,
          rule: err.rule, // the HTTP client's rule for a 404, as a single place would have failed
        });
    }
  }
}

function namingLocation(err: NetworkError, location: string, indexUrl: string): NetworkError {
  if (new URL(location).href === indexUrl) return err; // the URL given is the index: already named
  return new NetworkError(`${location} could not be reached (${err.message})`, err.status, {
    rule: err.rule,
    cause: err,
  });
}

async function openRemote(location: string, options: OpenOptions): Promise<RemoteStore> {
  // Only URL feeds need the cache and HTTP code: local ones start without loading it.
  const { RemoteStore } = await import('./remote-store.ts');
  const open = async (indexUrl: string): Promise<RemoteStore> => {
    const store = new RemoteStore(indexUrl, options);
    if (options.cacheFirst) await store.open();
    else await store.refresh();
    return store;
  };
  return openFirstFeedIndex(location, open, options.feedPath ?? FEED_PATH);
}

async function feedDirOf(dir: string, feedPath: string): Promise<string> {
  if (path.basename(dir) === 'index.json' && (await isFile(dir))) return path.dirname(dir);
  const candidates = [dir, path.join(dir, ...feedPath.split('/'))];
  for (const candidate of candidates) {
    if (await isFile(path.join(candidate, 'index.json'))) return candidate;
  }
  throw new NotFoundError(
    `no feed at ${dir}: expected ${path.join(dir, 'index.json')} or ${path.join(candidates[1]!, 'index.json')} (run \`skillpress build\` first)`,
  );
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
