/**
 * The tokenizer's vocabulary in pieces, so the site fetches only the pieces a query's words can
 * use (./feed-vectors.ts describes the files). WordPiece reads a word greedily: its first token is
 * the longest whole-word token the word starts with, the rest are `##` continuations. A word's
 * whole-word tokens of two characters or more all start with the word's first two characters, so
 * the pieces `base` (single characters and special tokens), `cont` (continuations) and the one
 * keyed by the word's first two characters tokenize it exactly as the whole vocabulary does.
 * Browser-safe.
 */

/** The pieces every query needs. */
export const BASE_PIECE = 'base';
export const CONTINUATION_PIECE = 'cont';

/** File name of a vocabulary piece. */
export const vocabPieceFile = (key: string): string => `vocab-${key}.txt`;

const PLAIN = /^[a-z0-9]$/;

/** The piece of a whole word's tokens, by the word's (or token's) first two characters. */
function wordKey(first: string, second: string): string {
  if (!PLAIN.test(first)) return '_';
  return PLAIN.test(second) ? first + second : `${first}_`;
}

/** The piece a token belongs to. */
export function pieceOf(token: string, special: ReadonlySet<string>): string {
  const chars = [...token];
  if (chars.length === 1 || special.has(token)) return BASE_PIECE;
  if (token.startsWith('##')) return CONTINUATION_PIECE;
  return wordKey(chars[0]!, chars[1]!);
}

/** The tokenizer's JSON (`model.vocab` a map of token → id) as its configuration without the vocabulary, and the pieces. */
export function splitTokenizer(tokenizer: {
  model: { vocab: Record<string, number> };
  added_tokens?: Array<{ content: string }>;
}): { config: unknown; pieces: Map<string, string> } {
  const { vocab, ...model } = tokenizer.model;
  const special = new Set((tokenizer.added_tokens ?? []).map((t) => t.content));
  const byPiece = new Map<string, Array<[string, number]>>();
  for (const [token, id] of Object.entries(vocab)) {
    if (/[\t\n]/.test(token))
      throw new Error(`tokenizer.json: the token ${JSON.stringify(token)} holds a tab or a newline`);
    const key = pieceOf(token, special);
    const list = byPiece.get(key) ?? [];
    list.push([token, id]);
    byPiece.set(key, list);
  }
  const pieces = new Map<string, string>();
  for (const [key, list] of [...byPiece].sort(([a], [b]) => (a < b ? -1 : 1))) {
    list.sort((a, b) => a[1] - b[1]);
    pieces.set(key, list.map(([token, id], i) => `${token}\t${id - (i > 0 ? list[i - 1]![1] : 0)}`).join('\n'));
  }
  return { config: { ...tokenizer, model }, pieces };
}

/** The tokenizer's JSON again, with the vocabulary of the pieces given (all of them: the whole tokenizer). */
export function joinTokenizer(config: unknown, pieces: Iterable<string>): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  for (const piece of pieces) {
    let id = 0;
    for (const line of piece.split('\n')) {
      const tab = line.lastIndexOf('\t');
      id += Number(line.slice(tab + 1));
      vocab[line.slice(0, tab)] = id;
    }
  }
  const c = config as { model: Record<string, unknown> };
  return { ...c, model: { ...c.model, vocab } };
}

/** ASCII punctuation as BERT's pre-tokenizer counts it, and Unicode's. */
const SPLIT = /[\s\p{P}\u0021-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007e]/u;
/** Characters BERT's normalizer drops. */
const DROPPED = /[\0\ufffd]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;

/**
 * The vocabulary pieces the words of `text` can use (`base` and `cont` always): the text
 * normalized as BERT's tokenizer does (controls dropped, lower case, accents stripped), each word
 * keyed by its first two characters.
 */
export function piecesFor(text: string): Set<string> {
  const normalized = text
    .replace(DROPPED, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
  const out = new Set([BASE_PIECE, CONTINUATION_PIECE]);
  const chars = [...normalized];
  for (let i = 0; i < chars.length - 1; i++) {
    const starts = i === 0 || SPLIT.test(chars[i - 1]!) || isCjk(chars[i - 1]!);
    if (starts && !SPLIT.test(chars[i]!) && !SPLIT.test(chars[i + 1]!)) out.add(wordKey(chars[i]!, chars[i + 1]!));
  }
  return out;
}

/** CJK characters are words of their own (BERT's normalizer spaces them). */
function isCjk(char: string): boolean {
  return /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}\u{2f800}-\u{2fa1f}]/u.test(char);
}
