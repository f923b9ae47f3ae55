/**
 * `skillpress build`: skills/ (+ peers) → dist/ with the feed, the discovery index, archives and
 * the site; and Elasticsearch when ELASTICSEARCH_URL is set.
 *
 * The output is assembled in a staging folder beside `--out` and swapped in at the end, so a
 * failed build leaves the previous output untouched and readers never see half a build. The
 * feed is written first (the site's pages read it), the site is built into its own folder (Astro
 * empties its outDir), then the feed is moved in beside the site.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadCatalog } from '../../load/index.ts';
import { federate } from '../../federate/index.ts';
import { duplicateProblems, findDuplicates } from '../../duplicates/index.ts';
import { buildSite } from '../../site/build-site.ts';
import { CATALOG_PATH, FEED_PATH, loadPreviousFeed, writeFeed, type FeedSummary, type PreviousFeed } from '../../emit/feed/index.ts';
import type { Catalog, Problem } from '../../model/skill.ts';
import { progress } from '../../lib/progress.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';
import { loadConfig, skillsLoadOptions, sourceDateEpoch } from '../config.ts';
import { formatProblem } from './validate.ts';

export interface BuildResult {
  ok: boolean;
  out: string;
  skills: number;
  files: number;
  skipped_files: number;
  withheld: number;
  imported: number;
  imported_not_exported: number;
  invalid: number;
  duplicates: number;
  changes: FeedSummary['changes'];
  /** Set when imported skills are shown on the site but not re-exported: the site's feed folder. */
  catalog_dir?: string;
  elasticsearch?: unknown;
  seconds: number;
  problems: Problem[];
}

/** Refuse to replace a folder that is not ours: a non-empty folder without a previous build. */
async function checkOutDir(out: string, skillsRoot: string): Promise<void> {
  const cwd = process.cwd();
  const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);
  if (inside(cwd, out) || inside(path.resolve(skillsRoot), out)) {
    throw new UsageError(`--out ${out} would replace the current folder or the skills folder; choose a separate output folder`);
  }
  const st = await stat(out).catch(() => undefined);
  if (!st) return;
  if (!st.isDirectory()) throw new UsageError(`--out ${out} exists and is not a folder`);
  const entries = await readdir(out);
  if (entries.length > 0 && !existsSync(path.join(out, FEED_PATH, 'index.json'))) {
    throw new UsageError(`--out ${out} is not empty and holds no previous skillpress build; refusing to replace it`);
  }
}

/** Elasticsearch ingest when ELASTICSEARCH_URL is set; otherwise one line saying it was skipped. */
async function ingestElasticsearch(catalog: Catalog, log: (line: string) => void): Promise<unknown> {
  if (!process.env.ELASTICSEARCH_URL) {
    log('elasticsearch: skipped (set ELASTICSEARCH_URL to ingest into agent_skills and agent_skill_files)');
    return undefined;
  }
  // Loaded lazily: the Elasticsearch client is only needed when ingesting.
  const { ingestIfConfigured } = await import('../../emit/elasticsearch/index.ts');
  return ingestIfConfigured(catalog, log);
}

/** Move `from` to `to`, replacing what is there. */
async function replace(from: string, to: string, trash: string): Promise<void> {
  if (existsSync(to)) await rename(to, trash);
  await rename(from, to);
}

