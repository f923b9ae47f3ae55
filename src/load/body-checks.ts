/**
 * Checks on SKILL.md beyond its front matter: relative links to files that do not exist, paths
 * into the Claude Code plugin a skill came in (files a catalog does not publish with it), and
 * the spec's progressive-disclosure guidance (SKILL.md under 500 lines, the body under about
 * 5,000 tokens). All are warnings: the skill still works, but an agent will stumble.
 */
import path from 'node:path';
import { folderPaths, withoutSkillDirPlaceholder } from '../lib/paths.ts';
import { TokenCounts } from '../lib/token-counts.ts';

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

// [label]: target   (a reference definition; anchored, so one attempt per line). `[^1]: text`
// is a footnote (GitHub's markdown), whose text is no link.
const REFERENCE_DEF = /^ {0,3}\[(?!\^)[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/;

/**
 * Relative link targets in markdown, with their line (1-based within `body`). Code is skipped.
 * Lines are scanned by hand, in one pass each: regular expressions for nested brackets and
 * code spans backtrack quadratically on a long line of `[` or backticks.
 */
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
    const prose = stripCodeSpans(text);
    const targets = inlineTargets(prose);
    const def = REFERENCE_DEF.exec(prose);
    if (def) targets.push(def[1]!.startsWith('<') ? def[1]!.slice(1, -1) : def[1]!);
    for (const target of targets) {
      if (
        target === '' ||
        /^[a-z][a-z0-9+.-]*:/i.test(target) ||
        target.startsWith('#') ||
        target.startsWith('/') ||
        target.startsWith('//')
      )
        continue;
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}

/** The line without its code spans: a run of backticks closes at the next run of the same length. */
function stripCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: Array<{ start: number; end: number }> = [];
  for (let i = line.indexOf('`'); i >= 0; i = line.indexOf('`', i)) {
    let end = i;
    while (line[end] === '`') end++;
    runs.push({ start: i, end });
    i = end;
  }
  // Each length's runs in order, with a cursor that only moves forward: one pass over the runs.
  const byLength = new Map<number, { at: number[]; next: number }>();
  runs.forEach((r, k) => {
    const len = r.end - r.start;
    const list = byLength.get(len) ?? byLength.set(len, { at: [], next: 0 }).get(len)!;
    list.at.push(k);
  });
  let out = '';
  let from = 0;
  for (let k = 0; k < runs.length;) {
    const run = runs[k]!;
    const same = byLength.get(run.end - run.start)!;
    while (same.next < same.at.length && same.at[same.next]! <= k) same.next++;
    if (same.next === same.at.length) {
      k++;
      continue;
    }
    const close = same.at[same.next]!;
    out += line.slice(from, run.start);
    from = runs[close]!.end;
    k = close + 1;
  }
  return out + line.slice(from);
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Targets of `[text](target "title")` and `![alt](target)` on one line (`<target>` too), in one
 * pass: brackets are matched with a stack, and every search for a closing character starts
 * where the last one for that character ended.
 */
function inlineTargets(line: string): string[] {
  const found: string[] = [];
  const next = forwardSearch(line);
  const open: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '[') open.push(i);
    else if (c === ']' && open.pop() !== undefined && line[i + 1] === '(') {
      const link = destination(line, i + 2, next);
      if (link) {
        found.push(link.target);
        i = link.end - 1;
      }
    }
  }
  return found;
}

/** `indexOf` for calls whose start only moves forward: a character's last answer is reused while still ahead. */
function forwardSearch(line: string): (ch: string, from: number) => number {
  const last = new Map<string, number>();
  return (ch, from) => {
    const known = last.get(ch);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = line.indexOf(ch, from);
    last.set(ch, at);
    return at;
  };
}

