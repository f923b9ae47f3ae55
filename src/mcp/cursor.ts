/**
 * Opaque paging cursors: `<kind>:<value>` in base64url, so a client cannot mistake one kind of
 * cursor for another (`skills_list` offsets, `skills/list` and directory positions) and a
 * cursor it made up decodes to nothing.
 */
const MAX_CURSOR = 12_000;

export function encodeCursor(kind: string, value: string): string {
  return Buffer.from(`${kind}:${value}`, 'utf8').toString('base64url');
}

/** The value of a cursor of this kind, or undefined for anything else. */
export function decodeCursor(kind: string, cursor: string): string | undefined {
  if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : undefined;
}
