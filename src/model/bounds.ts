/**
 * How much of a skill's own words ranking reads. A skill cannot buy its way into every request
 * by saying everything: search (both indexes' metadata), the meaning vectors and the model
 * judge read at most the specification's 1,024 characters of a description, and at most 20 tags
 * of at most 64 characters each (the loader keeps no more, and warns). Browser-safe, no imports.
 */

/** Characters (code points) of a description that are indexed: the specification's limit. */
export const INDEXED_DESCRIPTION_CHARS = 1024;
/** Tags kept per skill. */
export const MAX_TAGS = 20;
/** Characters of one tag; a longer one is dropped. */
export const MAX_TAG_CHARS = 64;

/** The part of a description that ranking reads: its first 1,024 characters, ending at a word's end. */
export function indexedDescription(description: string): string {
  if (description.length <= INDEXED_DESCRIPTION_CHARS) return description;
  const chars = Array.from(description);
  if (chars.length <= INDEXED_DESCRIPTION_CHARS) return description;
  const head = chars.slice(0, INDEXED_DESCRIPTION_CHARS).join('');
  if (/\s/.test(chars[INDEXED_DESCRIPTION_CHARS]!)) return head;
  const lastBlank = head.search(/\s\S*$/);
  return lastBlank > 0 ? head.slice(0, lastBlank) : head;
}

/** The tags ranking reads: the first 20 of at most 64 characters. */
export function indexedTags(tags: readonly string[]): string[] {
  return tags.filter((t) => Array.from(t).length <= MAX_TAG_CHARS).slice(0, MAX_TAGS);
}
