/** `skillpress init [dir]`: set up a skills repository (config, .gitignore, Pages workflow) and build it once. */
import path from 'node:path';
import { init as runInit } from '../../init/index.ts';
import { EXIT, parse, UsageError, type Command } from '../args.ts';
import { formatProblem, problemsByRule } from './validate.ts';
import { nameClashAdvice } from './name-clashes.ts';
import { failure } from './build.ts';
import type { Problem } from '../../model/skill.ts';

export const init: Command = {
  usage:
    'skillpress init [dir=.] [--site-url https://org.github.io/repo/] [--package spec] [--force] [--no-build] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      'site-url': { type: 'string' },
      package: { type: 'string' },
      force: { type: 'boolean' },
      'no-build': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (values.package !== undefined && isLocalPath(values.package))
      throw new UsageError(
        `--package ${values.package} is a path on this machine, which CI does not have: give a git URL (git+https://…#<commit>) or a tarball URL (https://…/skillpress-<version>.tgz)`,
      );
    const result = await runInit({
      dir: positionals[0],
      siteUrl: values['site-url'],
      packageSpec: values.package,
      force: values.force,
      build: !values['no-build'],
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return result.build && !result.build.ok ? EXIT.invalid : EXIT.ok;
    }
    const rel = (p: string): string => path.relative('.', p) || '.';
    const lines = [
      `registry "${result.registry.name}", titled "${result.registry.title}"; skills in ${result.skills}/; site base ${result.base}`,
      ...result.wrote.map((f) => `  wrote ${rel(f)}`),
    ];
    if (result.package_placeholder)
      lines.push(
        `  edit SKILLPRESS_PACKAGE in ${rel(path.join(result.dir, '.github/workflows/skillpress.yml'))}: the git URL or tarball URL CI installs skillpress from (or pass --package)`,
      );
    if (result.wrote.some((f) => f.endsWith(path.join('workflows', 'skillpress.yml'))))
      lines.push(
        '  on GitHub: Settings → Pages → Source "GitHub Actions", and a repository secret SKILLPRESS_CACHE_KEY of at least 32 characters (`openssl rand -hex 32`) for the build cache',
      );
    const b = result.build;
    if (b) {
      // The skills folder as the user would type it from here: problems print short and clickable.
      lines.push(...firstBuildProblems(b.problems, rel(path.resolve(result.dir, b.skillsRoot)), rel(result.dir)));
      const tally = problemsByRule(b.problems);
      if (tally) lines.push(tally);
      const advice = nameClashAdvice(b.problems);
      if (advice) lines.push(advice);
      const serve = `\`skillpress preview --out ${rel(b.out)}\` serves it`;
      lines.push(`built ${b.skills} skill(s) into ${rel(b.out)}${b.ok ? `: ${serve}` : `${failure(b)} (${serve})`}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    return b && !b.ok ? EXIT.invalid : EXIT.ok;
  },
};

/** Warnings listed one by one after a first build; beyond that, counted (a large catalog's first build has hundreds). */
const INIT_WARNINGS_LISTED = 20;

/** Every error, and the warnings while they are few; else a line saying where each is listed (`repo`: the repository, from here). */
function firstBuildProblems(problems: readonly Problem[], root: string | undefined, repo: string): string[] {
  const warnings = problems.filter((p) => p.severity !== 'error').length;
  const listAll = warnings <= INIT_WARNINGS_LISTED;
  const lines = problems.filter((p) => listAll || p.severity === 'error').map((p) => formatProblem(p, root));
  if (!listAll)
    lines.push(
      `${warnings} warnings, not listed here (counted by rule below): \`skillpress build\`${repo === '.' ? '' : ` in ${repo}`} lists each`,
    );
  return lines;
}

/** A relative or absolute path, `~/…` or a `file:` spec: what only this machine can install from. */
function isLocalPath(spec: string): boolean {
  return /^(\.{1,2}([\\/]|$)|[\\/]|~|file:)/i.test(spec) || /^[a-z]:[\\/]/i.test(spec);
}
