/**
 * Skill-relative file paths: one rule for which are publishable, checked wherever a path comes
 * from someone else (a skill folder, a peer feed, an archive, an Elasticsearch document, an MCP
 * URI) and wherever one is written to disk or put in a URL.
 *
 * A path is `/`-separated and relative. Segments are compared whole: `..notes.md` and `...` are
 * ordinary names, only a segment that *is* `.` or `..` is refused. Browser-safe (no node:
 * imports): the site encodes file URLs with `encodePath`.
 */
import { UnsafePathError } from './errors.ts';

/** Longest path (in UTF-16 code units) and longest segment (in UTF-8 bytes, as file systems count). */
export const MAX_PATH_LENGTH = 4096;
export const MAX_SEGMENT_BYTES = 255;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const DRIVE = /^[A-Za-z]:/;
const encoder = new TextEncoder();

/**
 * Why `p` is not a publishable relative path, or undefined when it is. The reason is a short
 * phrase that completes "path … ": `is empty`, `has a ".." segment`.
 */
export function pathProblem(p: string): string | undefined {
  if (p.length === 0) return 'is empty';
  if (p.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  if (CONTROL.test(p)) return 'contains a control character (NUL, newline, tab, ESC, DEL …)';
  if (p.includes('\\')) return 'contains a backslash';
  if (p.startsWith('/')) return 'is absolute';
  if (DRIVE.test(p)) return 'starts with a drive letter (like "c:")';
  for (const segment of p.split('/')) {
    if (segment === '') return 'has an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    if (encoder.encode(segment).length > MAX_SEGMENT_BYTES)
      return `has a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/**
 * Placeholders a SKILL.md writes for the skill's own folder, which the agent's client fills in:
 * `{baseDir}` (trailofbits/skills prescribes it for every path) and Claude Code's
 * `${CLAUDE_SKILL_DIR}`. A link or a file asked for as `{baseDir}/references/x.md` is the
 * skill's `references/x.md`.
 */
const SKILL_DIR_PLACEHOLDER = /^(?:\{baseDir\}|\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR)\/+/;

/** `p` relative to the skill's folder: a leading skill-folder placeholder removed. */
export function withoutSkillDirPlaceholder(p: string): string {
  return p.replace(SKILL_DIR_PLACEHOLDER, '');
}

/** `p` itself when it is publishable; otherwise an UnsafePathError naming the path and the rule. */
export function checkPath(p: string): string {
  const problem = pathProblem(p);
  if (problem) throw new UnsafePathError(`path ${quotePath(p)} ${problem}`);
  return p;
}

/** The segments of a publishable path (throws UnsafePathError otherwise). */
export function pathSegments(p: string): string[] {
  return checkPath(p).split('/');
}

/** Percent-encode each segment for a URL (`/` stays the separator): `#1 ?q.txt` → `%231%20%3Fq.txt`. */
export function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

/**
 * A path fit for one human-readable line: JSON-quoted, so a newline, tab, ESC or DEL in a file
 * name shows as `\n`, `\t`, `\u001b`, `\u007f` instead of breaking the line or driving the terminal.
 */
export function quotePath(p: string): string {
  return printable(JSON.stringify(p));
}

/** What breaks a line or drives a terminal: C0 and C1 controls, DEL, Unicode line separators, bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every character of UNPRINTABLE escaped (`\n`, `\u001b`): safe inside one line of output. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether `text` holds a character `printable` would escape. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/**
 * Why a list of publishable paths cannot all be files of one folder, or undefined when they can:
 * a path listed twice, or a file that is also a folder of another (`a` and `a/b`). Checked
 * wherever someone else's file list is written to disk (federation, install).
 */
export function fileTreeProblem(paths: readonly string[]): string | undefined {
  const files = new Set<string>();
  for (const p of paths) {
    if (files.has(p)) return `path ${quotePath(p)} is listed twice`;
    files.add(p);
  }
  for (const p of paths) {
    for (let slash = p.indexOf('/'); slash !== -1; slash = p.indexOf('/', slash + 1)) {
      const folder = p.slice(0, slash);
      if (files.has(folder)) return `path ${quotePath(folder)} is a file and also the folder of ${quotePath(p)}`;
    }
  }
  return undefined;
}

/** Every folder that holds one of `files` (`a/b/c.md` → `a`, `a/b`), as a link may name it. */
export function folderPaths(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  }
  return folders;
}
