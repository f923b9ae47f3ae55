import { loadCatalog } from '../../load/index.ts';
import type { Problem } from '../../model/skill.ts';
import { EXIT, parse, type Command } from '../args.ts';
import { loadConfig } from '../config.ts';

export function formatProblem(p: Problem): string {
  const where = [p.skill, p.file].filter(Boolean).join('/') + (p.line ? `:${p.line}` : '');
  return `${where}: ${p.severity} [${p.rule}]${p.field ? ` ${p.field}:` : ''} ${p.message}`;
}

export const validate: Command = {
  name: 'validate',
  summary: 'check every skill against the Agent Skills specification',
  usage: 'skillpress validate [dir=skills] [--strict] [--json] [--config dir]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      strict: { type: 'boolean' },
      json: { type: 'boolean' },
      config: { type: 'string' },
    });
    const config = await loadConfig(values.config);
    const root = positionals[0] ?? config.skills.root;
    const catalog = await loadCatalog(root, {
      mode: values.strict ? 'strict' : 'lenient',
      ignore: config.skills.ignore,
      maxFileBytes: config.skills.max_file_bytes,
      maxDepth: config.skills.max_depth,
    });
    const errors = catalog.problems.filter((p) => p.severity === 'error');
    const invalidSkills = new Set(errors.map((p) => p.skill));
    const warnings = catalog.problems.length - errors.length;
    if (values.json) {
      process.stdout.write(
        JSON.stringify({ valid: errors.length === 0, skills: catalog.skills.length, invalid: [...invalidSkills], problems: catalog.problems }, null, 2) + '\n',
      );
    } else {
      for (const p of catalog.problems) process.stdout.write(formatProblem(p) + '\n');
      const files = catalog.skills.reduce((n, s) => n + s.files.length, 0);
      process.stdout.write(
        `${catalog.skills.length} valid skill(s), ${files} file(s); ${invalidSkills.size} invalid skill(s); ${errors.length} error(s), ${warnings} warning(s)\n`,
      );
    }
    return errors.length > 0 ? EXIT.invalid : EXIT.ok;
  },
};
