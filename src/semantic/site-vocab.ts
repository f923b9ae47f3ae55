/**
 * The tokenizer's whole vocabulary for the site, in one small file, so a query's tokens are known
 * the moment it is typed and its token shards are its only requests (one round, not a round of
 * vocabulary pieces and then one of shards, as before).
 *
 * The site numbers the tokens its own way: whole-word tokens in sorted order, then the `##`
 * continuations in sorted order; a token's site id is its place in that list. Sorted, the list
 * front-codes to 51 KB gzipped (the model's ids would need 57 KB more to be listed), and the
 * whole-word tokens a word being typed can become are a run of consecutive ids. The token shards
 * are written in site ids, so the site's embedder reads the same row for each token as the
 * server's: the same numbers, in the same order. Browser-safe.
 *
 * `vocab.txt`: one token a line, each written as one character for the length of the prefix it
 * shares with the line before (`0` + length, in UTF-16 code units) and the rest of it; the
 * continuations follow an empty line, without their `##`.
 */

/** The site's vocabulary file. */
export const SITE_VOCAB_FILE = 'vocab.txt';

const CONTINUATION = '##';
/** Code units sort as JavaScript compares strings: the order is the same wherever it is made. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The vocabulary in the site's order (a token's index is its site id); the first `whole` are whole-word tokens. */
export interface SiteVocab {
  tokens: string[];
  whole: number;
}

/** The vocabulary in the site's order: whole-word tokens sorted, then the continuations sorted. */
export function siteOrder(vocab: Record<string, number>): SiteVocab {
  const tokens = Object.keys(vocab);
  for (const token of tokens) {
    if (token.includes('\n') || token === '')
      throw new Error(`tokenizer.json: the token ${JSON.stringify(token)} cannot be a line of ${SITE_VOCAB_FILE}`);
  }
  const whole = tokens.filter((t) => !t.startsWith(CONTINUATION)).sort(byCodeUnits);
  const continued = tokens.filter((t) => t.startsWith(CONTINUATION)).sort(byCodeUnits);
  return { tokens: [...whole, ...continued], whole: whole.length };
}

/** `vocab.txt` for a vocabulary in the site's order. */
export function encodeSiteVocab({ tokens, whole }: SiteVocab): string {
  const continued = tokens.slice(whole).map((t) => t.slice(CONTINUATION.length));
  return `${frontCode(tokens.slice(0, whole))}\n\n${frontCode(continued)}`;
}

/** The vocabulary `vocab.txt` holds, in the site's order. */
export function decodeSiteVocab(text: string): SiteVocab {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error(`${SITE_VOCAB_FILE}: no empty line before the continuations`);
  const whole = frontDecode(text.slice(0, split));
  const continued = frontDecode(text.slice(split + 2)).map((t) => CONTINUATION + t);
  return { tokens: [...whole, ...continued], whole: whole.length };
}

