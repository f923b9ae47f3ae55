import path from 'node:path';
import { homedir } from 'node:os';
import {
  AGENTS,
  install as installSkill,
  installBundle,
  skillsFolder,
  type InstallResult,
} from '../../install/index.ts';
import { EXIT, UsageError, parse, type Command } from '../args.ts';
import { quotePath } from '../../lib/paths.ts';

export const install: Command = {
  usage: [
    'skillpress install <site or feed URL, or folder> <skill[@version] | --bundle name> [--to dir | --agent name] [--global] [--force] [--timeout ms] [--max-bytes n] [--json]',
    '',
    "  skill@version  one version from the skill's published history (skillpress feeds), digest-checked",
    '  --bundle name  install every skill of a bundle the feed publishes',
    '  --to dir       skills folder to install into (the skill goes to <dir>/<skill>/)',
    `  --agent name   the agent's usual folder: ${AGENTS.map((a) => a.name).join(', ')} (default: agents → .agents/skills)`,
    "  --global       the agent's folder in your home directory instead of the project's",
    '  --force        replace a skill edited locally or not installed by skillpress; reinstall an unchanged one',
    '  --timeout ms   per-request deadline (default 30000)',
    '  --max-bytes n  most bytes of one download or one unpacked archive (default 52428800)',
    '  --json         print the result as JSON',
  ].join('\n'),
  async run(argv) {
    const { values, positionals } = parse(
      argv,
      {
        to: { type: 'string' },
        agent: { type: 'string' },
        global: { type: 'boolean' },
        force: { type: 'boolean' },
        timeout: { type: 'string' },
        'max-bytes': { type: 'string' },
        json: { type: 'boolean' },
        bundle: { type: 'string' },
      },
      2,
    );
    const [source, name] = positionals;
    if (!source || (!name && !values.bundle))
      throw new UsageError('give the source (URL or folder) and the skill name (or --bundle name)');
    if (name && values.bundle) throw new UsageError('give a skill name or --bundle, not both');
    if (values.to && (values.agent || values.global))
      throw new UsageError('--to cannot be combined with --agent or --global');
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new UsageError('--timeout must be a positive number of milliseconds');
    const maxBytes = values['max-bytes'] === undefined ? undefined : Number(values['max-bytes']);
    if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes > 0))
      throw new UsageError('--max-bytes must be a positive number of bytes');
    // An unknown --agent is a UsageError (exit 2).
    const to =
      values.to ??
      skillsFolder(values.agent ?? 'agents', {
        global: values.global,
        cwd: process.cwd(),
        env: process.env,
        home: homedir(),
      });

    // Errors (a digest, path or name check that failed, a source not found) go to main: exit 1.
    const opts = { to, force: values.force, limits: { timeoutMs, maxBytes } };
    const results = values.bundle
      ? await installBundle(source, values.bundle, opts)
      : [await installSkill(source, name!, opts)];
    if (values.json) {
      process.stdout.write(JSON.stringify(values.bundle ? results : results[0], null, 2) + '\n');
      return EXIT.ok;
    }
    for (const result of results) printResult(result);
    return EXIT.ok;
  },
};

/** One line for an installed, updated or unchanged skill; a warning per file not installed. */
function printResult(result: InstallResult): void {
  const name = result.name;
  const where = path.relative(process.cwd(), result.dir) || result.dir;
  const version = result.version ? ` ${result.version}` : '';
  if (result.action === 'unchanged')
    process.stdout.write(`${name}${version} is up to date in ${where} (${result.digest})\n`);
  else if (result.previousDigest === result.digest)
    process.stdout.write(`reinstalled ${name}${version} in ${where} (${result.digest})\n`);
  else if (result.action === 'updated')
    process.stdout.write(
      `updated ${name}${version} in ${where}: ${result.previousDigest ?? 'unrecorded'} → ${result.digest}\n`,
    );
  else process.stdout.write(`installed ${name}${version} into ${where} (${result.digest})\n`);
  if (result.discarded)
    process.stderr.write(
      `warning: --force discarded ${result.discarded.length} file(s) of the folder it replaced: ${result.discarded.map((p) => quotePath(p)).join(', ')}\n`,
    );
  for (const m of result.missing)
    process.stderr.write(`warning: ${quotePath(`${name}/${m.path}`)} was not installed: ${m.reason}\n`);
}
