/**
 * Token counts by the sha256 of the text (a file's own sha256: the digest of its UTF-8 bytes),
 * kept between builds in one file under `.cache/`: a rebuild tokenizes only text it has not
 * seen, where counting every file was about half of a build without the site.
 *
 * The file holds the counts the last build used, the fingerprint of the counting code (an edit
 * of src/lib/tokens.ts or another gpt-tokenizer is a new fingerprint, and every count is made
 * again) and an HMAC over the counts under the machine's cache secret (src/lib/cache-secret.ts,
 * kept outside `.cache/`): a damaged, altered or foreign file is noticed, said, and ignored, never
 * trusted (the counts are published in the feed). It is read never through a link and written
 * atomically; deleting it is always safe.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { atomicWrite } from './fs.ts';
import { codeFingerprint } from './fingerprint.ts';
import { sha256Hex } from './hash.ts';
import { cacheSecret, cacheTag } from './cache-secret.ts';

const FORMAT = 'skillpress-token-counts';

const Stored = z.object({
  format: z.literal(FORMAT),
  fingerprint: z.string(),
  tag: z.string(),
  counts: z.record(z.string().regex(/^[0-9a-f]{64}$/), z.number().int().nonnegative()),
});

/** The tokenizer's module, loaded on the first count to make (it takes a while to load). */
let tokenizer: Promise<typeof import('./tokens.ts')> | undefined;

/** The counting code's fingerprint, made once (a build needs it to open the file and to save it). */
let fingerprintOnce: string | undefined;
const fingerprint = (): string =>
  (fingerprintOnce ??= codeFingerprint(import.meta.url, ['./tokens.ts'], ['gpt-tokenizer']));

const countsTag = (file: string, fingerprint: string, counts: Record<string, number>): string =>
  cacheTag(cacheSecret(path.dirname(file)).secret, FORMAT, fingerprint, JSON.stringify(counts));

/** The text of `file` when it is a regular file (never through a link). */
async function readRegular(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : undefined;
  } finally {
    await handle.close();
  }
}

export class TokenCounts {
  readonly #known: ReadonlyMap<string, number>;
  /** Counts this build used, as promises so a text is counted once however many ask at a time. */
  readonly #used = new Map<string, Promise<number>>();
  readonly #file: string | undefined;
  /** Texts tokenized in this build, and texts whose count an earlier build had made. */
  counted = 0;
  reused = 0;

  private constructor(file: string | undefined, known: ReadonlyMap<string, number>) {
    this.#file = file;
    this.#known = known;
  }

  /** Counts for one build only, kept nowhere. */
  static memory(): TokenCounts {
    return new TokenCounts(undefined, new Map());
  }

  /** The counts kept in `file` by earlier builds; none when it is missing, damaged or made by other code (`log` says which). */
  static async open(file: string, log: (line: string) => void = () => {}): Promise<TokenCounts> {
    const text = await readRegular(file).catch(() => undefined);
    if (text === undefined) return new TokenCounts(file, new Map());
    let parsed: z.infer<typeof Stored> | undefined;
    try {
      parsed = Stored.parse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.tag !== countsTag(file, parsed.fingerprint, parsed.counts)) {
      log(`cache: ${file} is damaged or not signed with this machine's cache key; not used, counting tokens again`);
      return new TokenCounts(file, new Map());
    }
    if (parsed.fingerprint !== fingerprint()) return new TokenCounts(file, new Map());
    return new TokenCounts(file, new Map(Object.entries(parsed.counts)));
  }

  /** Tokens of `text`; `sha256` is the digest of its UTF-8 bytes when the caller has it. */
  count(text: string, sha256 = sha256Hex(text)): Promise<number> {
    let n = this.#used.get(sha256);
    if (n) return n;
    const known = this.#known.get(sha256);
    if (known !== undefined) {
      this.reused++;
      n = Promise.resolve(known);
    } else {
      this.counted++;
      tokenizer ??= import('./tokens.ts');
      n = tokenizer.then((t) => t.countTokens(text));
    }
    this.#used.set(sha256, n);
    return n;
  }

  /** Keep the counts this build used (and only those, so the file does not grow without end). */
  async save(): Promise<void> {
    if (!this.#file) return;
    const used = await Promise.all([...this.#used].map(async ([sha256, n]) => [sha256, await n] as const));
    const counts = Object.fromEntries(used.sort(([a], [b]) => (a < b ? -1 : 1)));
    const tag = countsTag(this.#file, fingerprint(), counts);
    await atomicWrite(this.#file, JSON.stringify({ format: FORMAT, fingerprint: fingerprint(), tag, counts }));
  }
}
