/**
 * `skillpress mcp`: opens the feed, serves MCP on stdio for both protocol eras (the SDK's
 * serveStdio picks the era from the client's opening message), and reloads when the feed
 * changes — a rebuild on disk, or a new index at the URL — then tells connected clients
 * (resources `list_changed`, in the era the client speaks: the tools and prompts stay the same).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { FeedCatalog } from './catalog.ts';
import { DirStore, openFeedStore, type FeedStore } from '../feed-reader/index.ts';
import { createServer } from './server.ts';
import { releaseMemory } from './memory.ts';
import { LineTransport } from './transport.ts';
import { catalogViewBeside } from '../feed-reader/catalog-view.ts';
import { errorMessage } from '../lib/errors.ts';
import type { UsageOptions } from './usage.ts';
import type { AuthoringSession } from './authoring.ts';
import type { SkillpressConfig } from '../model/config.ts';

/**
 * The feed loads once the client's opening requests (initialize, then tools/list or whatever
 * comes next) are answered, so its parsing never delays them — or this long after start, at the latest.
 */
const WARM_UP_MS = 1000;

export interface ServeOptions {
  /** The feed to serve; beside `skills`, the local build folder the server builds into. */
  feed?: string;
  /** A writable skills folder: the server builds it, serves the build and adds create_skill and update_skill. */
  skills?: string;
  /** The config the skills are built with (`skills` only; default: defaults). */
  config?: SkillpressConfig;
  /** The folder `config` was found in: its relative paths (`analytics.source`, `mcp_servers`) are read from there. */
  configRoot?: string;
  name: string;
  version: string;
  pageSize?: number;
  /** How long best_skill waits for the client's model (ms). */
  judgeTimeoutMs?: number;
  /** Seconds between checks of a remote feed's index (conditional requests). 0 = never. */
  pollSeconds?: number;
  /** Milliseconds between checks of a local feed's index.json. */
  watchMs?: number;
  /** Where a URL feed is cached, so the server starts offline (default: none; the CLI passes `--cache-dir` or `~/.cache/skillpress/feeds`). */
  cacheDir?: string;
  log?: (message: string) => void;
  /** Record loads and outcomes: a JSON Lines file, or an Elasticsearch URL (docs/usage.md). */
  usage?: string;
  /** Salt of the user's hash (SKILLPRESS_USAGE_SALT wins; default: one kept in the usage folder). */
  usageSalt?: string;
  /** The usage index on Elasticsearch (default `agent_skill_usage`). */
  usageIndex?: string;
}

/**
 * What `skillpress mcp` runs: the MCP server over the feed at `options.feed` (folder or URL) on
 * stdin/stdout, answering both protocol eras, reloading when the feed changes (a folder is
 * watched, a URL polled). With `skills`, the server builds that folder, serves the build and
 * adds create_skill and update_skill. Resolves when stdin closes.
 *
 * @example
 * ```ts
 * import { serve } from 'skillpress';
 * await serve({ feed: 'https://skills.example/', name: 'my-skills', version: '1.0.0', cacheDir: '.cache/feeds' });
 * ```
 */

