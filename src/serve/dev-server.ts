/**
 * `skillpress dev` as a library call: build the catalog's feed, serve it on 127.0.0.1 with the
 * site's pages rendered on request (src/site/live-site.ts: Astro's dev server over the feed being
 * served), watch the skills folder and the config, rebuild on a change (the session and the
 * caches make that cost what changed), and reload the open pages after each rebuild.
 *
 * A rebuild that brings new errors (a broken SKILL.md) is not served: the last good build stays,
 * and its problems show on every open page (./dev-client.js) and through `onBuild`. A build is
 * good when its errors are among those of the build being served, so a catalog that starts with
 * some invalid skills can still be worked on; the skills the served build leaves out, and its
 * warnings, show on the pages too, folded under their count.
 *
 * The watcher is ready before the first build starts, so an edit saved while it runs is built
 * next. The builds' temp folder goes on `close()`, and, should the process end without it, on exit.
 */
import { existsSync, rmSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { build, BuildSession, type BuildOptions, type BuildResult } from '../build.ts';
import { findSkillsAndConfig, resolveConfig, type FoundConfig } from '../config/load.ts';
import type { Problem } from '../model/skill.ts';
import { cacheFolder, openCacheRoot } from '../lib/cache-dir.ts';
import { isInsideDir } from '../lib/fs.ts';
import { FEED_PATH } from '../lib/layout.ts';
import { startLiveSite, type LiveSite, type LiveUpdate } from '../site/live-site.ts';
import { serveStatic } from './static-server.ts';
import { errorMessage } from '../lib/errors.ts';

export interface DevServerOptions extends Pick<BuildOptions, 'skills' | 'config' | 'base' | 'strict' | 'cwd'> {
  /** Default 0: any free port. */
  port?: number;
  /** One line per problem, for the pages' overlay. */
  describeProblem: (p: Problem, skillsDir: string) => string;
  /** When a build starts (`build` counts them from 1). */
  onBuildStart?: (build: number) => void;
  /** After every build, served or not. */
  onBuild?: (status: BuildStatus) => void;
}

export interface BuildStatus {
  /** Counts every build; `served` is the last one being served. */
  build: number;
  served: number;
  ok: boolean;
  /** Errors the served build does not have: why this build is not served. */
  newErrors: string[];
  /** Warnings of the build being served, one line each (`describeProblem`). */
  warnings: string[];
  /**
   * Those of `warnings` the previously served build did not have (all of them on the first), its
   * figures aside: a warning an edit moved to another line, or whose percentage moved, is not new.
   */
  newWarnings: string[];
  /**
   * Errors of the build being served, one line each: the invalid skills it leaves out, as `build`
   * leaves them out (a catalog may start with some, and is served without them).
   */
  servedErrors: string[];
  /** How many skills `servedErrors` leave out. */
  invalid: number;
  /** `servedErrors` on the first served build; later builds leave out no skill it did not. */
  newServedErrors: string[];
  result?: BuildResult;
  /** The site's SKILL.md rendered for a served build (its pages render on request). */
  site?: LiveUpdate;
  /** Set when the build itself failed (an invalid config, an unreadable folder). */
  failure?: string;
  seconds: number;
}

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

const ROUTES = '/__skillpress/';
const CLIENT = new URL('./dev-client.js', import.meta.url);
/** Wait this long after a change for more: an editor saves in several steps. */
const SETTLE_MS = 50;

/**
 * A warning's line without its figures: the line an edit above it moved, a count or a percentage
 * (`SKILL.md is 612 lines`, duplicate-near's similarity, which an edit to another skill moves).
 * Digits inside a name (`pdf2`) stay.
 */
const warningKey = (line: string): string => line.replace(/(?<![\w-])\d+(?:[.,]\d+)*(?![\w-])/g, '#');

/** Those of `now` that `before` (the previously served build's warnings; none on the first) lacks, figures aside. */
export function newWarnings(before: readonly string[] | undefined, now: readonly string[]): string[] {
  const known = new Set(before?.map(warningKey));
  return now.filter((w) => !known.has(warningKey(w)));
}

/** An error, told apart from others by where it is and which rule (not the line: edits move it). */
const errorKey = (p: Problem): string => `${p.skill}\0${p.file ?? ''}\0${p.rule}`;
const errorsOf = (problems: readonly Problem[]): Problem[] => problems.filter((p) => p.severity === 'error');

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { found, config, skillsDir, base } = await devSources(options);
  const work = await mkdtemp(path.join(tmpdir(), 'skillpress-dev-'));
  const clients = new Set<ServerResponse>();
  const client = await readFile(CLIENT, 'utf8');
  const state: DevState = { work, builds: 0, session: new BuildSession() };
  const broadcast = (): void => {
    for (const res of clients) res.write(`data: ${JSON.stringify(publicStatus(state.status))}\n\n`);
  };
  const withClient = (html: string): string =>
    html.replace(
      '</body>',
      () => `<script type="module" src="${ROUTES}client.js?build=${state.served?.build ?? 0}"></script></body>`,
    );
  const server = await serveStatic({
    // The feed of the build being served, and the model the site's search loads.
    root: () => (state.served && state.live ? [state.served.dir, state.live.modelRoot] : work),
    base,
    port: options.port,
    intercept: devRoutes(client, clients, () => state.status),
    transformHtml: withClient,
    // Before any build is good there is nothing to serve: every page is the not-found one.
    fallback: async (req, res) => {
      if (state.served && state.live) return state.live.handle(req, res, withClient);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: no build served yet\n');
    },
  });
  // Astro's dev server starts while the first feed is built.
  const cacheRoot = openCacheRoot(path.resolve(options.cwd ?? '.', '.cache'), () => {});
  const starting = startLiveSite({
    base,
    httpServer: server.httpServer,
    work: path.join(work, 'live'),
    cacheDir: cacheFolder(cacheRoot.dir, ['site'], () => {}),
    ...(config.site.files_base_url ? { filesBaseUrl: config.site.files_base_url } : {}),
    ...(config.site.command ? { command: config.site.command } : {}),
  });
  // A failed start is said by the first build; until then nothing waits on it.
  starting.catch(() => {});
  const rebuild = async (): Promise<void> => {
    await buildAndServe(state, { ...options, skills: skillsDir, base }, starting);
    options.onBuild?.(state.status!);
    broadcast();
  };

  // A process that ends without close() (an uncaught error, process.exit) still leaves no builds behind.
  const removeWork = (): void => removeNow(work);
  process.once('exit', removeWork);
  const sources = await watchSources([skillsDir, ...configPaths(options.config, found)], work, rebuild);
  await sources.first;
  return {
    url: server.url,
    close: async () => {
      await sources.watcher.close();
      await sources.idle();
      for (const res of clients) res.end();
      // First: it closes the pages' hot-update sockets, which the server would wait for.
      await (await starting.catch(() => undefined))?.close();
      await server.close();
      await rm(work, { recursive: true, force: true });
      cacheRoot.close();
      process.off('exit', removeWork);
    },
  };
}

