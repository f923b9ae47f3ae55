/**
 * Token counts by the sha256 of the text (a file's own sha256: the digest of its UTF-8 bytes),
 * kept between builds in one file under `.cache/`: a rebuild tokenizes only text it has not
 * seen, where counting every file was about half of a build without the site.
 *
 * The file holds the counts the last build used, the fingerprint of the counting code (an edit
 * of src/lib/tokens.ts or another gpt-tokenizer is a new fingerprint, and every count is made
 * again) and a sha256 over the counts: a damaged or foreign file is noticed, said, and ignored,
 * never trusted. It is written atomically; deleting it is always safe.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { atomicWrite } from './fs.ts';
import { codeFingerprint } from './fingerprint.ts';
import { sha256Hex } from './hash.ts';

const FORMAT = 'skillpress-token-counts';

const Stored = z.object({
  format: z.literal(FORMAT),
  fingerprint: z.string(),
  sha256: z.string(),
  counts: z.record(z.string().regex(/^[0-9a-f]{64}$/), z.number().int().nonnegative()),
});

/** The tokenizer's module, loaded on the first count to make (it takes a while to load). */
let tokenizer: Promise<typeof import('./tokens.ts')> | undefined;

/** The counting code's fingerprint, made once (a build needs it to open the file and to save it). */
let fingerprintOnce: string | undefined;
const fingerprint = (): string =>
  (fingerprintOnce ??= codeFingerprint(import.meta.url, ['./tokens.ts'], ['gpt-tokenizer']));

const countsDigest = (counts: Record<string, number>): string => sha256Hex(JSON.stringify(counts));

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
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return new TokenCounts(file, new Map());
    let parsed: z.infer<typeof Stored> | undefined;
    try {
      parsed = Stored.parse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.sha256 !== countsDigest(parsed.counts)) {
      log(`cache: ${file} is damaged (its counts do not match their sha256); counting tokens again`);
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
    await atomicWrite(
      this.#file,
      JSON.stringify({ format: FORMAT, fingerprint: fingerprint(), sha256: countsDigest(counts), counts }),
    );
  }
}
