/**
 * `skillpress dev`: build, serve on 127.0.0.1, rebuild when the skills or the config change,
 * reload open pages (src/serve/dev-server.ts). Prints one line per build, the errors of the
 * skills a served build leaves out and the warnings it brings (all of them on the first), and the
 * problems of a build that is not served. Ctrl-C,
 * SIGTERM and SIGHUP (the terminal closed) all stop it and remove its temp folder; a second one,
 * or a stop that takes over 10 s, ends it at once.
 */
import { startDevServer, type BuildStatus } from '../../serve/dev-server.ts';
import { EXIT, parse, requireSkillsFolder, skillsFolderArgument, type Command } from '../args.ts';
import { parsePort, portInUse } from './preview.ts';
import { formatProblem } from './validate.ts';

/** How long stopping may take before dev ends without waiting. */
const CLOSE_DEADLINE_MS = 10_000;
/** Warnings listed in the terminal after a build; the rest are counted (all show on the pages). */
const WARNINGS_LISTED = 20;

/** Resolves on Ctrl-C, SIGTERM or SIGHUP. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
}

/** `dev: 3 warning(s):` for the first build (all of them), `dev: 1 new warning(s), 4 in all:` later. */
export function warningsHeadline(fresh: number, all: number, build: number): string {
  return build === 1 || fresh === all
    ? `dev: ${fresh} warning(s):\n`
    : `dev: ${fresh} new warning(s), ${all} in all:\n`;
}

/** `dev: 2 invalid skill(s) left out …:` above the errors of the skills a served build leaves out. */
function invalidHeadline(invalid: number): string {
  return `dev: ${invalid} invalid skill(s) left out (served again once fixed; skillpress validate lists every problem):\n`;
}

/** `headline`, then the first of `lines` indented, the rest counted with who lists them all. */
function listed(headline: string, lines: readonly string[], listsAll: string): string {
  const shown = lines.slice(0, WARNINGS_LISTED);
  const more = lines.length - shown.length;
  return (
    headline +
    shown.map((l) => `  ${l}\n`).join('') +
    (more > 0 ? `  …and ${more} more (${listsAll} lists them all)\n` : '')
  );
}

/** The errors of the skills the first served build leaves out, under their headline. */
function invalidLines(status: BuildStatus): string {
  const fresh = status.newServedErrors;
  return fresh.length === 0 ? '' : listed(invalidHeadline(status.invalid), fresh, 'skillpress validate');
}

/** The warnings the served build brought, when it brought any. */
function reportWarnings(status: BuildStatus): void {
  const fresh = status.newWarnings;
  if (fresh.length === 0) return;
  const headline = warningsHeadline(fresh.length, status.warnings.length, status.build);
  process.stderr.write(listed(headline, fresh, 'skillpress build'));
}

function report(status: BuildStatus): void {
  const site = status.site ?? status.result?.site;
  const rendered = site ? `; rendered ${site.rendered} of ${site.skills} skills, ${site.cached} from cache` : '';
  if (status.failure)
    process.stderr.write(`dev: build ${status.build} failed in ${status.seconds.toFixed(1)} s: ${status.failure}\n`);
  else if (!status.ok) {
    process.stderr.write(
      `dev: build ${status.build} has new errors; still serving build ${status.served}:\n${status.newErrors.map((l) => `  ${l}\n`).join('')}`,
    );
  } else
    // One write: the skills left out come with the line of the build that leaves them out.
    process.stderr.write(
      `dev: build ${status.build}: ${status.result!.skills} skills in ${status.seconds.toFixed(1)} s${rendered}\n` +
        invalidLines(status),
    );
  reportWarnings(status);
}

export const dev: Command = {
  usage: 'skillpress dev [dir | --skills dir] [--port n=4321] [--base /path/] [--config file|dir] [--strict]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      port: { type: 'string' },
      base: { type: 'string' },
      config: { type: 'string' },
      strict: { type: 'boolean' },
    });
    const port = parsePort(values.port, 4321);
    const skills = skillsFolderArgument(values.skills, positionals);
    if (skills !== undefined) await requireSkillsFolder(skills);
    // Listening before the first build: a signal during it still stops dev the clean way.
    const stopped = untilStopped();
    const server = await startDevServer({
      skills,
      config: values.config,
      base: values.base,
      strict: values.strict,
      cwd: process.cwd(),
      port,
      describeProblem: formatProblem,
      onBuildStart: (n) => process.stderr.write(`dev: build ${n} started\n`),
      onBuild: report,
    }).catch((err: unknown) => portInUse(err, port));
    process.stdout.write(`dev: serving at ${server.url} (Ctrl-C to stop)\n`);
    await stopped;
    // Stopping waits for a build under way and for Astro's server. A second signal, or a close
    // that takes longer than CLOSE_DEADLINE_MS, ends dev at once: its temp folder goes on exit.
    const closed = server.close().then(() => true);
    const gaveUp = new Promise<false>((resolve) => {
      void untilStopped().then(() => resolve(false));
      setTimeout(() => resolve(false), CLOSE_DEADLINE_MS).unref();
    });
    if (!(await Promise.race([closed, gaveUp]))) {
      process.stderr.write('dev: stopped at once, without waiting for a build or the page server to finish\n');
      process.exit(EXIT.ok);
    }
    return EXIT.ok;
  },
};
