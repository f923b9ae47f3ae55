/**
 * The catalog site rendered on request, for `skillpress dev`: Astro's dev server renders each page
 * from the feed being served when a browser asks for it, so a rebuild writes the feed and renders
 * the changed SKILL.md, and nothing else (a static build bundles the site's code and writes every
 * changed page, a second or more on every rebuild).
 *
 * The pages are this package's own (src/site/pages), run by Vite's module runner in this process:
 * they read the current feed from the live registry (src/site/site-data.ts `liveSites`), which
 * {@link LiveSite.update} points at each new build. A file's page is filled in here from its
 * skill's template page, as the static build fills it (src/site/file-views.ts). The split model
 * the search loads is written once, into `<work>/site/_model/`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { cacheFolder } from '../lib/cache-dir.ts';
import { writeSiteModel } from '../semantic/site-model.ts';
import { astroConfig } from './astro-config.ts';
import { readCards, readIndex, readSkill, type SkillJson } from './feed-data.ts';
import { filePanel, fillTemplate, TEMPLATE_DIR } from './file-views.ts';
import { fileFolderRedirects } from './redirects.ts';
import { renderBodies } from './render-bodies.ts';
import { liveSites, type SiteData } from './site-data.ts';
import { listFiles } from './skill-view.ts';
import { siteUrls, type SiteUrls } from './urls.ts';

/** What this module uses of Vite's dev server (Astro's runs one): the modules each environment ran. */
interface ViteDevServer {
  environments: Record<
    string,
    {
      name: string;
      /** Where the environment runs its modules (server environments). */
      runner?: { evaluatedModules: { idToModuleMap: Map<string, unknown>; invalidateModule(node: unknown): void } };
    }
  >;
}

/** A page with parameters (`[id]`), whose list of pages getStaticPaths gives. */
const DYNAMIC_PAGE = /[/\\]src[/\\]site[/\\]pages[/\\].*\[[^/\\]+\]/;

export interface LiveSiteOptions {
  /** Base path the site is served under (`/`, `/skills/`). */
  base: string;
  /** `site.files_base_url`. */
  filesBaseUrl?: string;
  /** `site.command`: how the snippets run skillpress. */
  command?: string;
  /** A folder of the caller's that goes with it: Vite's cache and the model's files. */
  work: string;
  /** Where rendered SKILL.md is kept between runs (the build's `.cache/site`). */
  cacheDir: string;
  /**
   * The server the pages come from (`skillpress dev`'s): Vite's hot-update channel answers
   * WebSocket upgrades there, so the pages' Vite client connects where they were loaded from.
   */
  httpServer: HttpServer;
  log?: (line: string) => void;
}

/** What {@link LiveSite.update} did, as the static build reports it. */
export interface LiveUpdate {
  skills: number;
  /** SKILL.md rendered for this update; the others came from the cache. */
  rendered: number;
  cached: number;
}

export interface LiveSite {
  /** The folder of the split model's files (`_model/` below it), served beside the feed. */
  modelRoot: string;
  /** Serve the feed written in `feedDir` from now on (its SKILL.md rendered first). */
  update(feedDir: string): LiveUpdate;
  /** Answers a request for a page or the site's code; `transformHtml` rewrites each page. */
  handle(req: IncomingMessage, res: ServerResponse, transformHtml?: (html: string) => string): Promise<void>;
  close(): Promise<void>;
}

