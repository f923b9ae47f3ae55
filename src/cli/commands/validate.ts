/**
 * `skillpress validate [dir | --skills dir] [--strict] [--quiet] [--json]`: load every skill under `dir` and report
 * each problem (each error with `--quiet`) on one line, `path:line: severity [rule] field: message`, then a summary.
 * Exit 0 when no problem is an error, 1 when any skill is invalid, 2 on usage errors.
 */
import path from 'node:path';
import { loadCatalog } from '../../load/index.ts';
import type { Catalog, Problem } from '../../model/skill.ts';
import { EXIT, parse, requireSkillsFolder, skillsFolderArgument, type Command } from '../args.ts';
import { configFolder, findSkillsAndConfig, skillsLoadOptions } from '../../config/load.ts';
import type { SkillpressConfig } from '../../model/config.ts';
import { hasUnprintable, printable, quotePath } from '../../lib/paths.ts';

/**
 * Where a problem is, as a path a terminal or editor can open: `skills/x/SKILL.md:3`; quoted
 * (`"skills/x/a\nb.md"`) when a name holds a newline, ESC or another character that would break
 * the line or drive the terminal.
 */
function problemLocation(p: Problem, root?: string): string {
  // A peer's or a URL's problem names where it came from, not a path below the skills folder; a
  // URL's is the URL as given (it names its SKILL.md already, and a path join would mangle it).
  const local = !/^(peer|url):/.test(p.skill);
  const parts = [local ? root : undefined, p.skill === '.' ? undefined : p.skill, p.file].filter((s): s is string =>
    Boolean(s),
  );
  const where =
    p.skill.startsWith('url:') || parts.length === 0
      ? p.skill
      : path.posix.join(...parts.map((s) => s.split(path.sep).join('/')));
  return (hasUnprintable(where) ? quotePath(where) : where) + (p.line ? `:${p.line}` : '');
}

/** One problem on one line (names and values from skills are escaped; `--json` keeps them exact). */
export function formatProblem(p: Problem, root?: string): string {
  return `${problemLocation(p, root)}: ${p.severity} [${p.rule}]${p.field ? ` ${printable(p.field)}:` : ''} ${printable(p.message)}`;
}

/**
 * The problems as lines, in their fixed order; `quiet` lists the errors only (ESLint's `--quiet`):
 * an aggregator's catalog carries hundreds of warnings it cannot fix upstream, and the tally still
 * counts them.
 */
export function problemLines(problems: readonly Problem[], root: string | undefined, quiet = false): string[] {
  return problems.filter((p) => !quiet || p.severity === 'error').map((p) => formatProblem(p, root));
}

/** Skill folders as an indented list, one a line (an aggregator's 26 made one line of 2,000 characters). */
export function folderList(folders: readonly string[]): string {
  return folders.map((f) => `\n  ${hasUnprintable(f) ? quotePath(f) : f}`).join('');
}

/**
 * The config (`--config`, else found from the skills folder upwards) and the skills folder a
 * command reads: `--skills`, else a folder argument, else `skills.root`. (Here rather than in
 * ../args.ts, which `skillpress mcp` loads too.)
 */
export async function configAndSkillsFolder(
  values: { skills?: string; config?: string },
  positionals: string[],
): Promise<{ config: SkillpressConfig; root: string; configRoot?: string }> {
  const found = await findSkillsAndConfig({
    skills: skillsFolderArgument(values.skills, positionals),
    config: values.config,
  });
  const root = await requireSkillsFolder(found.skills);
  return { config: found.config, root, configRoot: configFolder(found) };
}

/**
 * The problems counted by rule, errors first, then the most frequent: `errors: name-unique 26;
 * warnings: unknown-field 842, name-normalized 92`. A real catalog can print hundreds of lines
 * of one warning; this line says what they amount to. Undefined when there is none.
 */
export function problemsByRule(problems: readonly Problem[]): string | undefined {
  const part = (severity: Problem['severity'], label: string): string | undefined => {
    const counts = new Map<string, number>();
    for (const p of problems) if (p.severity === severity) counts.set(p.rule, (counts.get(p.rule) ?? 0) + 1);
    const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return ranked.length ? `${label}: ${ranked.map(([rule, n]) => `${rule} ${n}`).join(', ')}` : undefined;
  };
  const parts = [part('error', 'errors'), part('warning', 'warnings')].filter((x) => x !== undefined);
  return parts.length ? `by rule: ${parts.join('; ')}` : undefined;
}

export interface ValidationSummary {
  valid: boolean;
  mode: 'strict' | 'lenient';
  root: string;
  /** Skills that loaded. */
  skills: number;
  files: number;
  /** Skill folders with at least one error (not loaded). */
  invalid: string[];
  errors: number;
  warnings: number;
  problems: Problem[];
}

function summarize(catalog: Catalog, root: string, mode: 'strict' | 'lenient'): ValidationSummary {
  const errors = catalog.problems.filter((p) => p.severity === 'error');
  return {
    valid: errors.length === 0,
    mode,
    root,
    skills: catalog.skills.length,
    files: catalog.skills.reduce((n, s) => n + s.files.length, 0),
    invalid: [...new Set(errors.map((p) => p.skill))],
    errors: errors.length,
    warnings: catalog.problems.length - errors.length,
    problems: catalog.problems,
  };
}

export const validate: Command = {
  usage: 'skillpress validate [dir | --skills dir] [--strict] [--quiet] [--json] [--config file|dir]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      strict: { type: 'boolean' },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
      config: { type: 'string' },
    });
    const { config, root } = await configAndSkillsFolder(values, positionals);
    const mode = values.strict ? 'strict' : 'lenient';
    const catalog = await loadCatalog(root, { ...skillsLoadOptions(config), mode });
    const summary = summarize(catalog, root, mode);
    if (values.json) {
      process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    } else {
      const out = problemLines(catalog.problems, root, values.quiet);
      const tally = problemsByRule(catalog.problems);
      if (tally) out.push(tally);
      out.push(
        // The verdict stays the last line, in a stable format that scripts and tests match on.
        `${summary.valid ? 'valid' : 'invalid'} (${mode}): ${summary.skills} valid skill(s), ${summary.files} file(s); ` +
          `${summary.invalid.length} invalid skill(s); ${summary.errors} error(s), ${summary.warnings} warning(s)`,
      );
      process.stdout.write(out.join('\n') + '\n');
    }
    return summary.valid ? EXIT.ok : EXIT.invalid;
  },
};
