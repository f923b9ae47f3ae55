/**
 * `skillpress enable|disable <name> [--config dir]`: remove a skill from, or add it to,
 * `skills.disabled` in `<config>/skillpress.json`, keeping the file's other fields.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { findConfig, findSkillsAndConfig, skillsLoadOptions } from '../../config/load.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { didYouMean } from '../../lib/near-names.ts';
import { disabledBy, setSkillEnabled } from '../../enable/index.ts';
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
      // Only the config changed: what is published follows at the next build.
      if (r.changed)
        process.stdout.write(
          `the next build ${enabled ? 'publishes it' : 'leaves it out'} (skillpress build; dev rebuilds on its own)\n`,
        );
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
  // The skills folder every command reads: skills.root, from the folder of the config found.
  const { config, skills: root } = await findSkillsAndConfig({ config: configPath });
  if (!existsSync(root)) return;
  // The names the build publishes skills under (a folder may be named otherwise): loaded as it loads them.
  const { loadCatalog } = await import('../../load/index.ts');
  const catalog = await loadCatalog(path.resolve(root), skillsLoadOptions(config));
  const names = catalog.skills.map((s) => s.id);
  if (names.some((n) => disabledBy(n, [rule]) !== undefined)) return;
  if (!rule.includes('*'))
    throw new NotFoundError(`no skill "${rule}" in ${root}${didYouMean(rule, names)}; nothing was changed`);
  process.stderr.write(`warning: "${rule}" matches no skill in ${root} yet\n`);
}

export const enable = enableCommand(true);
export const disable = enableCommand(false);