/** Starts Astro's dev server over the site's pages on 127.0.0.1; pages render once {@link LiveSite.update} was called. */
export async function startLiveSite(opts: LiveSiteOptions): Promise<LiveSite> {
  const marker = `sp${randomBytes(12).toString('hex')}`;
  const data: SiteData = {
    feedDir: '',
    base: opts.base,
    feedPath: 'feed/v1',
    bodies: {},
    marker,
    live: true,
    ...(opts.filesBaseUrl ? { filesBaseUrl: opts.filesBaseUrl } : {}),
    ...(opts.command ? { command: opts.command } : {}),
  };
  const urls = siteUrls(opts.base, { feedPath: data.feedPath, filesBaseUrl: opts.filesBaseUrl });
  const modelRoot = path.join(opts.work, 'site');
  writeSiteModel(modelRoot);
  let vite: ViteDevServer | undefined;
  const server = await startAstroDev(data, path.join(opts.work, 'vite'), opts.httpServer, (s) => (vite = s));
  const origin = `http://127.0.0.1:${server.address.port}`;
  const bodiesCache = cacheFolder(opts.cacheDir, ['skill-html'], opts.log ?? (() => {}));
  let generation = 0;
  // Skills added or removed: Astro lists a route's pages again (getStaticPaths) when the page's
  // module is not the one it listed them with, so the dynamic pages are run again, after the new
  // feed is in place (whatever lists them from then on reads it).
  const relistPages = (): void => {
    for (const env of Object.values(vite?.environments ?? {})) {
      const modules = env.runner?.evaluatedModules;
      for (const [id, node] of modules?.idToModuleMap ?? []) if (DYNAMIC_PAGE.test(id)) modules!.invalidateModule(node);
    }
  };
  // Each skill's JSON digest and rendered body when it was last served: only changed skills are rendered.
  let served = new Map<string, { sha256: string | undefined; body: string }>();

  return {
    modelRoot,
    update(feedDir) {
      // index.json names each skill JSON's sha256: only the skills whose JSON changed are read.
      const digests = new Map(readIndex(feedDir).skills.map((s) => [s.id, s.sha256]));
      const cards = readCards(feedDir);
      const same = (id: string): boolean => {
        const before = served.get(id);
        const digest = digests.get(id);
        return digest !== undefined && before?.sha256 === digest && existsSync(before.body);
      };
      const changed = new Map<string, SkillJson>(
        cards.filter((c) => !same(c.id)).map((c) => [c.id, { skill: readSkill(feedDir, c.id), sha256: '' }]),
      );
      const { bodies, rendered, reused } = renderBodies(changed, urls, bodiesCache, opts.log);
      served = new Map(
        cards.map((c) => [c.id, { sha256: digests.get(c.id), body: bodies[c.id]?.file ?? served.get(c.id)!.body }]),
      );
      const files = Object.fromEntries([...served].map(([id, s]) => [id, s.body]));
      liveSites().set(marker, { feedDir, bodies: files, generation: ++generation });
      relistPages();
      // Vite compiles the pages' code on their first request (seconds): done now, not when a page is opened.
      if (generation === 1) warmUp(origin, [urls.home, ...cards.slice(0, 1).map((c) => urls.skill(c.id))]);
      return { skills: cards.length, rendered, cached: reused + cards.length - changed.size };
    },
    async handle(req, res, transformHtml = (html) => html) {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      const state = liveSites().get(marker);
      const filePage = state && (await fileView(origin, state.feedDir, urls, pathname, marker));
      if (filePage !== undefined) return sendHtml(req, res, filePage.status, transformHtml(filePage.html));
      await forward(req, res, `${origin}${req.url ?? '/'}`, transformHtml);
    },
    async close() {
      liveSites().delete(marker);
      await server.stop();
    },
  };
}

async function startAstroDev(
  data: SiteData,
  cacheDir: string,
  httpServer: HttpServer,
  onServer: (server: ViteDevServer) => void,
) {
  const { dev } = await import('astro');
  const shared = astroConfig(data, cacheDir, [
    { name: 'skillpress-live-server', configureServer: (s: unknown) => void onServer(s as ViteDevServer) },
  ]);
  return withoutNewListeners(() =>
    dev({
      ...shared,
      // A page asked for that does not exist is a 404 for the browser, not a warning in the terminal.
      logLevel: 'error',
      // Its own port on the loopback only: `skillpress dev`'s server forwards to it.
      server: { host: '127.0.0.1', port: 0 },
      vite: {
        ...shared.vite,
        // The site's code does not change while `dev` runs; the pages reload on a new build. The
        // pages' Vite client still connects: on dev's own server, where they come from.
        server: { watch: null, ws: { server: httpServer } },
      },
    }),
  );
}

