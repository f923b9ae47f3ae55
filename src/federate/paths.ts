/** URLs that come from someone else's feed (file paths are checked by src/lib/paths.ts). */

/** Resolve a relative URL from a feed against the file it is in; it must stay on the same origin. */
export function resolveSameOrigin(relative: string, base: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(relative, base);
  } catch {
    return undefined;
  }
  return url.origin === new URL(base).origin ? url : undefined;
}
