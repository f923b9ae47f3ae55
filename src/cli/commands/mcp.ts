/**
 * `skillpress mcp --feed <dir|url>`: the MCP server over a built feed, on stdio. The server
 * modules load lazily, so other commands do not pay for the SDK and this one starts fast.
 */
import { homedir } from 'node:os';
import { defaultCacheRoot } from '../../feed-reader/cache-root.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';

export const mcp: Command = {
  usage:
    'skillpress mcp --feed <dist | dist/feed/v1 | https://site/> [--page-size n] [--poll seconds] [--watch-ms ms] [--judge-timeout-ms ms] [--cache-dir dir] [--usage <file.jsonl | http(s)://elasticsearch>] [--config dir]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      feed: { type: 'string' },
      'page-size': { type: 'string' },
      poll: { type: 'string' },
      'watch-ms': { type: 'string' },
      'judge-timeout-ms': { type: 'string' },
      'cache-dir': { type: 'string' },
      usage: { type: 'string' },
      config: { type: 'string' },
    });
    const feed = values.feed ?? positionals[0];
    if (!feed)
      throw new UsageError('--feed is required (a build folder, a feed folder, or the URL of a published site)');
    const pageSize = positiveInt(values['page-size'] ?? process.env.SKILLPRESS_MCP_PAGE_SIZE, '--page-size');
    const pollSeconds = positiveInt(values.poll, '--poll', true);
    const watchMs = positiveInt(values['watch-ms'], '--watch-ms');
    const judgeTimeoutMs = positiveInt(values['judge-timeout-ms'], '--judge-timeout-ms');
    const [{ serve }, { createRequire }] = await Promise.all([import('../../mcp/serve.ts'), import('node:module')]);
    const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };
    // The config is read only to record usage (its salt and index): a plain server reads none.
    const analytics = values.usage
      ? (await (await import('../../config/load.ts')).loadConfig(values.config)).analytics
      : undefined;
    await serve({
      feed,
      name: 'skillpress',
      version,
      pageSize,
      pollSeconds,
      watchMs,
      judgeTimeoutMs,
      cacheDir: values['cache-dir'] ?? defaultCacheRoot(process.env, homedir()),
      ...(values.usage ? { usage: values.usage, usageSalt: analytics?.salt, usageIndex: analytics?.index } : {}),
    });
    return EXIT.ok;
  },
};

function positiveInt(value: string | undefined, flag: string, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1))
    throw new UsageError(`${flag} must be a ${allowZero ? 'non-negative' : 'positive'} integer (got "${value}")`);
  return n;
}
