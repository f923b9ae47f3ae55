/**
 * `skillpress new`, `skillpress versions`, `skillpress rollback`: the authoring library
 * (src/author) from the command line.
 */
import path from 'node:path';
import { EXIT, UsageError, parse, requireSkillsFolder, type Command } from '../args.ts';
import { findSkillsAndConfig } from '../../config/load.ts';
import { NotFoundError } from '../../lib/errors.ts';
import type { Template } from '../../author/index.ts';

/**
 * The skills folder: `--skills`, else the config's `skills.root`, read from the folder holding
 * the config (found from the skills folder or the working directory up, as `validate` finds it).
 */
async function skillsAndConfig(values: { skills?: string; config?: string }) {
  const found = await findSkillsAndConfig({ skills: values.skills, config: values.config });
  return { config: found.config, skills: found.skills };
}

/** The same, for a command that reads skills: a folder that is not there is a usage error, not "no skill". */
async function existingSkillsAndConfig(values: { skills?: string; config?: string }) {
  const found = await skillsAndConfig(values);
  await requireSkillsFolder(found.skills, values.skills !== undefined ? '--skills' : 'skills folder');
  return found;
}

/**
 * A skill the folder lacks, in the command line's words: the folder looked in and the near names,
 * not the MCP tool (`skills_search`) the library's message sends an agent to.
 */
async function inCliWords<T>(skills: string, work: Promise<T>): Promise<T> {
  const { UnknownSkillError } = await import('../../author/index.ts');
  try {
    return await work;
  } catch (e) {
    if (!(e instanceof UnknownSkillError)) throw e;
    const near = e.near.map((n) => `"${n}"`);
    const hint = near.length === 0 ? '' : ` (did you mean ${near.join(' or ')}?)`;
    throw new NotFoundError(`no skill "${e.skill}" in ${skills}${hint}`, { rule: e.rule });
  }
}

export const newSkill: Command = {
  usage:
    'skillpress new <name> [--skills dir] [--folder group/folder] [--description "…"] [--template basic|playbook] [--config dir]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      description: { type: 'string' },
      template: { type: 'string' },
      folder: { type: 'string' },
      config: { type: 'string' },
    });
    const [name] = positionals;
    if (!name) throw new UsageError('give the name of the new skill (lowercase letters, digits and hyphens)');
    const { skills, config } = await skillsAndConfig(values);
    const { scaffoldSkill } = await import('../../author/index.ts');
    const dir = await scaffoldSkill({
      skills,
      name,
      description: values.description,
      template: values.template as Template | undefined,
      folder: values.folder,
      config,
    });
    const where = path.relative(process.cwd(), dir) || dir;
    process.stdout.write(`created ${where}/SKILL.md: fill in the TODOs, then run skillpress validate --strict\n`);
    return EXIT.ok;
  },
};

export const versions: Command = {
  usage: 'skillpress versions <name> [--skills dir] [--config dir] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean' },
    });
    const [name] = positionals;
    if (!name) throw new UsageError('give the name of the skill');
    const { skills } = await existingSkillsAndConfig(values);
    const { skillVersions } = await import('../../author/index.ts');
    const list = await inCliWords(skills, skillVersions(skills, name));
    if (values.json) {
      process.stdout.write(JSON.stringify(list, null, 2) + '\n');
      return EXIT.ok;
    }
    if (list.length === 0)
      process.stdout.write(`${name}: no recorded version (versions are recorded by create and update)\n`);
    for (const v of list) {
      const commit = v.commit ? `  commit ${v.commit.slice(0, 12)}` : '';
      process.stdout.write(`${v.version}  ${v.date}  ${v.digest}${commit}\n`);
      for (const change of v.changes) process.stdout.write(`    - ${change}\n`);
    }
    return EXIT.ok;
  },
};

export const rollback: Command = {
  usage: 'skillpress rollback <name> <version> [--skills dir] [--config dir] [--json]',
  async run(argv) {
    const { values, positionals } = parse(
      argv,
      { skills: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' } },
      2,
    );
    const [name, version] = positionals;
    if (!name || !version) throw new UsageError('give the name of the skill and the version to restore');
    const { skills, config } = await existingSkillsAndConfig(values);
    const { rollbackSkill } = await import('../../author/index.ts');
    const result = await inCliWords(skills, rollbackSkill({ skills, config, name, version }));
    if (values.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else
      process.stdout.write(
        `${name}: version ${version} restored as version ${result.version}\n${result.changes.map((c) => `  - ${c}\n`).join('')}`,
      );
    return EXIT.ok;
  },
};
