/**
 * Text handling for the search indexes: how fields, file paths and queries become terms.
 * Browser-safe (no node: imports): the site bundles this module.
 *
 * Words are stemmed (Snowball's English stemmer, `porter2`) at index and query time, so
 * `forecasting` meets `forecast`, `conflicts` `conflict`, `tests` `testing`. Only plain
 * lowercase ASCII words are stemmed: names like `pdf-processing`, versions and code identifiers
 * with digits are kept as written.
 */
import { stem } from 'porter2';
import { eng } from 'stopword';

/** Characters that join the parts of one word-like token: `pdf-processing`, `extract.py`, `a/b`. */
const JOINERS = /[-_./:@+#~]/;
/** Anything that is not a letter or a digit separates word parts. */
const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Leading and trailing punctuation of a chunk (`(files),` → `files`). */
const EDGE_PUNCT = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** Terms longer than this are dropped: hashes, base64, minified code. Paths get more room. */
const MAX_TERM = 40;
const MAX_PATH_TERM = 120;

/**
 * Common English words that carry no meaning for search: the `stopword` package's English list
 * plus a few more. Removed from the body index (where they would cost the most space) and from
 * queries; names and descriptions keep every word.
 */
export const STOP_WORDS = new Set([
  ...eng,
  ...'does its not no yes may use used using will whom whose why when'.split(' '),
]);

const push = (out: string[], seen: Set<string>, term: string): void => {
  if (term && !seen.has(term)) {
    seen.add(term);
    out.push(term);
  }
};

/**
 * Language names made of a letter and symbols lose the symbols to tokenizing (`C#` would be
 * `c`, `.NET` `net`, `C++` `c`): spelled as the words their communities use in names (`csharp-async`,
 * `dotnet-timezone`, `cpp`), so they meet each other and skills named that way.
 */
const LANGUAGE_NAMES: Record<string, string> = { 'c#': 'csharp', 'f#': 'fsharp', 'c++': 'cpp', '.net': 'dotnet' };
const LANGUAGE_NAME = /(^|[\s([{"'`,/])(c#|f#|c\+\+|\.net)(?=$|[\s)\]}"'`,;:!?./])/giu;

export function spellLanguageNames(text: string): string {
  return text.replace(LANGUAGE_NAME, (_, before: string, name: string) => before + LANGUAGE_NAMES[name.toLowerCase()]);
}

/**
 * Split free text into terms: every word part (`pdf`, `processing`), plus the whole chunk
 * when its parts are joined by `-`, `_`, `.` or `/` (`pdf-processing`, `extract.py`), so an
 * exact name or file name matches better than its pieces. Terms are unique per call.
 */
export function tokenizeText(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of spellLanguageNames(text).split(/\s+/)) {
    const chunk = raw.replace(EDGE_PUNCT, '');
    if (!chunk) continue;
    const parts = chunk.split(NON_WORD).filter(Boolean);
    if (parts.length > 1 && JOINERS.test(chunk)) push(out, seen, chunk);
    for (const part of parts) push(out, seen, part);
  }
  return out;
}

/**
 * File paths: the word parts of every segment (`scripts/extract.py` → `scripts`, `extract`,
 * `py`). Whole file names and full paths are not terms of their own: they would be one unique
 * term per file and grow `search.json` by a third. A query for `scripts/extract.py` or
 * `extract.py` still matches, through its parts, all of which must be present (SkillSearch).
 */
export function tokenizePath(path: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of path.split(NON_WORD)) push(out, seen, part);
  return out;
}

/**
 * Words people add to requests that say nothing about the task ("please help me …", "we're",
 * "actually"). Ignored in queries, with the stop words; indexes keep them (a skill may be named
 * `help`).
 */
export const FILLER_WORDS = new Set(
  (
    "i'm im i've ive i'd i'll we're we've we'd we'll you're you've it's its that's there's let's lets " +
    "don't dont doesn't didn't can't cant won't isn't aren't wasn't weren't haven't hasn't shouldn't couldn't wouldn't " +
    'please pls plz help need needs want wants wanna gonna gotta like just really actually basically ' +
    'something someone somebody anything everything thing things stuff whatever kind sort ' +
    'hey hi hello thanks thank ok okay sure maybe probably quick quickly u ur so'
  ).split(' '),
);

const PLAIN_WORD = /^[a-z]+$/;

/** The stem of a plain lowercase ASCII word of three letters or more; anything else as it is. */
export function stemWord(term: string): string {
  return term.length > 2 && PLAIN_WORD.test(term) ? stem(term) : term;
}

/** Lowercase and Unicode-normalize one term, without stemming; `undefined` drops it. */
export function foldTerm(term: string, maxLength = MAX_TERM): string | undefined {
  const t = term.normalize('NFKC').toLowerCase();
  if (t.length === 0 || t.length > maxLength) return undefined;
  return t;
}

/** Folded and stemmed: how every metadata term is indexed and queried. */
export function normalizeTerm(term: string, maxLength = MAX_TERM): string | undefined {
  const t = foldTerm(term, maxLength);
  return t === undefined ? undefined : stemWord(t);
}

export function normalizePathTerm(term: string): string | undefined {
  return normalizeTerm(term, MAX_PATH_TERM);
}

/** Body terms: folded, no stop words, no bare numbers of more than four digits, stemmed. */
export function normalizeBodyTerm(term: string): string | undefined {
  const t = foldTerm(term);
  if (t === undefined || STOP_WORDS.has(t)) return undefined;
  if (/^\d{5,}$/.test(t)) return undefined;
  return stemWord(t);
}

/** Whether a query word says nothing about the task: a stop word or filler. */
export function isNoiseWord(word: string): boolean {
  const t = foldTerm(word);
  return t === undefined || STOP_WORDS.has(t) || FILLER_WORDS.has(t);
}

/**
 * The searchable words of a markdown body: link targets, image sources, HTML tags and markdown
 * punctuation go; code stays (command and function names are what people search for).
 */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/^```.*$/gm, ' ')
    .replace(/[*_`>#|~=]+/g, ' ');
}

/**
 * Distinct words of a body, in first-seen order. The body index only needs to know that a
 * word occurs in a skill, so repeating it would only grow the index.
 */
export function bodyTerms(markdown: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const term of tokenizeText(markdownToText(markdown))) {
    const t = normalizeBodyTerm(term);
    if (t !== undefined && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  return out.join(' ');
}

/** ATX headings (`# Title`) of a markdown body, outside fenced code blocks. */
export function extractHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h && h[1]) headings.push(h[1]);
  }
  return headings;
}

/**
 * A matched word as answers show it: `~sales` when only a prefix or a typo neighbour of it
 * matched (`safely`), so it reads as the guess it is.
 */
export const shownWord = (m: { word: string; exact?: boolean }): string => (m.exact === false ? `~${m.word}` : m.word);
