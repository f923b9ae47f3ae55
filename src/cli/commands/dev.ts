/**
 * `skillpress dev`: build, serve on 127.0.0.1, rebuild when the skills or the config change,
 * reload open pages (src/serve/dev-server.ts). Prints one line per build, and the problems of a
 * build that is not served.
 */
import { startDevServer, type BuildStatus } from '../../serve/dev-server.ts';
import { EXIT, parse, requireSkillsFolder, skillsFolderArgument, type Command } from '../args.ts';
import { parsePort, portInUse, untilInterrupted } from './preview.ts';
import { formatProblem } from './validate.ts';

function report(status: BuildStatus): void {
  const site = status.result?.site;
  const rendered = site ? `; rendered ${site.rendered} of ${site.skills} skills, ${site.cached} from cache` : '';
  if (status.failure)
    process.stderr.write(`dev: build ${status.build} failed in ${status.seconds.toFixed(1)} s: ${status.failure}\n`);
  else if (!status.ok) {
    process.stderr.write(
      `dev: build ${status.build} has new errors; still serving build ${status.served}:\n${status.newErrors.map((l) => `  ${l}\n`).join('')}`,
    );
  } else
    process.stderr.write(
      `dev: build ${status.build}: ${status.result!.skills} skills in ${status.seconds.toFixed(1)} s${rendered}\n`,
    );
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
    const server = await startDevServer({
      skills,
      config: values.config,
      base: values.base,
      strict: values.strict,
      cwd: process.cwd(),
      port,
      describeProblem: formatProblem,
      onBuild: report,
    }).catch((err: unknown) => portInUse(err, port));
    process.stdout.write(`dev: serving at ${server.url} (Ctrl-C to stop)\n`);
    await untilInterrupted();
    await server.close();
    return EXIT.ok;
  },
};
