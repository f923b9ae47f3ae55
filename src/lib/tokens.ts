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

const LONG_RUN = new RegExp(`\\S{${RUN_CHARS + 1},}|\\s{${RUN_CHARS + 1},}`, 'g');

export function countTokens(text: string): number {
  if (text.length <= EXACT_CHARS) return countExact(text);
  // Cut at a blank near the limit, so the estimate does not start inside a word.
  const blank = text.lastIndexOf(' ', EXACT_CHARS);
  const cut = blank > EXACT_CHARS / 2 ? blank : EXACT_CHARS;
  return Math.round((countExact(text.slice(0, cut)) * text.length) / cut);
}

function countExact(text: string): number {
  if (text.length === 0) return 0;
  let tokens = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    tokens += bpeCount(text.slice(from, run.index));
    for (let i = 0; i < run[0].length; i += RUN_CHARS) tokens += bpeCount(run[0].slice(i, i + RUN_CHARS));
    from = run.index + run[0].length;
  }
  return tokens + (from < text.length ? bpeCount(text.slice(from)) : 0);
}