export const build: Command = {
  name: 'build',
  summary: 'build the feeds, the discovery index, archives and the site into dist/',
  usage:
    'skillpress build [--skills dir=skills] [--out dir=dist] [--config dir=config] [--previous dir|url] [--base /path/] [--strict] [--no-site] [--json]',
  async run(argv) {
    const { values } = parse(
      argv,
      {
        skills: { type: 'string' },
        out: { type: 'string' },
        config: { type: 'string' },
        previous: { type: 'string' },
        base: { type: 'string' },
        strict: { type: 'boolean' },
        'no-site': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      0,
    );
    const started = Date.now();
    const log = (line: string): void => {
      process.stderr.write(`${line}\n`);
    };
    const config = await loadConfig(values.config);
    const epoch = sourceDateEpoch();
    const skillsRoot = values.skills ?? config.skills.root;
    const out = path.resolve(values.out ?? 'dist');
    await checkOutDir(out, skillsRoot);

    const local = await loadCatalog(skillsRoot, {
      ...skillsLoadOptions(config),
      mode: values.strict ? 'strict' : 'lenient',
      registry: config.registry.name,
      sourceDateEpoch: epoch,
    });
    const federated = await federate(local, config, { cacheDir: path.resolve('.cache/federation'), log });
    // Duplicates (identical content, near-identical text) are reported, never dropped.
    const threshold = config.duplicates.near_threshold;
    const duplicates = findDuplicates(federated.skills, { nearThreshold: threshold });
    const catalog = { ...federated, problems: [...federated.problems, ...duplicateProblems(duplicates, federated.skills, threshold)] };

    let previous: PreviousFeed | undefined;
    if (values.previous) {
      previous = await loadPreviousFeed(values.previous);
      if (!previous) throw new UsageError(`--previous ${values.previous}: no feed (cards.json) found there`);
    } else {
      previous = await loadPreviousFeed(out).catch((err: Error) => {
        log(`build: ignoring the previous build in ${out}: ${err.message}`);
        return undefined;
      });
    }

    await mkdir(path.dirname(out), { recursive: true });
    const staging = await mkdtemp(path.join(path.dirname(out), `.${path.basename(out)}.staging-`));
    try {
      const data = path.join(staging, 'data');
      const bar = progress('feed', catalog.skills.length);
      const feed = await writeFeed(catalog, { outDir: data, config, previous, sourceDateEpoch: epoch, onProgress: (n) => bar.update(n) });
      bar.done();
      // The site shows imported skills even when they are not re-exported: give it its own view.
      let catalogSummary: FeedSummary | undefined;
      if (feed.importedNotExported > 0) {
        const previousCatalog = await loadPreviousFeed(out, { feedPath: CATALOG_PATH }).catch(() => undefined);
        catalogSummary = await writeFeed(catalog, { outDir: data, config, previous: previousCatalog, sourceDateEpoch: epoch, scope: 'catalog' });
      }

      const site = path.join(staging, 'site');
      if (!values['no-site']) {
        await buildSite({ outDir: site, feedDir: catalogSummary?.feedDir ?? feed.feedDir, base: values.base ?? config.site.base, log });
      }
      await mkdir(site, { recursive: true });
      const trash = path.join(staging, 'trash');
      await mkdir(trash);
      for (const entry of await readdir(data)) await replace(path.join(data, entry), path.join(site, entry), path.join(trash, `site-${entry}`));
      await replace(site, out, path.join(trash, 'previous'));

      const elasticsearch = await ingestElasticsearch(catalog, log);

      const problems = [...catalog.problems, ...feed.problems];
      const errors = problems.filter((p) => p.severity === 'error');
      const result: BuildResult = {
        ok: errors.length === 0,
        out,
        skills: feed.skills,
        files: feed.files,
        skipped_files: feed.skippedFiles,
        withheld: feed.withheld,
        imported: catalogSummary?.imported ?? feed.imported,
        imported_not_exported: feed.importedNotExported,
        invalid: new Set(errors.map((p) => p.skill)).size,
        duplicates: duplicates.length,
        changes: feed.changes,
        ...(catalogSummary ? { catalog_dir: path.join(out, ...CATALOG_PATH.split('/')) } : {}),
        ...(elasticsearch !== undefined ? { elasticsearch } : {}),
        seconds: (Date.now() - started) / 1000,
        problems,
      };
      if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        for (const p of problems) process.stdout.write(`${formatProblem(p)}\n`);
        process.stdout.write(summaryLine(result));
      }
      return result.ok ? EXIT.ok : EXIT.invalid;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  },
};

function summaryLine(r: BuildResult): string {
  const c = r.changes;
  return [
    `built ${r.skills} skill(s), ${r.files} file(s)${r.skipped_files ? ` (${r.skipped_files} listed but not stored)` : ''} into ${r.out} in ${r.seconds.toFixed(1)} s`,
    `  withheld (private/group): ${r.withheld}; imported: ${r.imported}${r.imported_not_exported ? ` (${r.imported_not_exported} shown on the site only, federation.reexport is off)` : ''}; duplicates: ${r.duplicates}; invalid skills: ${r.invalid}`,
    `  changes: ${c.added} added, ${c.updated} updated, ${c.removed} removed`,
    '',
  ].join('\n');
}
