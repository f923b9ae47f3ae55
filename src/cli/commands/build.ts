/** `skillpress build`: parses the flags, calls `build()` (src/build.ts) and prints its result. */
import { build as runBuild, type BuildResult } from '../../build.ts';
import { EXIT, parse, skillsFolderArgument, type Command } from '../args.ts';
import { formatProblem, problemsByRule } from './validate.ts';

export const build: Command = {
  name: 'build',
  summary: 'build the feeds, the discovery index, archives and the site into dist/',
  usage:
    'skillpress build [dir | --skills dir=skills] [--out dir=dist] [--config file|dir] [--previous dir|url] [--base /path/] [--strict] [--no-site] [--index-prefix p] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      out: { type: 'string' },
      config: { type: 'string' },
      previous: { type: 'string' },
      base: { type: 'string' },
      strict: { type: 'boolean' },
      'no-site': { type: 'boolean' },
      'index-prefix': { type: 'string' },
      json: { type: 'boolean' },
    });
    const result = await runBuild({
      skills: skillsFolderArgument(values.skills, positionals),
      out: values.out,
      config: values.config,
      previous: values.previous,
      base: values.base,
      strict: values.strict,
      site: !values['no-site'],
      indexPrefix: values['index-prefix'],
      log: (line) => process.stderr.write(`${line}\n`),
      progress: true,
    });
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      for (const p of result.problems) process.stdout.write(`${formatProblem(p, result.skills_root)}\n`);
      process.stdout.write(summaryLine(result));
    }
    return result.ok ? EXIT.ok : EXIT.invalid;
  },
};

/**
 * The site's line of the summary. Two caches are at work and the line names each: SKILL.md
 * bodies turned into HTML (kept in .cache/), and whole skill pages Astro renders (reused from the
 * previous build when nothing they show changed).
 */
export function siteLine(site: NonNullable<BuildResult['site']>): string {
  const { skill_pages: pages, file_views: views } = site;
  const moved = pages.moved ? ` (${pages.moved} moved from the previous output)` : '';
  return (
    `  site: ${site.pages} pages (${site.file_pages} file views) in ${site.seconds.toFixed(1)} s; ` +
    `SKILL.md to HTML: ${site.rendered} converted, ${site.cached} from .cache/; ` +
    `skill pages: ${pages.rendered} rendered, ${pages.reused} reused unchanged${moved}; ` +
    `file views: ${views.written} written, ${views.reused} reused`
  );
}

function summaryLine(r: BuildResult): string {
  const c = r.changes;
  const tally = problemsByRule(r.problems);
  return [
    `built ${r.skills} skill(s), ${r.files} file(s)${r.skipped_files ? ` (${r.skipped_files} listed but not stored)` : ''} into ${r.out} in ${r.seconds.toFixed(1)} s`,
    `  withheld (private/group): ${r.withheld}; imported: ${r.imported}${r.imported_not_exported ? ` (${r.imported_not_exported} shown on the site only, federation.reexport is off)` : ''}; ${r.repeated ? `committed in several folders: ${r.repeated} (each published once); ` : ''}duplicates under other names: ${r.duplicates}; invalid skills: ${r.invalid}`,
    `  changes: ${c.added} added, ${c.updated} updated, ${c.removed} removed`,
    `  reused from .cache/: token counts of ${r.reused.tokens.reused} of ${r.reused.tokens.reused + r.reused.tokens.counted} texts, archives of ${r.reused.archives.reused} of ${r.reused.archives.reused + r.reused.archives.built} skills`,
    ...(r.site ? [siteLine(r.site)] : []),
    ...(tally ? [`  ${tally}`] : []),
    '',
  ].join('\n');
}
