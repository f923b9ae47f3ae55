/** Checks for paths and URLs that come from someone else's feed or archive. */

/**
 * Why a skill-relative file path from untrusted input is unsafe, or undefined when it is fine.
 * Accepted: `/`-separated relative paths with no empty, `.` or `..` segment, no backslash,
 * no NUL or other control character, no drive letter.
 */
export function unsafePathReason(p: string): string | undefined {
  if (p.length === 0) return 'path is empty';
  if (p.includes('\0')) return 'path contains a NUL byte';
  if (/[\x00-\x1f]/.test(p)) return 'path contains a control character';
  if (p.includes('\\')) return 'path contains a backslash';
  if (p.startsWith('/')) return 'path is absolute';
  if (/^[A-Za-z]:/.test(p)) return 'path starts with a drive letter';
  const segments = p.split('/');
  if (segments.includes('..')) return 'path contains a ".." segment';
  if (segments.some((s) => s === '' || s === '.')) return 'path has an empty or "." segment';
  return undefined;
}

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
