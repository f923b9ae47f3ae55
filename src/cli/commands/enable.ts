/**
 * `skillpress enable|disable <name> [--config dir]`: remove a skill from, or add it to,
 * `skills.disabled` in `<config>/skillpress.json`, keeping the file's other fields.
 */
import path from 'node:path';
import { findConfig } from '../../config/load.ts';
import { setSkillEnabled } from '../../enable/index.ts';
import { EXIT, UsageError, parse, type Command } from '../args.ts';

function enableCommand(enabled: boolean): Command {
  const name = enabled ? 'enable' : 'disable';
  return {
    usage: `skillpress ${name} <name> [--config file|dir]`,
    async run(argv) {
      const { values, positionals } = parse(argv, { config: { type: 'string' } });
      const skill = positionals[0];
      if (!skill) throw new UsageError(`${name}: which skill? e.g. skillpress ${name} my-skill`);
      // The config every command reads (found from here up to the repository root), else a new ./skillpress.json.
      const { file } = await findConfig({ config: values.config });
      const r = await setSkillEnabled(file ? path.dirname(file) : '.', skill, enabled);
      const state = r.changed
        ? `${skill} ${enabled ? 'enabled' : 'disabled'} in ${r.file}`
        : `${skill}: nothing to change in ${r.file}`;
      process.stdout.write(`${state}\n`);
      if (r.stillDisabledBy)
        process.stdout.write(`note: "${r.stillDisabledBy}" in skills.disabled still disables ${skill}\n`);
      return EXIT.ok;
    },
  };
}

export const enable = enableCommand(true);
export const disable = enableCommand(false);