export async function serve(options: ServeOptions): Promise<void> {
  const log = options.log ?? ((m: string) => process.stderr.write(`skillpress mcp: ${m}\n`));
  const authoring = options.skills ? await startAuthoring(options, log) : undefined;
  const store = await openStore(options, authoring);

  // The handshake and tools/list need no catalog, and parsing a big feed would hold up the event
  // loop: answer them first and load the feed on first need, or shortly after start. A feed that
  // cannot load ends the server.
  let current: Promise<FeedCatalog> | undefined;
  let fatal: Error | undefined;
  const transport = new LineTransport();
  const catalog = (): Promise<FeedCatalog> => {
    if (!current) {
      current = loadCatalog(store, authoring);
      current.then(
        (c) => {
          announce(c, store, log);
          // Full-text search needs the body index, best_skill the skills' meaning: make them now, before the first request asks.
          setImmediate(() => warmUp(c, log));
        },
        (err) => {
          fatal = new Error(`cannot load the feed at ${store.location}: ${errorMessage(err)}`);
          setImmediate(() => void transport.close());
        },
      );
    }
    return current;
  };
  let answers = 0;
  transport.onsent = (message) => {
    if ('id' in message && ++answers === 2) setImmediate(catalog);
  };
  setTimeout(catalog, WARM_UP_MS);

  const usage = options.usage ? await openUsage(options, log) : undefined;
  const servers = new Set<McpServer>();
  serveStdio(
    () => {
      const server = createServer(catalog, {
        name: options.name,
        version: options.version,
        pageSize: options.pageSize,
        judgeTimeoutMs: options.judgeTimeoutMs,
        log,
        authoring,
        ...(usage ? { usage } : {}),
      });
      servers.add(server);
      const previous = server.server.onclose;
      server.server.onclose = () => {
        servers.delete(server);
        previous?.();
      };
      return server;
    },
    { transport, onerror: (err) => log(err.message) },
  );

  const reload = reloader({
    store,
    servers,
    log,
    ready: authoring?.ready,
    authoring,
    catalog,
    swap: (next) => (current = Promise.resolve(next)),
  });

  if (authoring) {
    authoring.reload = () => reloadNow(reload);
    authoring.servedFrom = async (name) => (await catalog()).card(name)?.registry;
  }
  // The server's own build changes only when it writes, and then it reloads itself.
  const timer = authoring ? undefined : watchFeed(store, options, reload, log);
  await transport.closed;
  if (timer) clearInterval(timer);
  await usage?.recorder.close();
  if (fatal) throw fatal;
}

/** The recorder and the user's hash for `--usage` (loaded only then). */
async function openUsage(options: ServeOptions, log: (message: string) => void): Promise<UsageOptions> {
  const { openRecorder, defaultUsageDir, usageSalt, userHash, currentUser } = await import('../usage/index.ts');
  const dir = defaultUsageDir();
  const recorder = openRecorder(options.usage!, { dir, log, index: options.usageIndex });
  const salt = usageSalt(path.join(dir, 'salt'), options.usageSalt);
  log(`recording usage to ${recorder.target} (loads and outcomes; no request text)`);
  // A file that cannot be written is said now (the log names it); report_skill_outcome then says "Not recorded".
  recorder.probe?.();
  // A client that stops us with a signal: what is still queued goes to the spool, for the next server.
  const onSignal = (): void => {
    recorder.closeSync();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, onSignal);
  return { recorder, user: userHash(currentUser(), salt) };
}

/**
 * Loads the feed again and tells every connected client (resources list_changed); resolves false when it
 * could not (tried again on the next check). One reload at a time.
 */
function reloader(ctx: {
  store: FeedStore;
  servers: ReadonlySet<McpServer>;
  log: (message: string) => void;
  /** The server's first build, with --skills. */
  ready: Promise<void> | undefined;
  authoring: AuthoringSession | undefined;
  catalog: () => Promise<FeedCatalog>;
  swap: (next: FeedCatalog) => void;
}): () => Promise<boolean> {
  let reloading = false;
  return async () => {
    if (reloading) return false;
    reloading = true;
    try {
      await ctx.ready;
      const next = await loadCatalog(ctx.store, ctx.authoring);
      if (next.version === (await ctx.catalog()).version) return true;
      ctx.swap(next);
      ctx.log(`feed changed: now ${next.cards.length} skill(s)`);
      // The skills are resources; the tools and prompts are the same whatever the catalog holds.
      for (const server of ctx.servers) server.sendResourceListChanged();
      warmUp(next, ctx.log);
      return true;
    } catch (err) {
      // A rebuild in progress (parts not yet matching the index) or a broken feed: keep serving the last good one.
      ctx.log(`feed not reloaded (still serving the previous one): ${errorMessage(err)}`);
      return false;
    } finally {
      reloading = false;
    }
  };
}

/**
 * A URL feed opens from its cache when it has one, so the server starts offline; it is
 * revalidated right after. With --skills the feed is the server's own build: it opens once the
 * first build is done.
 */
async function openStore(options: ServeOptions, authoring: AuthoringSession | undefined): Promise<FeedStore> {
  if (authoring) return new LazyDirStore(authoring.feedDir, authoring.ready);
  return openFeedStore(options.feed!, { cacheDir: options.cacheDir, cacheFirst: true });
}

/** Reloads on a rebuild on disk, or on a new index at the URL. */
function watchFeed(
  store: FeedStore,
  options: ServeOptions,
  reload: () => Promise<boolean>,
  log: (message: string) => void,
): NodeJS.Timeout | undefined {
  return store instanceof DirStore
    ? watchDir(store, options.watchMs ?? 500, reload)
    : pollRemote(store, options.pollSeconds ?? 300, reload, log);
}

