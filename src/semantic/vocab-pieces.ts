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

/** The tokens of a vocabulary piece with their ids. */
export function pieceTokens(piece: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let id = 0;
  for (const line of piece.split('\n')) {
    const tab = line.lastIndexOf('\t');
    id += Number(line.slice(tab + 1));
    out.push([line.slice(0, tab), id]);
  }
  return out;
}

/** The tokenizer's JSON again, with the vocabulary of the pieces given (all of them: the whole tokenizer). */
export function joinTokenizer(config: unknown, pieces: Iterable<string>): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  for (const piece of pieces) for (const [token, id] of pieceTokens(piece)) vocab[token] = id;
  const c = config as { model: Record<string, unknown> };
  return { ...c, model: { ...c.model, vocab } };
}

/**
 * While the last word of a request is typed, from `after` characters on, the whole-word tokens it
 * can still become have their token shards fetched once they lie in `shards` shards or fewer (a
 * shard is 1 KB): when typing stops, its shard is often here already. Measured on the union
 * routing set's requests, the last word's shards are then ready for 33 of 61 (6 without), for
 * 13 KB more per request; with 2 shards, 29 of 61 for 3 KB.
 */
export const COMPLETIONS = { after: 3, shards: 4 } as const;

/** The ids of a vocabulary piece's tokens that start with `word`: what a word being typed can become. */
export function completionIds(piece: string, word: string): number[] {
  return pieceTokens(piece).flatMap(([token, id]) => (token.startsWith(word) ? [id] : []));
}

/** What `addPiece` needs of a tokenizer: the WordPiece model of @huggingface/tokenizers' `Tokenizer`. */
export interface GrowingTokenizer {
  model: { tokens_to_ids: Map<string, number> } | null;
}

/**
 * Adds a vocabulary piece's tokens to a tokenizer built from other pieces. Its WordPiece model
 * looks every word up in that map, so the tokenizer grows in place; building it again for every
 * piece that arrives costs the site 10–20 ms a query.
 */
export function addPiece(tokenizer: GrowingTokenizer, piece: string): void {
  const vocab = tokenizer.model?.tokens_to_ids;
  if (!vocab) throw new Error('the tokenizer has no model to add vocabulary to');
  for (const [token, id] of pieceTokens(piece)) vocab.set(token, id);
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
  const normalized = normalizeAsBert(text);
  const out = new Set([BASE_PIECE, CONTINUATION_PIECE]);
  const chars = [...normalized];
  for (let i = 0; i < chars.length - 1; i++) {
    const starts = i === 0 || SPLIT.test(chars[i - 1]!) || isCjk(chars[i - 1]!);
    if (starts && !SPLIT.test(chars[i]!) && !SPLIT.test(chars[i + 1]!)) out.add(wordKey(chars[i]!, chars[i + 1]!));
  }
  return out;
}

/** `text` normalized as BERT's tokenizer does: controls dropped, lower case, accents stripped. */
function normalizeAsBert(text: string): string {
  return text
    .replace(DROPPED, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

/**
 * While `typed` is being typed: its last word, normalized, when it is still being typed (nothing
 * after it) and has at least `min` characters, with the vocabulary piece that holds the
 * whole-word tokens it can end as.
 */
export function wordBeingTyped(typed: string, min: number): { word: string; piece: string } | undefined {
  const chars = [...normalizeAsBert(typed)];
  let start = chars.length;
  while (start > 0 && !SPLIT.test(chars[start - 1]!) && !isCjk(chars[start - 1]!)) start--;
  // A CJK character ends the word: it is a word of its own.
  const word = chars.slice(start);
  if (word.length < Math.max(min, 2)) return undefined;
  return { word: word.join(''), piece: wordKey(word[0]!, word[1]!) };
}

/** CJK characters are words of their own (BERT's normalizer spaces them). */
function isCjk(char: string): boolean {
  return /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}\u{2f800}-\u{2fa1f}]/u.test(char);
}
