/**
 * SKILL.md text → parsed and validated front matter, the one path every source takes: local
 * folders (load-skill.ts), peer feeds and SKILL.md URLs (src/federate/). Each caller reports the
 * problems its own way (with file and line locally, as warnings naming the peer or URL when
 * federating) and decides with `blocking` which of them keep the skill out.
 */
import type { Severity } from '../model/skill.ts';
import type { LoadableFrontMatter } from './assemble-skill.ts';
import { isLoadable } from './assemble-skill.ts';
import { parseSkillMarkdown, type ParsedSkillMarkdown } from './frontmatter.ts';
import { validateFrontMatter, type FieldProblem, type ValidatedFrontMatter, type ValidationMode } from './validate.ts';

/** A problem of SKILL.md, with its line when it is known. */
export interface SkillMdProblem {
  severity: Severity;
  field?: string;
  line?: number;
  rule: string;
  message: string;
}

export interface SkillMarkdownOptions {
  /** Name of the folder holding SKILL.md; the skill's name must equal it. */
  folderName: string | undefined;
  mode: ValidationMode;
  /** Quote values with an unquoted ": " when the YAML does not parse otherwise (reported as warnings). */
  repair?: boolean;
  /** Which problems keep the skill out; default: every error. */
  blocking?: (problem: FieldProblem, frontMatter: ValidatedFrontMatter) => boolean;
}

export type SkillMarkdown =
  /** Loadable: name and description present and no blocking problem. */
  | { ok: true; parsed: ParsedSkillMarkdown; frontMatter: LoadableFrontMatter; problems: SkillMdProblem[] }
  /**
   * Kept out: `reasons` are the problems that did it (none when name or description is just
   * missing); `parsed` is there when the text parsed (its body can still be checked).
   */
  | { ok: false; parsed?: ParsedSkillMarkdown; problems: SkillMdProblem[]; reasons: SkillMdProblem[] };

const isError = (p: FieldProblem): boolean => p.severity === 'error';

/** Parse and validate the text of a SKILL.md; every problem found comes back, located. */
export function readSkillMarkdown(text: string, options: SkillMarkdownOptions): SkillMarkdown {
  const parsed = parseSkillMarkdown(text, { repair: options.repair ?? false });
  if (!parsed.ok) {
    const problem: SkillMdProblem = {
      severity: 'error',
      line: parsed.line,
      rule: parsed.rule,
      message: parsed.message,
    };
    return { ok: false, problems: [problem], reasons: [problem] };
  }
  const problems: SkillMdProblem[] = parsed.repairs.map((r) => ({
    severity: 'warning',
    line: r.line,
    field: r.field,
    rule: 'frontmatter-yaml-repaired',
    message: r.message,
  }));
  const fm = validateFrontMatter(parsed.data, {
    folderName: options.folderName,
    mode: options.mode,
    sourceText: parsed.sourceText,
  });
  const lineOf = (field: string | undefined): number | undefined =>
    field === undefined ? undefined : (parsed.fieldLines[field] ?? parsed.fieldLines[field.split('.')[0]!]);
  const blocking = options.blocking ?? isError;
  const reasons: SkillMdProblem[] = [];
  for (const p of fm.problems) {
    const located = { ...p, line: lineOf(p.field) };
    problems.push(located);
    if (blocking(p, fm)) reasons.push(located);
  }
  if (reasons.length > 0 || !isLoadable(fm)) return { ok: false, parsed, problems, reasons };
  return { ok: true, parsed, frontMatter: fm, problems };
}
