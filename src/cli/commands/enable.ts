/**
 * `skillpress enable|disable <name> [--config dir]`: remove a skill from, or add it to,
 * `skills.disabled` in `<config>/skillpress.json`, keeping the file's other fields.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { findConfig, loadConfig } from '../../config/load.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { didYouMean } from '../../lib/near-names.ts';
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
      // enable may remove a name whose skill is gone; a name it would not change is checked like disable's.
      if (!enabled) await checkMatches(skill, values.config);
      const r = await setSkillEnabled(file ? path.dirname(file) : '.', skill, enabled);
      if (enabled && !r.changed) await checkMatches(skill, values.config);
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

/**
 * A name that is no skill of the skills folder is a typo: refused with the near names. A glob
 * may name skills to come, so one that matches none is only warned about.
 */
async function checkMatches(rule: string, configPath: string | undefined): Promise<void> {
  const root = (await loadConfig(configPath)).skills.root;
  if (!existsSync(root)) return;
  const { skillFolders } = await import('../../author/write.ts');
  const names = (await skillFolders(path.resolve(root))).map((dir: string) => path.basename(dir));
  const { disabledBy } = await import('../../enable/index.ts');
  if (names.some((n) => disabledBy(n, [rule]) !== undefined)) return;
  if (!rule.includes('*'))
    throw new NotFoundError(`no skill "${rule}" in ${root}${didYouMean(rule, names)}; nothing was changed`);
  process.stderr.write(`warning: "${rule}" matches no skill in ${root} yet\n`);
}

export const enable = enableCommand(true);
export const disable = enableCommand(false);
