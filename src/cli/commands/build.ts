/**
 * `skillpress build`: parses the flags, reads the environment (ELASTICSEARCH_*, SOURCE_DATE_EPOCH)
 * and the working directory, calls `build()` (src/build.ts) and prints its result.
 */
import { build as runBuild, type BuildElasticsearch, type BuildResult, type UsageReport } from '../../build.ts';
import { sourceDateEpoch } from '../../config/load.ts';
import { connectionFromEnv, type ConnectionOptions } from '../../emit/elasticsearch/connection.ts';
import type { SiteResult } from '../../site/build-site.ts';
import { EXIT, parse, skillsFolderArgument, type Command } from '../args.ts';
import { esNames, httpUrl } from './ingest.ts';
import { problemLines, problemsByRule } from './validate.ts';
import { nameClashAdvice } from './name-clashes.ts';

export const build: Command = {
  usage:
    'skillpress build [dir | --skills dir=skills] [--out dir=dist] [--config file|dir] [--previous dir|url] [--base /path/] [--strict] [--quiet] [--no-site] [--es URL] [--index-prefix p] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      out: { type: 'string' },
      config: { type: 'string' },
      previous: { type: 'string' },
      base: { type: 'string' },
      strict: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'no-site': { type: 'boolean' },
      'index-prefix': { type: 'string' },
      es: { type: 'string' },
      json: { type: 'boolean' },
    });
    const elasticsearch = elasticsearchFor(values.es);
    const names = esNames(values);
    const result = await runBuild({
      skills: skillsFolderArgument(values.skills, positionals),
      out: values.out,
      config: values.config,
      previous: values.previous,
      base: values.base,
      strict: values.strict,
      site: !values['no-site'],
      cwd: process.cwd(),
      sourceDateEpoch: sourceDateEpoch(process.env),
      signingKey: process.env.SKILLPRESS_SIGNING_KEY,
      elasticsearch,
      indexPrefix: values['index-prefix'],
      log,
      progress: true,
    });
    if (!elasticsearch)
      log(
        `elasticsearch: skipped (set ELASTICSEARCH_URL or pass --es to ingest into ${names.skills} and ${names.files})`,
      );
    if (values.json) process.stdout.write(`${JSON.stringify(buildJson(result), null, 2)}\n`);
    else {
      for (const line of problemLines(result.problems, result.skillsRoot, values.quiet))
        process.stdout.write(`${line}\n`);
      process.stdout.write(summaryLine(result));
    }
    return result.ok ? EXIT.ok : EXIT.invalid;
  },
};

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** The cluster `--es` or ELASTICSEARCH_URL names (with the other ELASTICSEARCH_* variables), if either is given. */
function elasticsearchFor(es: string | undefined): ConnectionOptions | undefined {
  if (!es && !process.env.ELASTICSEARCH_URL) return undefined;
  const connection = connectionFromEnv({ url: es || undefined }, process.env);
  return { ...connection, url: httpUrl(connection.url, es ? '--es' : 'ELASTICSEARCH_URL') };
}

/** What `skillpress build --json` prints: the library's result with snake_case names. */
export interface BuildJson {
  ok: boolean;
  out: string;
  skills_root: string;
  config: string | null;
  skills: number;
  files: number;
  skipped_files: number;
  withheld: number;
  disabled: number;
  imported: number;
  imported_not_exported: number;
  invalid: number;
  name_clashes: number;
  repeated: number;
  duplicates: number;
  changes: BuildResult['changes'];
  catalog_dir?: string;
  elasticsearch?: object;
  site?: SiteJson;
  usage?: object;
  reused: Pick<BuildResult['reused'], 'tokens' | 'archives' | 'skills'> & { file_folders: number };
  stages: BuildResult['stages'];
  seconds: number;
  problems: BuildResult['problems'];
}

export interface SiteJson {
  skills: number;
  rendered: number;
  cached: number;
  pages: number;
  file_pages: number;
  skill_pages: SiteResult['skillPages'];
  file_views: SiteResult['fileViews'];
  seconds: number;
}