/**
 * The config as build() finds it (from the skills folder up to the repository root, or
 * `--config`), the skills folder and the base path. The config is read again by every build; the
 * base path and the folders to watch are fixed at start.
 */
async function devSources(options: DevServerOptions) {
  const found =
    typeof options.config === 'object'
      ? undefined
      : await findSkillsAndConfig({ skills: options.skills, config: options.config, cwd: options.cwd });
  const config = found ? found.config : await resolveConfig(options.config);
  const skillsDir = options.skills ?? found?.skills ?? config.skills.root;
  return { found, config, skillsDir, base: options.base ?? config.site.base };
}

/** What the dev server's builds share. */
interface DevState {
  work: string;
  builds: number;
  /** Between rebuilds: only the skill folders that changed are read again. */
  session: BuildSession;
  served?: Served;
  status?: BuildStatus;
  /** The site's pages, once a build is served. */
  live?: LiveSite;
}

/** One build, into the folder not being served; served (and shown by the site) when it brings no new error. */
async function buildAndServe(
  state: DevState,
  options: DevServerOptions & { skills: string; base: string },
  site: Promise<LiveSite>,
): Promise<void> {
  const started = Date.now();
  const n = ++state.builds;
  options.onBuildStart?.(n);
  const [a, b] = [path.join(state.work, 'a'), path.join(state.work, 'b')];
  // Never into the folder being served: a build that is not served must not replace it.
  const out = state.served?.dir === a ? b : a;
  const { skills, config, base, strict, cwd, describeProblem } = options;
  try {
    const result = await build({ skills, config, base, strict, cwd, out, session: state.session, site: false });
    const judged = judgeBuild(result, { n, out, served: state.served, describe: (p) => describeProblem(p, skills) });
    let update: LiveUpdate | undefined;
    if (judged.served.build === n) {
      // The site reads the new feed from now on (its changed SKILL.md rendered first).
      state.live = await site;
      update = state.live.update(siteFeed(result, out));
      // The next build goes into the other folder and takes what did not change from there: the
      // first one gets a linked twin of this build, so the first edit costs what the others do.
      if (!state.served) await linkTree(out, out === a ? b : a);
    }
    state.served = judged.served;
    state.status = { ...judged.status, ...(update ? { site: update } : {}), seconds: (Date.now() - started) / 1000 };
  } catch (err) {
    state.status = failedBuild(n, state.served, errorMessage(err), (Date.now() - started) / 1000);
  }
}