function frontCode(tokens: readonly string[]): string {
  let previous = '';
  return tokens
    .map((token) => {
      let shared = 0;
      const most = Math.min(token.length, previous.length);
      while (shared < most && token.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      previous = token;
      return String.fromCharCode(48 + shared) + token.slice(shared);
    })
    .join('\n');
}

function frontDecode(text: string): string[] {
  if (text === '') return [];
  let previous = '';
  return text.split('\n').map((line) => {
    previous = previous.slice(0, line.charCodeAt(0) - 48) + line.slice(1);
    return previous;
  });
}

/** The tokenizer's JSON (a WordPiece `model.vocab` of token → id, with its added tokens and post-processor). */
export interface TokenizerJson {
  model: { vocab: Record<string, number> } & Record<string, unknown>;
  added_tokens?: Array<{ id: number; content: string } & Record<string, unknown>>;
  post_processor?: { special_tokens?: Record<string, { ids: number[] } & Record<string, unknown>> } | null;
  [key: string]: unknown;
}

/**
 * The tokenizer's JSON renumbered in site ids, without its vocabulary (the site reads that from
 * `vocab.txt`), and for each site id the model's id.
 */
export function siteTokenizer(tokenizer: TokenizerJson): {
  config: TokenizerJson;
  vocab: SiteVocab;
  modelIds: Int32Array;
} {
  const { vocab: modelVocab, ...model } = tokenizer.model;
  const vocab = siteOrder(modelVocab);
  const siteIds = new Map(vocab.tokens.map((token, i) => [token, i]));
  const renumber = (token: string, id: number): number => {
    const found = siteIds.get(token);
    if (found === undefined || modelVocab[token] !== id)
      throw new Error(`tokenizer.json: the special token ${JSON.stringify(token)} (id ${id}) is not in the vocabulary`);
    return found;
  };
  const { added_tokens: added, post_processor: post } = tokenizer;
  const config: TokenizerJson = {
    ...tokenizer,
    model: { ...model, vocab: {} },
    ...(added ? { added_tokens: added.map((t) => ({ ...t, id: renumber(t.content, t.id) })) } : {}),
    ...(post?.special_tokens
      ? { post_processor: { ...post, special_tokens: renumbered(post.special_tokens, renumber) } }
      : {}),
  };
  return { config, vocab, modelIds: Int32Array.from(vocab.tokens, (token) => modelVocab[token]!) };
}

/** A post-processor's special tokens (`[CLS]`: its ids, by its tokens) in site ids. */
function renumbered(
  special: Record<string, { ids: number[] } & Record<string, unknown>>,
  renumber: (token: string, id: number) => number,
): Record<string, { ids: number[] } & Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(special).map(([key, s]) => {
      const tokens = s.tokens as string[] | undefined;
      return [key, { ...s, ids: s.ids.map((id, i) => renumber(tokens?.[i] ?? key, id)) }];
    }),
  );
}

/** The tokenizer's JSON the site builds: its configuration with the vocabulary in site ids. */
export function withSiteVocab(config: TokenizerJson, { tokens }: SiteVocab): TokenizerJson {
  const vocab: Record<string, number> = {};
  tokens.forEach((token, i) => (vocab[token] = i));
  return { ...config, model: { ...config.model, vocab } };
}

/**
 * The site ids of the whole-word tokens that start with `word`: what a word being typed can still
 * become (a run of consecutive ids, found by two binary searches in the sorted whole words).
 */
export function completionIds({ tokens, whole }: SiteVocab, word: string): number[] {
  const from = lowerBound(tokens, word, whole);
  const to = lowerBound(tokens, `${word}\uffff`, whole);
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function lowerBound(order: readonly string[], key: string, end: number): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (order[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * While the last word of a request is typed, from `after` characters on, the whole-word tokens it
 * can still become have their token shards fetched once they lie in `shards` shards or fewer (a
 * shard is 1 KB; the tokens a word can become are consecutive site ids, so few shards). Measured
 * on the union routing set's first 61 requests typed a character at a time, the request's shards
 * are all here when typing stops for 38 of them with 2 shards (6 KB more a request), 28 with 1
 * (0.3 KB), 43 with 4 (15 KB), 6 without.
 */
export const COMPLETIONS = { after: 3, shards: 2 } as const;

/** ASCII punctuation as BERT's pre-tokenizer counts it, and Unicode's. */
const SPLIT = /[\s\p{P}\u0021-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007e]/u;
/** Characters BERT's normalizer drops. */
const DROPPED = /[\0\ufffd]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;

/** `text` normalized as BERT's tokenizer does: controls dropped, lower case, accents stripped. */
function normalizeAsBert(text: string): string {
  return text
    .replace(DROPPED, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

/**
 * While `typed` is being typed: its last word, normalized as the tokenizer reads it, when it is
 * still being typed (nothing after it) and has at least `min` characters.
 */
export function wordBeingTyped(typed: string, min: number): string | undefined {
  const chars = [...normalizeAsBert(typed)];
  let start = chars.length;
  while (start > 0 && !SPLIT.test(chars[start - 1]!) && !isCjk(chars[start - 1]!)) start--;
  // A CJK character ends the word: it is a word of its own.
  const word = chars.slice(start);
  return word.length < Math.max(min, 2) ? undefined : word.join('');
}

/** CJK characters are words of their own (BERT's normalizer spaces them). */
function isCjk(char: string): boolean {
  return /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}\u{2f800}-\u{2fa1f}]/u.test(char);
}
