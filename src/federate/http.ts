/**
 * One guarded HTTP GET for content we do not control (peer feeds, SKILL.md URLs, install
 * sources): a deadline for the whole exchange (headers and body, so a server that trickles
 * bytes or hangs is cut off), a byte cap enforced while streaming, and redirects followed by
 * hand, only to hosts the caller allows.
 */

export interface GetOptions {
  timeoutMs: number;
  maxBytes: number;
  /** May a redirect go to this URL? Default: only to the same host as the first URL. */
  allowRedirect?: (to: URL, from: URL) => boolean;
  /** Extra request headers (If-None-Match, If-Modified-Since). */
  headers?: Record<string, string>;
  maxRedirects?: number;
  /** Names the limit in error messages, e.g. `federation.max_bytes`. */
  limitName?: string;
}

export interface GetResult {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  headers: Headers;
  /** Empty for 304. */
  body: Buffer;
}

/** Why a fetch failed, as a short rule id and a sentence for a person. */
export class FetchError extends Error {
  readonly rule: 'timeout' | 'too-large' | 'redirect' | 'http-status' | 'network' | 'bad-url';
  readonly status?: number;
  constructor(rule: FetchError['rule'], message: string, status?: number) {
    super(message);
    this.rule = rule;
    this.status = status;
  }
}

export const sameHost = (to: URL, from: URL): boolean => to.host === from.host && to.protocol === from.protocol;

export async function get(url: string, opts: GetOptions): Promise<GetResult> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FetchError('bad-url', `"${url}" is not a valid URL`);
  }
  if (current.protocol !== 'http:' && current.protocol !== 'https:') {
    throw new FetchError('bad-url', `${url}: only http and https URLs are fetched`);
  }
  const allow = opts.allowRedirect ?? sameHost;
  const first = current;
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  for (let hop = 0; ; hop++) {
    const res = await request(current, opts, deadline);
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location');
      if (!location) throw new FetchError('redirect', `${current}: redirect (${res.status}) without a Location header`, res.status);
      const next = new URL(location, current);
      if (!allow(next, first)) throw new FetchError('redirect', `${current}: redirect to ${next} refused: only redirects to ${first.host} are followed`, res.status);
      if (hop + 1 > (opts.maxRedirects ?? 5)) throw new FetchError('redirect', `${first}: more than ${opts.maxRedirects ?? 5} redirects`, res.status);
      current = next;
      continue;
    }
    if (res.status === 304) {
      await res.body?.cancel().catch(() => {});
      return { status: 304, url: current.href, headers: res.headers, body: Buffer.alloc(0) };
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      throw new FetchError('http-status', `${current}: HTTP ${res.status}`, res.status);
    }
    const body = await readCapped(res, current, opts.maxBytes, opts.timeoutMs, opts.limitName);
    return { status: res.status, url: current.href, headers: res.headers, body };
  }
}

async function request(url: URL, opts: GetOptions, deadline: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, { redirect: 'manual', signal: deadline, headers: opts.headers });
  } catch (err) {
    throw asFetchError(err, url, opts.timeoutMs);
  }
}

function asFetchError(err: unknown, url: URL, timeoutMs: number): FetchError {
  if (err instanceof FetchError) return err;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new FetchError('timeout', `${url}: no complete answer within ${timeoutMs} ms`);
  const why = e.cause?.code ?? e.cause?.message ?? e.message;
  return new FetchError('network', `${url}: ${why}`);
}

/** Read the body, stopping (and closing the connection) as soon as it passes the cap. */
async function readCapped(res: Response, url: URL, maxBytes: number, timeoutMs: number, limitName?: string): Promise<Buffer> {
  const limit = `the ${maxBytes}-byte limit${limitName ? ` (${limitName})` : ''}`;
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new FetchError('too-large', `${url}: body is ${declared} bytes, over ${limit}`);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new FetchError('too-large', `${url}: body passed ${limit}; download stopped`);
      }
      chunks.push(value);
    }
  } catch (err) {
    throw asFetchError(err, url, timeoutMs);
  }
  return Buffer.concat(chunks, total);
}
