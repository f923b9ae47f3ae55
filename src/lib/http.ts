/**
 * The one HTTP client for content skillpress does not control: peer feeds, SKILL.md URLs,
 * install sources, the MCP server's remote feed and `--previous`. Every read is bounded:
 *
 * - bytes: the body is counted as it is decoded (after Content-Encoding), so a gzip bomb stops
 *   at the cap, and the connection is closed there; a body announced bigger is never read;
 * - time: one deadline for the whole exchange (redirects, headers, body), so a server that
 *   hangs or trickles is cut off, plus an optional longer one shared by many requests;
 * - redirects: followed by hand, a bounded number, only where the caller allows (by default
 *   the same scheme, host and port);
 * - shared byte budgets: several downloads reserve bytes from one budget before they read,
 *   so running them concurrently never passes it.
 *
 * Conditional requests: give the validators of a cached copy and a 304 answer comes back with
 * an empty body. Failures are NetworkErrors naming the URL and the limit, with a `rule`:
 * `timeout`, `too-large`, `longer-than-listed` (more bytes than `expectedBytes`), `redirect`,
 * `http-status`, `network`, `bad-url`, `bad-port` (a port Node's fetch refuses to connect to: a
 * configuration problem, not an outage).
 */
import { NetworkError } from './errors.ts';
import { limitText, sizeText } from './size-text.ts';

export interface HttpLimits {
  /** Deadline for one whole request: redirects, headers and body. */
  timeoutMs: number;
  /** Most bytes of one body, counted after decoding. */
  maxBytes: number;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
}

/** ETag and Last-Modified of a cached copy (sent as If-None-Match / If-Modified-Since). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface GetOptions extends HttpLimits {
  /** May a redirect go to `to` (the first URL was `from`)? Default: `sameHost`. */
  allowRedirect?: (to: URL, from: URL) => boolean;
  validators?: Validators;
  /** Names the byte limit in messages, e.g. `federation.max_bytes`. */
  limitName?: string;
  /** A deadline shared by several requests (a whole peer), beside the per-request one. */
  deadline?: Deadline;
  /** Bytes shared by several downloads; each reserves what it reads before reading it. */
  budget?: ByteBudget;
  /** The size the body must have, when the caller knows it (a feed lists it): reserved up front, and the cap. */
  expectedBytes?: number;
  accept?: string;
}

export interface HttpResponse {
  /** 304 only when validators were sent; its body is empty. */
  status: 200 | 304;
  /** The URL that answered, after redirects: relative URLs in the body resolve against it. */
  url: string;
  body: Buffer;
  /** Validators of this answer, to send next time. */
  validators: Validators;
}

export const sameHost = (to: URL, from: URL): boolean => to.host === from.host && to.protocol === from.protocol;

/** A deadline several requests share, named for messages (`the 120000 ms deadline for peer "acme"`). */
export class Deadline {
  readonly signal: AbortSignal;
  readonly description: string;
  constructor(ms: number, what: string) {
    this.signal = AbortSignal.timeout(ms);
    this.description = `the ${ms} ms deadline for ${what}`;
  }
}

/**
 * Bytes several downloads may read in total; a download reserves before it reads. Once a
 * reservation fails the budget is spent: downloads of unknown size are no longer started.
 */
export class ByteBudget {
  readonly limit: number;
  readonly name: string;
  used = 0;
  spent = false;
  constructor(limit: number, name: string) {
    this.limit = limit;
    this.name = name;
  }
  reserve(bytes: number): boolean {
    if (this.used + bytes > this.limit) {
      this.spent = true;
      return false;
    }
    this.used += bytes;
    return true;
  }
  release(bytes: number): void {
    this.used -= bytes;
  }
  describe(): string {
    return `${limitText(this.limit, this.name, 'total')}; ${sizeText(this.used)} ${this.used === 1 ? 'is' : 'are'} used`;
  }
}