/** `to` as a copy of the folder `from` made of hard links (nothing writes a build's files in place). */
async function linkTree(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  const made = new Set<string>([to]);
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(from, path.join(entry.parentPath, entry.name));
    const dir = path.dirname(path.join(to, rel));
    if (!made.has(dir)) await mkdir(dir, { recursive: true });
    made.add(dir);
    await link(path.join(from, rel), path.join(to, rel));
  }
}

/** The feed folder the site shows: the catalog's own view when imported skills are shown but not re-exported. */
const siteFeed = (result: BuildResult, out: string): string =>
  result.catalogDir ?? path.join(out, ...FEED_PATH.split('/'));

/** The build being served: where, which, and its errors and warnings. */
interface Served {
  dir: string;
  build: number;
  errors: Set<string>;
  /** The same errors, one line each, and how many skills they leave out. */
  errorLines: string[];
  invalid: number;
  warnings: string[];
}

/** Whether build `n` (into `out`) is served (it brings no error the served one lacks), and its status. */
function judgeBuild(
  result: BuildResult,
  at: { n: number; out: string; served: Served | undefined; describe: (p: Problem) => string },
): { served: Served; status: Omit<BuildStatus, 'seconds'> } {
  const errors = errorsOf(result.problems);
  const known = at.served?.errors;
  const newErrors = known ? errors.filter((p) => !known.has(errorKey(p))) : [];
  const served: Served =
    newErrors.length === 0 || !at.served
      ? {
          dir: at.out,
          build: at.n,
          errors: new Set(errors.map(errorKey)),
          errorLines: errors.map(at.describe),
          invalid: new Set(errors.map((p) => p.skill)).size,
          warnings: result.problems.filter((p) => p.severity === 'warning').map(at.describe),
        }
      : at.served;
  const status = {
    build: at.n,
    served: served.build,
    ok: newErrors.length === 0,
    newErrors: newErrors.map(at.describe),
    warnings: served.warnings,
    newWarnings: served.build === at.n ? newWarnings(at.served?.warnings, served.warnings) : [],
    servedErrors: served.errorLines,
    invalid: served.invalid,
    // A later build is served only when its errors are the served one's (by skill, file and rule),
    // so the skills left out are new on the first served build alone.
    newServedErrors: at.served ? [] : served.errorLines,
    result,
  };
  return { served, status };
}

