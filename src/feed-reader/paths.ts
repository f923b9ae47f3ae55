/**
 * Paths inside a feed. Every URL a feed holds is relative to the feed root (src/model/feed.ts);
 * a reader turns each into a "feed path" (decoded, `/`-separated, relative to the feed root) and
 * refuses any that would leave the feed: `..` after resolution, absolute URLs, encoded slashes,
 * NUL bytes. Everything a feed reader reads goes through `resolveFeedPath`, so nothing outside
 * the feed is read — on disk, or on the feed's host.
 */

import { UnsafePathError } from '../lib/errors.ts';
import { checkPath, encodePath } from '../lib/paths.ts';

const BASE = 'https://feed.invalid/';

/**
 * Resolves `url` (as written in the feed file at feed path `from`) to a feed path.
 * `from` is the containing file, e.g. `skills/pdf.json`; `''` means the feed root.
 */
export function resolveFeedPath(from: string, url: string): string {
  if (typeof url !== 'string' || url.length === 0) throw new UnsafePathError('empty URL');
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('/') || url.includes('\\')) {
    throw new UnsafePathError(`not a relative URL: ${JSON.stringify(url)}`);
  }
  let resolved: URL;
  try {
    resolved = new URL(url, BASE + encodePath(from));
  } catch {
    throw new UnsafePathError(`not a valid URL: ${JSON.stringify(url)}`);
  }
  if (resolved.origin !== new URL(BASE).origin || !resolved.pathname.startsWith('/')) {
    throw new UnsafePathError(`URL leaves the feed: ${JSON.stringify(url)}`);
  }
  const segments = resolved.pathname.slice(1).split('/').map(decodeSegment);
  return checkPath(segments.join('/'));
}

function decodeSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new UnsafePathError(`bad percent-encoding in ${JSON.stringify(segment)}`);
  }
  // An encoded `/` would smuggle a separator past the segment checks.
  if (decoded.includes('/')) throw new UnsafePathError(`encoded "/" in ${JSON.stringify(segment)}`);
  return decoded;
}
