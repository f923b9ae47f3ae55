/**
 * Paths in the published output. File paths come from skill folders and peer feeds, so they
 * are untrusted: every segment is checked before anything is written, and every URL is
 * percent-encoded per segment so names like `#hash ?q%20.txt` stay reachable.
 */
import path from 'node:path';

export class UnsafePathError extends Error {}

/**
 * The segments of a relative `/`-separated path, or an error naming the rule it breaks:
 * no empty, `.` or `..` segments, no absolute path, no backslash, no NUL or control character.
 */
export function safeSegments(relPath: string): string[] {
  const fail = (rule: string): never => {
    throw new UnsafePathError(`unsafe path ${JSON.stringify(relPath)}: ${rule}`);
  };
  if (relPath.length === 0) fail('empty');
  if (relPath.startsWith('/') || /^[A-Za-z]:/.test(relPath)) fail('absolute paths are not allowed');
  if (relPath.includes('\\')) fail('backslashes are not allowed');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(relPath)) fail('NUL and control characters are not allowed');
  const segments = relPath.split('/');
  for (const s of segments) {
    if (s === '') fail('empty segment');
    if (s === '.' || s === '..') fail(`"${s}" segments are not allowed`);
  }
  return segments;
}

/** Join a safe relative path onto `root` and make sure the result stays inside it. */
export function resolveInside(root: string, relPath: string): string {
  const abs = path.resolve(root, ...safeSegments(relPath));
  const base = path.resolve(root);
  if (abs !== base && !abs.startsWith(base + path.sep)) throw new UnsafePathError(`unsafe path ${JSON.stringify(relPath)}: leaves the output folder`);
  return abs;
}

/** Percent-encode each segment of a relative path for use in a URL (`/` stays a separator). */
export function encodePath(relPath: string): string {
  return relPath
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