/** The `(target "title")` part of a link starting at `from` (after the parenthesis). */
function destination(
  line: string,
  from: number,
  next: (ch: string, from: number) => number,
): { target: string; end: number } | undefined {
  let i = from;
  while (isBlank(line[i])) i++;
  let target: string;
  if (line[i] === '<') {
    const close = next('>', i + 1);
    if (close < 0) return undefined;
    target = line.slice(i + 1, close);
    i = close + 1;
  } else {
    const start = i;
    // Stops at `]` too, so the scans from two links never overlap.
    while (i < line.length && !isBlank(line[i]) && line[i] !== ')' && line[i] !== ']') i++;
    if (i === start) return undefined;
    target = line.slice(start, i);
  }
  const titled = isBlank(line[i]);
  while (isBlank(line[i])) i++;
  const closer = titled ? { '"': '"', "'": "'", '(': ')' }[line[i] ?? ''] : undefined;
  if (closer) {
    const close = next(closer, i + 1);
    if (close < 0) return undefined;
    i = close + 1;
    while (isBlank(line[i])) i++;
  }
  return line[i] === ')' ? { target, end: i + 1 } : undefined;
}

/**
 * The path a relative link points to inside the skill (`{baseDir}/x` is `x`), or undefined if it
 * leaves the skill.
 */
function linkPath(target: string): string | undefined {
  let p = target.split('#')[0]!.split('?')[0]!;
  try {
    p = decodeURIComponent(p);
  } catch {
    /* keep as written */
  }
  const normal = path.posix.normalize(withoutSkillDirPlaceholder(p)).replace(/\/$/, '');
  return normal === '..' || normal.startsWith('../') ? undefined : normal;
}

