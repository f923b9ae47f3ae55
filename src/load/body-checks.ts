/**
 * Checks on the SKILL.md body: relative links to files that do not exist, and the spec's
 * progressive-disclosure guidance (under 500 lines and about 5,000 tokens).
 */
import { countTokens } from '../lib/tokens.ts';

export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

export interface BodyProblem {
  severity: 'warning';
  line?: number;
  rule: string;
  message: string;
}

const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Relative link targets in markdown, with their line (1-based within `body`). Skips code. */
export function relativeLinks(body: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let inFence = false;
  body.split('\n').forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    if (inFence) return;
    const stripped = text.replace(/`[^`]*`/g, '');
    for (const m of stripped.matchAll(LINK)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}

export function checkBody(body: string, bodyLine: number, files: ReadonlySet<string>): BodyProblem[] {
  const problems: BodyProblem[] = [];
  for (const link of relativeLinks(body)) {
    let target = link.target.split('#')[0]!.split('?')[0]!;
    try {
      target = decodeURIComponent(target);
    } catch {
      /* keep as written */
    }
    target = target.replace(/^\.\//, '');
    if (target === '' || files.has(target) || [...files].some((f) => f.startsWith(target.replace(/\/$/, '') + '/'))) continue;
    problems.push({
      severity: 'warning',
      line: bodyLine + link.line - 1,
      rule: 'link-target-exists',
      message: `link to "${link.target}" points to no file in this skill`,
    });
  }
  const lines = body.split('\n').length;
  if (lines > MAX_BODY_LINES) {
    problems.push({ severity: 'warning', rule: 'body-lines', message: `SKILL.md body is ${lines} lines; keep it under ${MAX_BODY_LINES} and move detail into referenced files` });
  }
  // BPE tokens never outnumber UTF-8 bytes, so short bodies need no tokenizing.
  if (Buffer.byteLength(body) > MAX_BODY_TOKENS) {
    const tokens = countTokens(body);
    if (tokens > MAX_BODY_TOKENS) {
      problems.push({ severity: 'warning', rule: 'body-tokens', message: `SKILL.md body is about ${tokens} tokens; keep it under ${MAX_BODY_TOKENS}` });
    }
  }
  return problems;
}
