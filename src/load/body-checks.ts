/**
 * Checks on SKILL.md beyond its front matter: relative links to files that do not exist, and
 * the spec's progressive-disclosure guidance (SKILL.md under 500 lines, the body under about
 * 5,000 tokens). All are warnings: the skill still works, but an agent will stumble.
 */
import path from 'node:path';

const MAX_SKILL_MD_LINES = 500;
const MAX_BODY_TOKENS = 5000;

export interface BodyProblem {
  severity: 'warning';
  line?: number;
  rule: string;
  message: string;
}

export interface SkillMarkdownParts {
  body: string;
  /** SKILL.md line where `body` starts. */
  bodyLine: number;
  /** Lines of the whole SKILL.md. */
  lines: number;
}

// [text](target "title") and ![alt](target); the target may be wrapped in <>.
const INLINE_LINK = /!?\[(?:[^\]\n\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
// [label]: target   (a reference definition)
const REFERENCE_DEF = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/;

/** Relative link targets in markdown, with their line (1-based within `body`). Code is skipped. */
export function relativeLinks(body: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let fence: string | undefined;
  body.split('\n').forEach((text, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence !== undefined || /^( {4}|\t)/.test(text)) return;
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    const targets = [...prose.matchAll(INLINE_LINK)].map((m) => m[1]!);
    const def = REFERENCE_DEF.exec(prose);
    if (def) targets.push(def[1]!);
    for (let target of targets) {
      if (target.startsWith('<')) target = target.slice(1, -1);
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/') || target.startsWith('//')) continue;
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}

/** The path a relative link points to inside the skill, or undefined if it leaves the skill. */
function linkPath(target: string): string | undefined {
  let p = target.split('#')[0]!.split('?')[0]!;
  try {
    p = decodeURIComponent(p);
  } catch {
    /* keep as written */
  }
  const normal = path.posix.normalize(p).replace(/\/$/, '');
  return normal === '..' || normal.startsWith('../') ? undefined : normal;
}

export async function checkBody(md: SkillMarkdownParts, files: ReadonlySet<string>): Promise<BodyProblem[]> {
  const problems: BodyProblem[] = [];
  const folders = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  }
  for (const link of relativeLinks(md.body)) {
    const line = md.bodyLine + link.line - 1;
    const target = linkPath(link.target);
    if (target === undefined) {
      problems.push({ severity: 'warning', line, rule: 'link-outside-skill', message: `link to "${link.target}" leaves the skill folder; agents only get this skill's files: copy the file into the skill` });
    } else if (target !== '.' && !files.has(target) && !folders.has(target)) {
      problems.push({ severity: 'warning', line, rule: 'link-target-exists', message: `link to "${link.target}" points to no file in this skill: fix the path (relative to the skill folder) or add the file` });
    }
  }
  if (md.lines > MAX_SKILL_MD_LINES) {
    problems.push({
      severity: 'warning',
      line: MAX_SKILL_MD_LINES + 1,
      rule: 'skill-md-lines',
      message: `SKILL.md is ${md.lines} lines; keep it under ${MAX_SKILL_MD_LINES}: move detailed reference material into separate files and link them`,
    });
  }
  // BPE tokens never outnumber UTF-8 bytes, so short bodies need no tokenizing, and the
  // tokenizer (slow to load) is only loaded for long ones.
  if (Buffer.byteLength(md.body) > MAX_BODY_TOKENS) {
    const { countTokens } = await import('../lib/tokens.ts');
    const tokens = countTokens(md.body);
    if (tokens > MAX_BODY_TOKENS) {
      problems.push({
        severity: 'warning',
        line: md.bodyLine,
        rule: 'body-tokens',
        message: `SKILL.md body is about ${tokens} tokens; keep it under ${MAX_BODY_TOKENS}: agents load all of it when the skill is used, so move detail into referenced files`,
      });
    }
  }
  return problems;
}
