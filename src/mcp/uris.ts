/**
 * `skill://` URIs (SEP-2640): every file of a skill is `skill://<skill-path>/<file-path>`, where
 * the last segment of the skill path is the skill's name. A skill imported from a peer keeps its
 * feed id as the path (`skill://peer/name/…`), so names shared across registries stay apart.
 */
import type { Card } from '../model/feed.ts';
import { checkPath } from '../lib/paths.ts';
import { UnsafePathError } from '../lib/errors.ts';

export const SCHEME = 'skill://';

/** Segments of a skill's path: its id when the id ends in its name, else its name. */
export function skillPathSegments(card: Pick<Card, 'id' | 'name'>): string[] {
  const segments = card.id.split('/');
  return segments.at(-1) === card.name && segments.every((s) => s !== '' && s !== '.' && s !== '..')
    ? segments
    : [card.name];
}

const encode = (segment: string): string =>
  segment === '.' || segment === '..' ? segment.replaceAll('.', '%2E') : encodeURIComponent(segment);

/** `skill://<skill-path>` (no trailing slash). */
export function skillRootUri(card: Pick<Card, 'id' | 'name'>): string {
  return SCHEME + skillPathSegments(card).map(encode).join('/');
}

/** `skill://<skill-path>/<file-path>`, each segment percent-encoded. */
export function skillFileUri(card: Pick<Card, 'id' | 'name'>, path: string): string {
  return `${skillRootUri(card)}/${path.split('/').map(encode).join('/')}`;
}

/**
 * Splits a `skill://` URI into its decoded segments, refusing anything that could name a path
 * outside a skill: `..`, empty segments, encoded `/` or `\`, NUL, queries and fragments.
 */
export function parseSkillUri(uri: string): string[] {
  if (typeof uri !== 'string' || !uri.startsWith(SCHEME) || uri.length > 8192)
    throw new UnsafePathError(`not a ${SCHEME} URI: ${short(uri)}`);
  const rest = uri.slice(SCHEME.length);
  if (/[?#]/.test(rest)) throw new UnsafePathError(`a ${SCHEME} URI has no query or fragment: ${short(uri)}`);
  const segments = rest.split('/').map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new UnsafePathError(`bad percent-encoding in ${short(uri)}`);
    }
    if (decoded.includes('/')) throw new UnsafePathError(`encoded "/" in ${short(uri)}`);
    return decoded;
  });
  checkPath(segments.join('/'));
  return segments;
}

function short(text: unknown): string {
  const s = String(text);
  return JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);
}