/** GET `url` within the limits; a NetworkError (with `rule` and `status`) for anything else. */
export async function httpGet(url: string, opts: GetOptions): Promise<HttpResponse> {
  let current = parseUrl(url);
  const first = current;
  const maxRedirects = opts.maxRedirects ?? 5;
  const allow = opts.allowRedirect ?? sameHost;
  const cap = bodyCap(first, opts);
  const { signal, stop } = requestSignal(opts);
  // Released when no body was read (an error status, a refused redirect); a body that failed
  // midway keeps its reservation: those bytes were downloaded.
  let reserved = cap.reserved;
  try {
    for (let hop = 0; ; hop++) {
      const res = await request(current, opts, signal);
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await discard(res);
        current = redirectTarget(res, current, first, allow, hop + 1 > maxRedirects ? maxRedirects : undefined);
        continue;
      }
      const validators = {
        etag: res.headers.get('etag') ?? undefined,
        lastModified: res.headers.get('last-modified') ?? undefined,
      };
      if (res.status === 304) {
        await discard(res);
        if (!opts.validators)
          throw new NetworkError(`${current}: answered 304 Not Modified to a request that was not conditional`, 304, {
            rule: 'http-status',
          });
        return { status: 304, url: current.href, body: Buffer.alloc(0), validators };
      }
      if (res.status < 200 || res.status > 299) {
        await discard(res);
        throw new NetworkError(
          `${current}: ${res.status === 404 ? 'not found (HTTP 404)' : `HTTP ${res.status}`}`,
          res.status,
          { rule: 'http-status' },
        );
      }
      const upFront = reserved > 0;
      reserved = 0;
      const body = await readBody(res, current, cap.bytes, opts, signal, upFront);
      return { status: 200, url: current.href, body, validators };
    }
  } catch (err) {
    throw asNetworkError(err, current, opts);
  } finally {
    stop();
    if (reserved > 0) opts.budget?.release(reserved);
  }
}

/**
 * One abort signal for a request: its own timeout, and the shared deadline if any. (Not
 * AbortSignal.any: every call registers with the long-lived deadline signal, and with thousands
 * of requests per peer that bookkeeping cost more than the requests.)
 */