/** `result` as `--json` prints it (the names and order scripts read). */
export function buildJson(r: BuildResult): BuildJson {
  return {
    ok: r.ok,
    out: r.out,
    skills_root: r.skillsRoot,
    config: r.config,
    skills: r.skills,
    files: r.files,
    skipped_files: r.skippedFiles,
    withheld: r.withheld,
    disabled: r.disabled,
    imported: r.imported,
    imported_not_exported: r.importedNotExported,
    invalid: r.invalid,
    name_clashes: r.nameClashes,
    repeated: r.repeated,
    duplicates: r.duplicates,
    changes: r.changes,
    ...(r.catalogDir !== undefined ? { catalog_dir: r.catalogDir } : {}),
    ...(r.elasticsearch !== undefined ? { elasticsearch: elasticsearchJson(r.elasticsearch) } : {}),
    ...(r.site ? { site: siteJson(r.site) } : {}),
    ...(r.usage ? { usage: usageJson(r.usage) } : {}),
    reused: {
      tokens: r.reused.tokens,
      archives: r.reused.archives,
      file_folders: r.reused.fileFolders,
      skills: r.reused.skills,
    },
    stages: r.stages,
    seconds: r.seconds,
    problems: r.problems,
  };
}

/** The ingest's result as `--json` prints it (`not_ingested`: the invalid skills left out). */
function elasticsearchJson(es: BuildElasticsearch): object {
  if (!('notIngested' in es)) return es;
  const { notIngested, ...rest } = es;
  return { ...rest, not_ingested: notIngested };
}

/** The usage report as `--json` prints it (`update_candidates`). */
function usageJson(usage: UsageReport): object {
  const { updateCandidates, ...rest } = usage;
  return { ...rest, update_candidates: updateCandidates };
}

function siteJson(site: SiteResult): SiteJson {
  return {
    skills: site.skills,
    rendered: site.rendered,
    cached: site.cached,
    pages: site.pages,
    file_pages: site.filePages,
    skill_pages: site.skillPages,
    file_views: site.fileViews,
    seconds: site.seconds,
  };
}

/**
 * The site's line of the summary. Two caches are at work and the line names each: SKILL.md
 * bodies turned into HTML (kept in .cache/), and whole skill pages Astro renders (reused from the
 * previous build when nothing they show changed).
 */
export function siteLine(site: SiteResult): string {
  const { skillPages: pages, fileViews: views } = site;
  const moved = pages.moved ? ` (${pages.moved} moved from the previous output)` : '';
  return (
    `  site: ${site.pages} pages (${site.filePages} file views) in ${site.seconds.toFixed(1)} s; ` +
    `SKILL.md to HTML: ${site.rendered} converted, ${site.cached} from .cache/; ` +
    `skill pages: ${pages.rendered} rendered, ${pages.reused} reused unchanged${moved}; ` +
    `file views: ${views.written} written, ${views.reused} reused`
  );
}

function summaryLine(r: BuildResult): string {
  const c = r.changes;
  const tally = problemsByRule(r.problems);
  const advice = nameClashAdvice(r.problems);
  return [
    `built ${r.skills} skill(s)${r.importedNotExported ? ` (and ${r.importedNotExported} imported, shown on the site only)` : ''}, ${r.files} file(s)${r.skippedFiles ? ` (${r.skippedFiles} listed but not stored)` : ''} into ${r.out} in ${r.seconds.toFixed(1)} s${failure(r)}`,
    `  withheld (private/group): ${r.withheld}; ${r.disabled ? `disabled: ${r.disabled}; ` : ''}imported: ${r.imported}${r.importedNotExported ? ` (${r.importedNotExported} shown on the site only, federation.reexport is off)` : ''}; ${r.repeated ? `committed in several folders: ${r.repeated} (each published once); ` : ''}similar pairs under other names: ${r.duplicates} (both published); invalid skills: ${r.invalid - r.nameClashes}${r.nameClashes ? `; left out by name clashes: ${r.nameClashes}` : ''}`,
    `  changes: ${c.added} added, ${c.updated} updated, ${c.removed} removed`,
    `  reused from .cache/: token counts of ${r.reused.tokens.reused} of ${r.reused.tokens.reused + r.reused.tokens.counted} texts, archives of ${r.reused.archives.reused} of ${r.reused.archives.reused + r.reused.archives.built} skills`,
    ...(r.site ? [siteLine(r.site)] : []),
    ...(tally ? [`  ${tally}`] : []),
    ...(advice ? [advice] : []),
    '',
  ].join('\n');
}

/** Why the build exits 1, on the line that counts what it built: a failed build must not read as done. */
export function failure(r: BuildResult): string {
  if (r.ok) return '';
  if (r.invalid > 0) return `; ${r.invalid} left out (errors above): exit 1`;
  return '; the Elasticsearch ingest failed (above): exit 1';
}