/**
 * `start()` as in a process of its own, taking back the listeners it adds for SIGTERM and the end of stdin: Vite's dev
 * server exits the process on either (it expects to own it), while `skillpress dev` stops on its
 * own signals and removes its temp folders first; an stdin that ends (CI, `< /dev/null`) is no
 * reason to stop.
 */
async function withoutNewListeners<T>(start: () => Promise<T>): Promise<T> {
  const sigterm = process.listeners('SIGTERM');
  const stdinEnd = process.stdin.listeners('end');
  // Astro's dev server serves no page under Vitest (VITEST set), which a `skillpress dev` started
  // by a test inherits.
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  try {
    return await start();
  } finally {
    if (vitest !== undefined) process.env.VITEST = vitest;
    for (const l of process.listeners('SIGTERM')) if (!sigterm.includes(l)) process.off('SIGTERM', l);
    for (const l of process.stdin.listeners('end'))
      if (!stdinEnd.includes(l)) process.stdin.off('end', l as (...args: unknown[]) => void);
  }
}

/** Asks for `paths` one after another, ignoring the answers. */
function warmUp(origin: string, paths: readonly string[]): void {
  void paths
    .reduce<Promise<unknown>>(
      (done, p) => done.then(() => fetch(`${origin}${p}`).then((r) => r.arrayBuffer())),
      Promise.resolve(),
    )
    .catch(() => {});
}

/**
 * The page of one of a skill's files (`skills/<id>/files/<path>/`), filled into its skill's
 * template page; undefined when `pathname` names no file of a skill.
 */
async function fileView(
  origin: string,
  feedDir: string,
  urls: SiteUrls,
  pathname: string,
  marker: string,
): Promise<{ status: number; html: string } | undefined> {
  const match = /\/skills\/([^/]+)\/files\//.exec(pathname);
  if (!match) return undefined;
  const id = decodeURIComponent(match[1]!);
  const wanted = pathname.endsWith('/') ? pathname : `${pathname}/`;
  let skill;
  try {
    skill = readSkill(feedDir, id);
  } catch {
    return undefined;
  }
  const file = listFiles(skill, urls).find((f) => f.viewUrl === wanted);
  if (!file) {
    // `files/` or a folder of the skill's files: on to the tree on the skill's page, as built.
    const folder = fileFolderRedirects(skill, urls).find(
      (r) => (r.folder ? urls.fileView(id, r.folder) : urls.files(id)) === wanted,
    );
    return folder && { status: 200, html: folder.html };
  }
  const template = await fetch(`${origin}${urls.skill(id)}${TEMPLATE_DIR}/`);
  const html = await template.text();
  if (!template.ok) return { status: template.status, html };
  const panel = filePanel(feedDir, skill, file.file, urls);
  return { status: 200, html: fillTemplate(html, marker, file.file.path, panel, file.index) };
}

/** Astro's answer to a request, pages through `transformHtml`. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  transformHtml: (html: string) => string,
): Promise<void> {
  const answer = await fetch(url, { method: req.method === 'HEAD' ? 'HEAD' : 'GET', redirect: 'manual' });
  const type = answer.headers.get('content-type') ?? 'application/octet-stream';
  if (type.startsWith('text/html')) return sendHtml(req, res, answer.status, transformHtml(await answer.text()));
  const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-cache' };
  const location = answer.headers.get('location');
  if (location) headers.location = location;
  res.writeHead(answer.status, headers);
  if (!answer.body || req.method === 'HEAD') return void res.end();
  await pipeline(Readable.fromWeb(answer.body as WebStream), res).catch(() => res.destroy());
}

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, html: string): void {
  const body = Buffer.from(html);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'content-length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