function requestSignal(opts: GetOptions): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${opts.timeoutMs} ms`, 'TimeoutError')),
    opts.timeoutMs,
  );
  const deadline = opts.deadline?.signal;
  const onDeadline = (): void => controller.abort(deadline!.reason);
  if (deadline?.aborted) onDeadline();
  else deadline?.addEventListener('abort', onDeadline, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      deadline?.removeEventListener('abort', onDeadline);
    },
  };
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NetworkError(`${JSON.stringify(url)} is not a valid URL`, undefined, { rule: 'bad-url' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new NetworkError(`${url}: only http and https URLs are fetched`, undefined, { rule: 'bad-url' });
  return parsed;
}

const limitOf = (bytes: number, opts: GetOptions): string => limitText(bytes, opts.limitName);

/** The most bytes this body may have, reserved from the budget up front when the size is known. */
function bodyCap(url: URL, opts: GetOptions): { bytes: number; reserved: number } {
  const expected = opts.expectedBytes;
  if (expected === undefined) {
    if (opts.budget?.spent)
      throw new NetworkError(
        `${url}: not fetched: ${opts.budget.describe()}, and downloads of unknown size are not started once it runs out`,
        undefined,
        { rule: 'too-large' },
      );
    return { bytes: opts.maxBytes, reserved: 0 };
  }
  if (expected > opts.maxBytes)
    throw new NetworkError(
      `${url}: not fetched: it is listed as ${sizeText(expected)}, over ${limitOf(opts.maxBytes, opts)}`,
      undefined,
      { rule: 'too-large' },
    );
  if (opts.budget && !opts.budget.reserve(expected)) {
    throw new NetworkError(
      `${url}: not fetched: its ${sizeText(expected)} would pass ${opts.budget.describe()}`,
      undefined,
      { rule: 'too-large' },
    );
  }
  return { bytes: expected, reserved: opts.budget ? expected : 0 };
}

async function request(url: URL, opts: GetOptions, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { accept: opts.accept ?? '*/*' };
  if (opts.validators?.etag) headers['if-none-match'] = opts.validators.etag;
  if (opts.validators?.lastModified) headers['if-modified-since'] = opts.validators.lastModified;
  return fetch(url, { redirect: 'manual', signal, headers });
}

function redirectTarget(
  res: Response,
  current: URL,
  first: URL,
  allow: (to: URL, from: URL) => boolean,
  tooMany: number | undefined,
): URL {
  const rule = { rule: 'redirect' };
  if (tooMany !== undefined) throw new NetworkError(`${first}: more than ${tooMany} redirects`, res.status, rule);
  const location = res.headers.get('location');
  if (!location)
    throw new NetworkError(`${current}: redirect (${res.status}) without a Location header`, res.status, rule);
  const next = new URL(location, current);
  if (!allow(next, first))
    throw new NetworkError(
      `${current}: redirect to ${next} refused: only redirects to ${first.host} are followed`,
      res.status,
      rule,
    );
  return next;
}

async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => {});
}

/**
 * Read the body, stopping (and closing the connection) as soon as it passes the cap. Bytes not
 * reserved up front are reserved from the budget chunk by chunk, as they arrive.
 */
async function readBody(
  res: Response,
  url: URL,
  cap: number,
  opts: GetOptions,
  signal: AbortSignal,
  reservedUpFront: boolean,
): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  // Content-Length counts encoded bytes: it bounds the decoded size only without an encoding.
  if (!res.headers.get('content-encoding') && Number.isFinite(declared) && declared > cap) {
    await discard(res);
    if (reservedUpFront) opts.budget?.release(cap);
    if (cap === opts.expectedBytes)
      throw new NetworkError(`${url}: body is ${declared} bytes, not the ${cap} listed for it`, undefined, {
        rule: 'longer-than-listed',
      });
    throw new NetworkError(`${url}: body is ${sizeText(declared)}, over ${limitOf(cap, opts)}`, undefined, {
      rule: 'too-large',
    });
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stop = async (message: string, rule = 'too-large'): Promise<never> => {
    await reader.cancel().catch(() => {});
    throw new NetworkError(message, undefined, { rule });
  };
  for (;;) {
    if (signal.aborted) throw signal.reason;
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap && cap === opts.expectedBytes)
      await stop(`${url}: body is longer than the ${cap} bytes listed for it; download stopped`, 'longer-than-listed');
    if (total > cap) await stop(`${url}: body passed ${limitOf(cap, opts)}; download stopped`);
    if (!reservedUpFront && opts.budget && !opts.budget.reserve(value.byteLength))
      await stop(`${url}: download stopped: it would pass ${opts.budget.describe()}`);
    chunks.push(value);
  }
  if (reservedUpFront && opts.budget && total < cap) opts.budget.release(cap - total);
  return Buffer.concat(chunks, total);
}

function asNetworkError(err: unknown, url: URL, opts: GetOptions): NetworkError {
  if (err instanceof NetworkError) return err;
  if (opts.deadline?.signal.aborted)
    return new NetworkError(`${url}: ${opts.deadline.description} passed`, undefined, { rule: 'timeout', cause: err });
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new NetworkError(`${url}: no complete answer within ${opts.timeoutMs} ms`, undefined, {
      rule: 'timeout',
      cause: err,
    });
  }
  if (isBadPort(err)) {
    return new NetworkError(
      `${url}: Node's fetch refuses port ${url.port} (a port browsers and Node block); serve it on another port`,
      undefined,
      { rule: 'bad-port', cause: err },
    );
  }
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new NetworkError(`${url}: ${why}`, undefined, { rule: 'network', cause: err });
}

/**
 * Whether fetch refused the URL's port before connecting: the Fetch standard's "bad ports" (6000,
 * 6666, 10080…), which undici blocks as browsers do, throwing `TypeError: fetch failed` with the
 * cause `Error: bad port`. No server answers there whatever is tried, so it is not an outage.
 */
function isBadPort(err: unknown): boolean {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return err instanceof TypeError && cause instanceof Error && cause.message === 'bad port';
}
