/**
 * Token counts with a real BPE tokenizer (o200k_base, the encoding of current OpenAI models),
 * in time linear in the text and bounded per text:
 *
 * - BPE merges one piece of text (a word, a run of blanks) in time quadratic in its length: a
 *   256 KiB run of one character took 41 s. A run of more than RUN_CHARS characters without a
 *   blank (or of blanks) is counted in RUN_CHARS pieces, which changes the count of such a run
 *   by at most one token per piece.
 * - A text longer than EXACT_CHARS is counted exactly on its first EXACT_CHARS characters; the
 *   rest is estimated at the same tokens per character. Text that is not prose (random
 *   letters, base64, minified code) costs about 1 µs per character to count, so the exact part
 *   is what bounds the time per text.
 */
import { countTokens as bpeCount } from 'gpt-tokenizer';

export const RUN_CHARS = 128;
export const EXACT_CHARS = 64 * 1024;

export function countTokens(text: string): number {
  if (text.length <= EXACT_CHARS) return countExact(text);
  // Cut at a blank near the limit, so the estimate does not start inside a word.
  const blank = text.lastIndexOf(' ', EXACT_CHARS);
  const cut = blank > EXACT_CHARS / 2 ? blank : EXACT_CHARS;
  return Math.round((countExact(text.slice(0, cut)) * text.length) / cut);
}

function countExact(text: string): number {
  let tokens = 0;
  let from = 0;
  for (const [start, end] of longRuns(text)) {
    if (start > from) tokens += bpeCount(text.slice(from, start));
    for (let i = start; i < end; i += RUN_CHARS) tokens += bpeCount(text.slice(i, Math.min(i + RUN_CHARS, end)));
    from = end;
  }
  return tokens + (from < text.length ? bpeCount(text.slice(from)) : 0);
}

/** Whitespace as `\s` matches it (the tokenizer's pre-tokenizer splits on it). */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    (c > 127 &&
      (c === 160 ||
        c === 5760 ||
        (c >= 8192 && c <= 8202) ||
        c === 8232 ||
        c === 8233 ||
        c === 8239 ||
        c === 8287 ||
        c === 12288 ||
        c === 65279))
  );
}

/**
 * [start, end) of every run of more than RUN_CHARS characters that are all blanks or all not.
 * A loop, not `/\S{129,}|\s{129,}/`: the regular expression rescans each word from every
 * position in it (a second per 20 MB of text with long words).
 */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  let blank = isSpace(text.charCodeAt(0));
  for (let i = 1; i < text.length; i++) {
    const b = isSpace(text.charCodeAt(i));
    if (b === blank) continue;
    if (i - start > RUN_CHARS) runs.push([start, i]);
    start = i;
    blank = b;
  }
  if (text.length - start > RUN_CHARS) runs.push([start, text.length]);
  return runs;
}