/** The authoring side (src/mcp/authoring.ts), loaded only with --skills. */
async function startAuthoring(options: ServeOptions, log: (message: string) => void): Promise<AuthoringSession> {
  const [{ AuthoringSession }, { SkillpressConfig }] = await Promise.all([
    import('./authoring.ts'),
    import('../model/config.ts'),
  ]);
  const session = new AuthoringSession({
    skills: options.skills!,
    feed: options.feed,
    config: options.config ?? SkillpressConfig.parse({}),
    ...(options.configRoot === undefined ? {} : { configRoot: options.configRoot }),
    log,
  });
  session.ready.catch((err: Error) => log(`cannot build ${options.skills}: ${err.message}`));
  return session;
}

/** Reloads after a write: waits out a reload already running, so the answer follows the new feed. */
async function reloadNow(reload: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (await reload()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the rebuilt feed did not load (see the server log)');
}

/** A feed folder made by the server's first build: opened once that build is done. */
class LazyDirStore extends DirStore {
  constructor(dir: string, ready: Promise<void>) {
    const realRoot = ready.then(() => realpath(dir));
    realRoot.catch(() => {}); // a failed first build is reported where it is awaited
    super(dir, { realRoot });
  }
}

/** Reads the body index, then embeds the skills (best_skill's ranking by meaning); failures are logged, and retried on first use. */
function warmUp(c: FeedCatalog, log: (message: string) => void): void {
  void c
    .loadBodyIndex()
    .then(afterLoad, (err) => log(`body index: ${errorMessage(err)}`))
    .then(() => c.meaningIndex())
    .catch((err) => log(`meaning index (best_skill ranks by words alone until it loads): ${errorMessage(err)}`));
}

/** Once a feed has loaded, its parsing garbage goes (after the requests waiting for it are answered). */
function afterLoad(): void {
  setTimeout(releaseMemory, 0);
}

/** The catalog (with the search index library) loads after the handshake, so import it then too. */
async function loadCatalog(store: FeedStore, authoring: AuthoringSession | undefined): Promise<FeedCatalog> {
  const { FeedCatalog } = await import('./catalog.ts');
  const catalog = await FeedCatalog.load(store);
  // With --skills the server has the config: a skill it disables is said to be disabled, not removed.
  if (authoring) catalog.whyMissing = (name) => authoring.disabledReason(name);
  return catalog;
}

/** Says what is served, and where the build keeps the imported skills it shows only on its site. */
function announce(c: FeedCatalog, store: FeedStore, log: (message: string) => void): void {
  log(`serving ${c.cards.length} skill(s) from ${store.location}`);
  void catalogViewBeside(store).then((view) => {
    if (view)
      log(
        `${view} also holds the skills imported from peers (the site's catalog; federation.reexport is off): serve it with --feed ${view} to offer them too`,
      );
  });
}

/** Local feeds: a cheap stat of index.json; a rebuild rewrites it last. */
function watchDir(store: DirStore, everyMs: number, onChange: () => Promise<boolean>): NodeJS.Timeout {
  const index = path.join(store.location, 'index.json');
  let last = '';
  const check = async () => {
    try {
      const s = await stat(index);
      const key = `${s.mtimeMs}:${s.size}:${s.ino}`;
      if (key !== last && (last === '' || (await onChange()))) last = key;
    } catch {
      // index.json missing mid-rebuild: try again next tick
    }
  };
  void check();
  const timer = setInterval(check, everyMs);
  timer.unref();
  return timer;
}

/**
 * Remote feeds: a conditional request for index.json now (the server started from the cache
 * without waiting for the network) and then every `seconds` (0: only the first one).
 */
function pollRemote(
  store: FeedStore,
  seconds: number,
  onChange: () => Promise<boolean>,
  log: (m: string) => void,
): NodeJS.Timeout | undefined {
  let pending = false; // a change seen but not yet loaded
  const check = async () => {
    try {
      if ((await store.refresh()) || pending) pending = !(await onChange());
    } catch (err) {
      log(`offline: serving the cached feed (${errorMessage(err)})`);
    }
  };
  void check();
  if (!seconds) return undefined;
  const timer = setInterval(check, seconds * 1000);
  timer.unref();
  return timer;
}