// `${CLAUDE_PLUGIN_ROOT}/path`: Claude Code fills in the folder of the plugin the skill came in.
const PLUGIN_ROOT_PATH = /\$\{?CLAUDE_PLUGIN_ROOT\}?\/+([^\s`'"()<>[\]{}*:;,|]+)/g;

/**
 * The paths SKILL.md's body names below `${CLAUDE_PLUGIN_ROOT}`, code included (they are mostly
 * in commands), each once with its first line (1-based within `body`).
 */
function pluginRootPaths(body: string): Array<{ path: string; line: number }> {
  const seen = new Map<string, number>();
  body.split('\n').forEach((text, i) => {
    if (!text.includes('CLAUDE_PLUGIN_ROOT')) return;
    for (const m of text.matchAll(PLUGIN_ROOT_PATH)) {
      const rel = m[1]!.replace(/[.]+$/, '');
      if (rel && !seen.has(rel)) seen.set(rel, i + 1);
    }
  });
  return [...seen].map(([p, line]) => ({ path: p, line }));
}

/**
 * Warnings for files of the plugin outside the skill folder: a catalog publishes the skill's
 * folder, so an agent that installs it from there does not have them. A path through
 * `skills/<this skill's folder>/` is the skill's own, checked like a link.
 */
function pluginRootProblems(
  body: string,
  bodyLine: number,
  folderName: string | undefined,
  inSkill: (rel: string) => boolean,
): BodyProblem[] {
  const problems: BodyProblem[] = [];
  for (const { path: rel, line } of pluginRootPaths(body)) {
    // Through the skill's own folder: the rest of the path, read as a link in the skill is (linkPath).
    const own = folderName === undefined ? undefined : `skills/${folderName}/`;
    const normal = `${path.posix.normalize(rel)}/`;
    const below = own && normal.startsWith(own) ? linkPath(normal.slice(own.length)) : undefined;
    if (below !== undefined && inSkill(below)) continue;
    const at = bodyLine + line - 1;
    const named = `"\${CLAUDE_PLUGIN_ROOT}/${rel}"`;
    problems.push(
      below === undefined
        ? {
            severity: 'warning',
            line: at,
            rule: 'plugin-root-file',
            message: `${named} is a file of the Claude Code plugin this skill comes in, outside the skill folder: it is not published with the skill, so agents that install the skill from a catalog do not have it; copy it into the skill and write "\${CLAUDE_SKILL_DIR}/…"`,
          }
        : {
            severity: 'warning',
            line: at,
            rule: 'link-target-exists',
            message: `${named} points to no file in this skill: fix the path or add the file`,
          },
    );
  }
  return problems;
}

// `{baseDir}/path`, `${CLAUDE_SKILL_DIR}/path`: the client fills in the skill's folder (in commands too).
const SKILL_DIR_PATH = /(?:\{baseDir\}|\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR)\/+([^\s`'"()<>[\]{}*:;,|$]+)/g;
/** Files an instruction runs: named below the skill's folder, they must be there (one it writes need not). */
const RUN_FILE = /\.(py|sh|bash|js|mjs|cjs|ts|rb|go|pl|ps1|jar)$/i;

/**
 * Warnings for paths the body names below the skill's folder, code included (`uv run
 * {baseDir}/ct_analyzer/analyzer.py`), that are not in it: a folder the skill does not have, or a
 * script it does not hold. A file in an existing folder that is not a script may be one the
 * instructions write (`{baseDir}/out/report.json`). Markdown links are checked as links.
 */
function skillDirProblems(
  body: string,
  bodyLine: number,
  inSkill: (rel: string) => boolean,
  linked: ReadonlySet<string>,
): BodyProblem[] {
  const problems: BodyProblem[] = [];
  const seen = new Set<string>();
  body.split('\n').forEach((text, i) => {
    if (!text.includes('{baseDir}') && !text.includes('CLAUDE_SKILL_DIR')) return;
    for (const m of text.matchAll(SKILL_DIR_PATH)) {
      const rel = linkPath(m[1]!.replace(/[.]+$/, ''));
      if (rel === undefined || rel === '.' || seen.has(rel) || linked.has(rel) || inSkill(rel)) continue;
      seen.add(rel);
      if (inSkill(rel.split('/')[0]!) && !RUN_FILE.test(rel)) continue;
      problems.push({
        severity: 'warning',
        line: bodyLine + i,
        rule: 'link-target-exists',
        message: `"${m[0]}" points to no file in this skill: agents that install the skill do not have it; fix the path or add the file`,
      });
    }
  });
  return problems;
}

export async function checkBody(
  md: SkillMarkdownParts,
  files: ReadonlySet<string>,
  tokens: TokenCounts = TokenCounts.memory(),
  folderName?: string,
): Promise<BodyProblem[]> {
  const problems: BodyProblem[] = [];
  const folders = folderPaths(files);
  // A link's path (from linkPath) names the skill folder itself, or one of its files or folders.
  const inSkill = (rel: string): boolean => rel === '.' || files.has(rel) || folders.has(rel);
  const links = relativeLinks(md.body);
  for (const link of links) {
    const line = md.bodyLine + link.line - 1;
    const target = linkPath(link.target);
    if (target === undefined) {
      problems.push({
        severity: 'warning',
        line,
        rule: 'link-outside-skill',
        message: `link to "${link.target}" leaves the skill folder; agents only get this skill's files: copy the file into the skill`,
      });
    } else if (!inSkill(target)) {
      problems.push({
        severity: 'warning',
        line,
        rule: 'link-target-exists',
        message: `link to "${link.target}" points to no file in this skill: fix the path (relative to the skill folder) or add the file`,
      });
    }
  }
  problems.push(...pluginRootProblems(md.body, md.bodyLine, folderName, inSkill));
  const linked = new Set(links.map((l) => linkPath(l.target)).filter((t) => t !== undefined));
  problems.push(...skillDirProblems(md.body, md.bodyLine, inSkill, linked));
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
    const count = await tokens.count(md.body);
    if (count > MAX_BODY_TOKENS) {
      problems.push({
        severity: 'warning',
        line: md.bodyLine,
        rule: 'body-tokens',
        message: `SKILL.md body is about ${count} tokens; keep it under ${MAX_BODY_TOKENS}: agents load all of it when the skill is used, so move detail into referenced files`,
      });
    }
  }
  return problems;
}
