/** Where the command line caches feeds it reads from URLs (dependency-free: `skillpress mcp` loads it at start). */
import path from 'node:path';

/** `$XDG_CACHE_HOME/skillpress/feeds`, else `<home>/.cache/skillpress/feeds`. */
export function defaultCacheRoot(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const base = env.XDG_CACHE_HOME || path.join(home, '.cache');
  return path.join(base, 'skillpress', 'feeds');
}