/** The status of a build that failed as a whole (an invalid config, an unreadable folder). */
function failedBuild(n: number, served: Served | undefined, failure: string, seconds: number): BuildStatus {
  return {
    build: n,
    served: served?.build ?? 0,
    ok: false,
    newErrors: [],
    warnings: served?.warnings ?? [],
    newWarnings: [],
    servedErrors: served?.errorLines ?? [],
    invalid: served?.invalid ?? 0,
    newServedErrors: [],
    failure,
    seconds,
  };
}

/** The dev server's own routes: the pages' script, and the stream of build statuses it listens to. */
function devRoutes(
  client: string,
  clients: Set<ServerResponse>,
  status: () => BuildStatus | undefined,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!pathname.startsWith(ROUTES)) return false;
    if (pathname === `${ROUTES}client.js`)
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(client);
    else if (pathname === `${ROUTES}events`) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.write(`data: ${JSON.stringify(publicStatus(status()))}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
    } else res.writeHead(404).end();
    return true;
  };
}

/** What the pages' script needs: whether to reload, and what to show. */
function publicStatus(status: BuildStatus | undefined) {
  return status
    ? {
        build: status.build,
        served: status.served,
        ok: status.ok,
        problems: status.newErrors,
        warnings: status.warnings,
        errors: status.servedErrors,
        invalid: status.invalid,
        failure: status.failure,
      }
    : null;
}

/** The config to watch: the file in use, or where one would be found (a new one is picked up). */
function configPaths(given: DevServerOptions['config'], found: FoundConfig | undefined): string[] {
  if (typeof given === 'string') return [given];
  if (!found) return [];
  if (found.file) return [found.file];
  return [path.join(found.root, 'config'), path.join(found.root, 'skillpress.json')];
}

interface Sources {
  watcher: FSWatcher;
  /** The first build, started once the watcher is ready. */
  first: Promise<void>;
  /** Resolves when no build is running. */
  idle(): Promise<void>;
}

/**
 * Watch the skills folder and the config (chokidar: Node's own recursive watch loses files an
 * editor replaces by renaming), then build; after a change settles, rebuild — one build at a
 * time, and once more if anything changed while it ran (the first build included).
 */
async function watchSources(folders: string[], work: string, rebuild: () => Promise<void>): Promise<Sources> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running) return void (again = true);
    running = rebuild().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const cache = path.resolve('.cache');
  // Our own writes (the render cache, the builds) are not changes to the sources.
  const ignored = (file: string): boolean =>
    isInsideDir(file, work) || isInsideDir(file, cache) || /[/\\](\.git|node_modules)([/\\]|$)/.test(file);
  // chokidar says ready at once when one of its paths is missing, before the others are watched
  // (an edit saved during the first build was lost): missing paths are added once it is ready.
  const paths = folders.map((f) => path.resolve(f));
  const missing = paths.filter((p) => !existsSync(p));
  const watcher = watch(
    paths.filter((p) => !missing.includes(p)),
    { ignoreInitial: true, ignored },
  ).on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  });
  await new Promise<void>((resolve) => watcher.once('ready', resolve));
  if (missing.length > 0) watcher.add(missing);
  run();
  const first = running!;
  return {
    watcher,
    first,
    idle: async () => {
      clearTimeout(timer);
      again = false;
      while (running) await running;
    },
  };
}

/**
 * Removes `dir` before the process ends. A second Ctrl-C exits while close() is still removing
 * the same folder: an entry the other removal took first is not an error, so it tries again.
 */
function removeNow(dir: string): void {
  for (let attempt = 0; attempt < 5 && existsSync(dir); attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2, retryDelay: 20 });
    } catch {
      // Removed under it: the next attempt sees what is left.
    }
  }
}
