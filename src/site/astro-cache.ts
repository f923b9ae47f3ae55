/**
 * The cache of Astro's incremental build (`experimental.incrementalBuild`): Astro keeps each
 * page it rendered (`dist/<page>`) and a manifest (`incremental-build.json`: per route the hash
 * of its code, per page its `cacheKey`), and a later build copies a page whose code and key are
 * unchanged instead of rendering it. Astro trusts those copies as they are; this module does not:
 *
 * - after each build it records the sha256 of every kept page, and of the manifest they go with;
 * - before the next, a page that does not match its record is removed (Astro renders it again),
 *   and a manifest that is not the one recorded empties the cache (every page is rendered).
 *
 * One build uses the cache at a time (a lock naming its process, left locks of gone processes
 * taken over); a build that finds it in use renders everything in a cache of its own, removed
 * afterwards. Deleting the folder is always safe.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isMarkOfGoneProcess, processMark, resolveInside } from '../lib/fs.ts';

const MANIFEST = 'incremental-build.json';
const RECORD = 'skillpress-pages.json';
const LOCK = 'skillpress.lock';
/** A lock older than this was left by a build that will not release it (a running build takes minutes). */
const LOCK_MAX_MS = 24 * 3600 * 1000;

/** The parts of Astro's manifest read here. */
const AstroManifest = z.object({
  routes: z.record(z.string(), z.object({ dependencyHash: z.string(), paths: z.record(z.string(), z.object({ cacheKey: z.string(), outputFile: z.string() })) })),
});
type AstroManifest = z.infer<typeof AstroManifest>;

const PageRecord = z.object({ manifest: z.string(), pages: z.record(z.string(), z.string()) });

const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A page Astro keeps: its kept copy (below `dist/`), and what makes Astro reuse it (`dependencyHash:cacheKey`). */
interface KeptPage {
  outputFile: string;
  state: string;
}

/** Every page of the manifest, by route component and path. */
function keptPages(manifest: AstroManifest | undefined): Map<string, KeptPage> {
  const pages = new Map<string, KeptPage>();
  for (const [component, route] of Object.entries(manifest?.routes ?? {})) {
    for (const [page, entry] of Object.entries(route.paths)) pages.set(`${component}\0${page}`, { outputFile: entry.outputFile, state: `${route.dependencyHash}:${entry.cacheKey}` });
  }
  return pages;
}

/**
 * The bytes of a kept page; undefined when missing or its name leaves the folder. Synchronous,
 * like the other reads of small files in the page cache (src/lib/file-cache.ts).
 */
function readKept(dir: string, outputFile: string): { at: string; bytes: Buffer | undefined } | undefined {
  let at: string;
  try {
    at = resolveInside(path.join(dir, 'dist'), outputFile);
  } catch {
    return undefined;
  }
  try {
    return { at, bytes: readFileSync(at) };
  } catch {
    return { at, bytes: undefined };
  }
}

async function readManifest(dir: string): Promise<{ bytes: Buffer; manifest: AstroManifest } | undefined> {
  const bytes = await readFile(path.join(dir, MANIFEST)).catch(() => undefined);
  if (!bytes) return undefined;
  try {
    return { bytes, manifest: AstroManifest.parse(JSON.parse(bytes.toString('utf8'))) };
  } catch {
    return undefined;
  }
}

/** Take the lock on `dir`, or say it is held by a running build. */
async function lock(dir: string): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, JSON.stringify(processMark()), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const mark = await readFile(file, 'utf8').then((t) => JSON.parse(t) as unknown, () => undefined);
    const age = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (!isMarkOfGoneProcess(mark) && age < LOCK_MAX_MS && (mark !== undefined || age < 60_000)) return false;
    await rm(file, { force: true });
  }
  return false;
}

export class AstroPageCache {
  /** The folder to give Astro as its `cacheDir` in this build. */
  readonly dir: string;
  readonly #shared: boolean;
  /** Pages Astro may reuse (sound, as recorded), by route and page: `dependencyHash:cacheKey`. */
  readonly #before = new Map<string, string>();
  /** The sha256 of each sound kept page, by its file. */
  readonly #digests = new Map<string, string>();

  private constructor(dir: string, shared: boolean) {
    this.dir = dir;
    this.#shared = shared;
  }

  /** The cache in `dir`, checked; or a private empty one when another build is using it. */
  static async open(dir: string): Promise<AstroPageCache> {
    if (!(await lock(dir))) return new AstroPageCache(await mkdtemp(`${dir}-private-`), false);
    const cache = new AstroPageCache(dir, true);
    await cache.#check();
    return cache;
  }

  /** Remove what does not match the record: a page that changed, or everything when the manifest is not the recorded one. */
  async #check(): Promise<void> {
    const read = await readManifest(this.dir);
    const record = await readFile(path.join(this.dir, RECORD), 'utf8').then((t) => PageRecord.safeParse(JSON.parse(t)).data, () => undefined);
    if (!read || !record || record.manifest !== sha256Of(read.bytes)) {
      await rm(path.join(this.dir, 'dist'), { recursive: true, force: true });
      await rm(path.join(this.dir, MANIFEST), { force: true });
      return;
    }
    for (const [page, kept] of keptPages(read.manifest)) {
      const copy = readKept(this.dir, kept.outputFile);
      const sha256 = copy?.bytes && sha256Of(copy.bytes);
      if (sha256 && record.pages[kept.outputFile] === sha256) {
        this.#before.set(page, kept.state);
        this.#digests.set(kept.outputFile, sha256);
      } else if (copy) rmSync(copy.at, { force: true });
    }
  }

  /**
   * After Astro's build: record every kept page's sha256 (for the next build's check), and say
   * how many pages Astro took from the cache (same code, same key) and how many it rendered.
   */
  async record(): Promise<{ restored: number; rendered: number }> {
    const read = await readManifest(this.dir);
    const after = keptPages(read?.manifest);
    const pages: Record<string, string> = {};
    let restored = 0;
    for (const [page, kept] of after) {
      // A page reused as it was is the copy checked before the build; Astro rewrote the others.
      const reused = this.#before.get(page) === kept.state && this.#digests.has(kept.outputFile);
      const bytes = reused ? undefined : readKept(this.dir, kept.outputFile)?.bytes;
      const sha256 = reused ? this.#digests.get(kept.outputFile) : bytes && sha256Of(bytes);
      if (sha256) pages[kept.outputFile] = sha256;
      if (reused) restored++;
    }
    if (read) await writeFile(path.join(this.dir, RECORD), JSON.stringify({ manifest: sha256Of(read.bytes), pages }));
    return { restored, rendered: after.size - restored };
  }

  /** Release the cache (a private one is removed). */
  async close(): Promise<void> {
    if (this.#shared) await rm(path.join(this.dir, LOCK), { force: true });
    else await rm(this.dir, { recursive: true, force: true });
  }
}
