/**
 * Connecting to Elasticsearch: a configured client, and error messages that name the cluster
 * without ever showing a secret.
 */
import { readFileSync } from 'node:fs';
import { Client, errors } from '@elastic/elasticsearch';
import type { ConnectionOptions } from './connection.ts';
import { errorMessage, NotFoundError } from '../../lib/errors.ts';
import { DEFAULT_NAMES, type IndexNames } from './definitions.ts';

export { DEFAULT_URL, connectionFromEnv, withDefaultUrl, type ConnectionOptions } from './connection.ts';

/** The URL with any user:password@ replaced, safe to print. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
}

/** Remove every secret of `conn` from a message (error texts can echo requests). */
export function redactSecrets(message: string, conn: ConnectionOptions): string {
  let out = message.split(conn.url).join(redactUrl(conn.url));
  const secrets = [conn.apiKey, conn.password];
  try {
    const u = new URL(conn.url);
    if (u.password) secrets.push(decodeURIComponent(u.password));
  } catch {
    // not a URL; createClient reports that
  }
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('***');
  return out;
}

export function createClient(conn: ConnectionOptions): Client {
  let auth: { apiKey: string } | { username: string; password: string } | undefined;
  if (conn.apiKey) auth = { apiKey: conn.apiKey };
  else if (conn.username && conn.password !== undefined) auth = { username: conn.username, password: conn.password };
  let ca: Buffer | undefined;
  if (conn.caFile) {
    try {
      ca = readFileSync(conn.caFile);
    } catch (err) {
      throw new Error(
        `cannot read CA file ${conn.caFile}: ${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}`,
        { cause: err },
      );
    }
  }
  return new Client({
    node: conn.url,
    auth,
    tls: ca ? { ca } : undefined,
    requestTimeout: 60_000,
    maxRetries: 2,
    compression: false,
  });
}

/** Thrown when the cluster cannot be reached or refuses us; the message is one line. */
export class UnreachableError extends Error {}

/**
 * Fail fast with one line naming the (redacted) URL when the cluster is not there. Uses
 * `_cluster/health`, which every distribution serves (the integ-test-zip has no `GET /`).
 */
export async function assertReachable(client: Client, conn: ConnectionOptions): Promise<void> {
  const where = redactUrl(conn.url);
  try {
    await client.cluster.health({ timeout: '10s' }, { requestTimeout: 15_000, maxRetries: 0 });
  } catch (err) {
    throw new UnreachableError(redactSecrets(`cannot reach Elasticsearch at ${where}: ${describeError(err)}`, conn));
  }
}

/**
 * Fail with one line when the cluster holds no catalog under `names` (nothing ingested yet, or
 * another --index-prefix), naming the catalogs it does hold: Elasticsearch's own answer is an
 * `index_not_found_exception` with its root causes.
 */
export async function assertCatalog(client: Client, conn: ConnectionOptions, names: IndexNames): Promise<void> {
  if (await client.indices.exists({ index: names.skills })) return;
  const held = await client.indices
    .getAlias({ name: `*${DEFAULT_NAMES.skills}` }, { ignore: [404] })
    .then((found) => [...new Set(Object.values(found ?? {}).flatMap((i) => Object.keys(i.aliases ?? {})))].sort())
    .catch(() => [] as string[]);
  const others = held.length > 0 ? `; it holds ${held.join(', ')} (--index-prefix ${prefixOf(held[0]!)})` : '';
  throw new NotFoundError(
    `no skill catalog ${names.skills} at ${redactUrl(conn.url)}${others}: skillpress ingest (or build with ELASTICSEARCH_URL) writes one`,
  );
}

const prefixOf = (alias: string): string => alias.slice(0, -DEFAULT_NAMES.skills.length) || "''";

/** A short, single-line description of a client error. */
export function describeError(err: unknown): string {
  if (err instanceof errors.ResponseError) {
    const body = err.meta.body as { error?: { type?: string; reason?: string } | string } | undefined;
    const detail =
      typeof body?.error === 'object' ? `${body.error.type}: ${body.error.reason}` : String(body?.error ?? err.message);
    if (err.meta.statusCode === 401)
      return `authentication failed (HTTP 401): check ELASTICSEARCH_API_KEY or ELASTICSEARCH_USERNAME/ELASTICSEARCH_PASSWORD`;
    return `HTTP ${err.meta.statusCode} ${detail}`;
  }
  if (err instanceof errors.ProductNotSupportedError) return 'the server is not Elasticsearch';
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!;
}
