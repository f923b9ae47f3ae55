/**
 * `skillpress mcp --feed <dir|url>`: the MCP server over a built feed, on stdio. The server
 * modules load lazily, so other commands do not pay for the SDK and this one starts fast.
 */
import { homedir } from 'node:os';
import { defaultCacheRoot } from '../../feed-reader/cache-root.ts';
import { EXIT, feedArgumentError, parse, requireSkillsFolder, UsageError, type Command } from '../args.ts';

export const mcp: Command = {
  usage: [
    'skillpress mcp --feed <dist | dist/feed/v1 | https://site/> [--page-size n] [--poll seconds] [--watch-ms ms] [--judge-timeout-ms ms] [--cache-dir dir] [--usage <file.jsonl | folder | http(s)://elasticsearch>] [--config dir]',
    '       skillpress mcp --skills <dir> [--feed <build dir>] [--config dir] [...]',
  ].join('\n'),
  async run(argv) {
    const { values, positionals } = parse(argv, {
      feed: { type: 'string' },
      'page-size': { type: 'string' },
      poll: { type: 'string' },
      'watch-ms': { type: 'string' },
      'judge-timeout-ms': { type: 'string' },
      'cache-dir': { type: 'string' },
      usage: { type: 'string' },
      skills: { type: 'string' },
      config: { type: 'string' },
    });
    const feed = values.feed ?? positionals[0];
    if (!feed && !values.skills)
      throw new UsageError(
        '--feed is required (a build folder, a feed folder, or the URL of a published site), or --skills (a skills folder to serve and write)',
      );
    if (values.config && !values.skills && !values.usage)
      throw new UsageError(
        '--config applies to --skills (the folder the server builds) and --usage (its salt and index)',
      );
    const pageSize = positiveInt(values['page-size'] ?? process.env.SKILLPRESS_MCP_PAGE_SIZE, '--page-size');
    const pollSeconds = positiveInt(values.poll, '--poll', true);
    const watchMs = positiveInt(values['watch-ms'], '--watch-ms');
    const judgeTimeoutMs = positiveInt(values['judge-timeout-ms'], '--judge-timeout-ms');
    // A typo in --skills is the user's to fix (exit 2), not a build that fails after the server starts.
    if (values.skills) await requireSkillsFolder(values.skills, '--skills');
    const [{ serve }, { createRequire }] = await Promise.all([import('../../mcp/serve.ts'), import('node:module')]);
    // The config is found from the skills folder up, as build finds it.
    const { findSkillsAndConfig, loadConfig, configFolder } = await import('../../config/load.ts');
    const found = values.skills
      ? await findSkillsAndConfig({ skills: values.skills, config: values.config })
      : undefined;
    const config = found?.config;
    // Clients start the server anywhere: the config's relative paths mean what they mean beside it.
    const configRoot = found && configFolder(found);
    const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };
    // The config is read only to record usage (its salt and index): a plain server reads none.
    const analytics = values.usage ? (config ?? (await loadConfig(values.config))).analytics : undefined;
    const serving = serve({
      feed,
      name: 'skillpress',
      version,
      pageSize,
      pollSeconds,
      watchMs,
      judgeTimeoutMs,
      cacheDir: values['cache-dir'] ?? defaultCacheRoot(process.env, homedir()),
      ...(values.usage ? { usage: values.usage, usageSalt: analytics?.salt, usageIndex: analytics?.index } : {}),
      skills: values.skills,
      config,
      ...(configRoot === undefined ? {} : { configRoot }),
    });
    // Without --skills the feed must be there already; with it, the server builds it.
    await serving.catch((err: unknown) => {
      throw values.skills ? err : feedArgumentError(err, feed!);
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
