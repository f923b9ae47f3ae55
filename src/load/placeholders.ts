/**
 * What `skillpress new` writes for the author to replace (src/author/scaffold.ts builds its
 * description from here; its templates' `TODO:` sentences are listed here): a skill still holding
 * one was never filled in. Matched sentence by sentence, so a skill that speaks of TODOs (a code
 * review checklist, a task tracker) is not taken for a scaffold.
 */
import type { Severity } from '../model/skill.ts';

const DESCRIPTION_TAIL = 'does and when to use it (the words a user would say when asking for it).';

/** The description `skillpress new` writes when given none. */
export function placeholderDescription(title: string): string {
  return `TODO: what ${title} ${DESCRIPTION_TAIL}`;
}

export function isPlaceholderDescription(description: string): boolean {
  const text = description.trim();
  return text.startsWith('TODO: what ') && text.endsWith(` ${DESCRIPTION_TAIL}`);
}

/** Every `TODO:` sentence of the `basic` and `playbook` templates (test/author checks they are all here). */
const BODY_PLACEHOLDERS: ReadonlySet<string> = new Set([
  'TODO: the requests and situations this skill is for.',
  'TODO: the first thing to do.',
  'TODO: how to check it worked.',
  'TODO: limits, pitfalls, files of this skill to read (link them, e.g. `references/guide.md`).',
  "TODO: the customer's problem, in their words.",
  'TODO: what must be true (product, plan, account state).',
  'TODO: the first step, in a few words.',
  'TODO: the action (a lookup, a tool call).',
  'TODO: the next step.',
  'TODO: the action.',
  'TODO: what the result must show before going on.',
  'TODO: what to tell the customer.',
  // Skills made before the playbook's Do, Check and Say were list items of their own.
  'TODO: the first action (a lookup, a tool call).',
  'TODO: the next action.',
  'TODO: how to tell it worked.',
  'TODO: the update for the customer.',
  'TODO: what "solved" looks like, and how to confirm it with the customer.',
  'TODO: when to escalate, and to whom.',
]);

/** The lines of `body` (1-based) that end in one of the templates' placeholders. */
function placeholderLines(body: string): number[] {
  const lines: number[] = [];
  body.split('\n').forEach((line, i) => {
    const at = line.indexOf('TODO: ');
    if (at >= 0 && BODY_PLACEHOLDERS.has(line.slice(at).trimEnd())) lines.push(i + 1);
  });
  return lines;
}

/**
 * The body's placeholders as one problem, at the first of them (`bodyLine`: the SKILL.md line the
 * body starts on); `severity` is the mode's (`--strict`: an error, the skill is not finished).
 * Undefined when there is none.
 */
export function bodyPlaceholderProblem(
  md: { body: string; bodyLine: number },
  severity: Severity,
): { severity: Severity; field: string; line: number; rule: string; message: string } | undefined {
  const lines = placeholderLines(md.body).map((n) => md.bodyLine + n - 1);
  if (lines.length === 0) return undefined;
  return {
    severity,
    field: 'body',
    line: lines[0]!,
    rule: 'scaffold-placeholder',
    message: `the body still holds ${lines.length} placeholder(s) that skillpress new wrote (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}): replace each TODO with the skill's own instructions`,
  };
}
