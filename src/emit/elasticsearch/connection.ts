/**
 * Where the Elasticsearch cluster is and how to sign in: plain data, so the command line can read
 * it from the environment without loading the Elasticsearch client.
 */

export const DEFAULT_URL = 'http://127.0.0.1:9200';

export interface ConnectionOptions {
  url: string;
  apiKey?: string;
  username?: string;
  password?: string;
  /** PEM file of the certificate authority that signed the cluster's certificate. */
  caFile?: string;
}

/**
 * For the command line: flags win over the environment it passes in (ELASTICSEARCH_URL,
 * ELASTICSEARCH_API_KEY, or ELASTICSEARCH_USERNAME + ELASTICSEARCH_PASSWORD,
 * ELASTICSEARCH_CA_FILE); the URL defaults to {@link DEFAULT_URL}.
 */
export function connectionFromEnv(
  flags: Partial<ConnectionOptions>,
  env: Readonly<Record<string, string | undefined>>,
): ConnectionOptions {
  return {
    url: flags.url ?? (env.ELASTICSEARCH_URL || DEFAULT_URL),
    apiKey: flags.apiKey ?? (env.ELASTICSEARCH_API_KEY || undefined),
    username: flags.username ?? (env.ELASTICSEARCH_USERNAME || undefined),
    password: flags.password ?? (env.ELASTICSEARCH_PASSWORD || undefined),
    caFile: flags.caFile ?? (env.ELASTICSEARCH_CA_FILE || undefined),
  };
}

/** The options given, the URL defaulting to {@link DEFAULT_URL}; nothing is read from the environment. */
export function withDefaultUrl(connection: Partial<ConnectionOptions> = {}): ConnectionOptions {
  return { ...connection, url: connection.url ?? DEFAULT_URL };
}
