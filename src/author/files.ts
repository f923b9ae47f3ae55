/**
 * The files an agent hands to create_skill / update_skill, checked before anything is written:
 * the published-path rule (src/lib/paths.ts: no `..`, no absolute path, no drive letter, no
 * control character …), names the loader would drop or that mean something else (SKILL.md,
 * ignored names, device names), the loader's size limit (refused here rather than skipped), and
 * valid base64.
 */
import { InvalidInputError, UnsafePathError } from '../lib/errors.ts';
import { ignoreMatcher } from '../lib/ignore.ts';
import { fileTreeProblem, pathProblem, quotePath } from '../lib/paths.ts';
import { limitText, sizeText } from '../lib/size-text.ts';

export interface AuthoredFile {
  /** Path inside the skill folder, `/`-separated (`scripts/run.py`). */
  path: string;
  content: string;
  /** How `content` is written: text (default) or the bytes in base64. */
  encoding?: 'utf-8' | 'base64';
}

/** Most files one call may write; a skill with more is better assembled by hand. */
export const MAX_FILES_PER_WRITE = 500;

/** Windows device names: a file called `con.txt` cannot be checked out there. */
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

export interface FileLimits {
  maxFileBytes: number;
  ignore: readonly string[];
}

/** Why `p` may not be written into a skill (or made a folder, with `folder`), or undefined when it may. */
export function authoredPathProblem(p: string, ignore: readonly string[], folder = false): string | undefined {
  const problem = pathProblem(p);
  if (problem) return `path ${quotePath(p)} ${problem}`;
  const segments = p.split('/');
  if (!folder && segments.length === 1 && p.toLowerCase() === 'skill.md')
    return `path ${quotePath(p)} is the skill's SKILL.md: pass its text as body (and description), not as a file`;
  const matcher = ignoreMatcher(ignore);
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1 && !folder;
    if (last ? matcher.file(segment) : matcher.dir(segment))
      return `path ${quotePath(p)} has "${segment}", a name the loader ignores (skills.ignore): it would never be published`;
    if (DEVICE.test(segment)) return `path ${quotePath(p)} has "${segment}", a reserved device name on Windows`;
    if (/[. ]$/.test(segment)) return `path ${quotePath(p)} has a segment ending in "." or a space`;
  }
  return undefined;
}

/** Checked and decoded files; throws UnsafePathError or InvalidInputError naming the path and the rule. */
export function decodeFiles(
  files: readonly AuthoredFile[],
  limits: FileLimits,
): Array<{ path: string; bytes: Buffer }> {
  if (files.length > MAX_FILES_PER_WRITE)
    throw new InvalidInputError(
      `files: ${files.length} files; at most ${MAX_FILES_PER_WRITE} per call; nothing was written`,
    );
  const out = files.map((f, i) => {
    const where = `files[${i}]`;
    if (typeof f.path !== 'string') throw new InvalidInputError(`${where}.path is required; nothing was written`);
    const problem = authoredPathProblem(f.path, limits.ignore);
    if (problem) throw new UnsafePathError(`${where}: ${problem}; nothing was written`, { rule: 'path' });
    const bytes = decodeContent(f, where);
    if (bytes.byteLength > limits.maxFileBytes)
      throw new InvalidInputError(
        `${where}: ${quotePath(f.path)} is ${sizeText(bytes.byteLength)}, over ${limitText(limits.maxFileBytes, 'skills.max_file_bytes')}; nothing was written`,
        { rule: 'file-too-large' },
      );
    return { path: f.path, bytes };
  });
  const tree = fileTreeProblem(out.map((f) => f.path));
  if (tree) throw new UnsafePathError(`files: ${tree}; nothing was written`, { rule: 'path' });
  return out;
}

function decodeContent(f: AuthoredFile, where: string): Buffer {
  if (typeof f.content !== 'string')
    throw new InvalidInputError(`${where}.content is required (a string); nothing was written`);
  if ((f.encoding ?? 'utf-8') === 'utf-8') return Buffer.from(f.content, 'utf8');
  if (f.encoding !== 'base64')
    throw new InvalidInputError(`${where}.encoding must be "utf-8" or "base64"; nothing was written`);
  const compact = f.content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw new InvalidInputError(`${where}.content is not valid base64; nothing was written`);
  return Buffer.from(compact, 'base64');
}

/** Paths of remove_files, checked by the same rule. */
export function checkRemovals(paths: readonly string[], ignore: readonly string[]): string[] {
  return paths.map((p, i) => {
    if (typeof p !== 'string') throw new InvalidInputError(`remove_files[${i}] must be a path; nothing was written`);
    const problem = authoredPathProblem(p, ignore);
    if (problem) throw new UnsafePathError(`remove_files[${i}]: ${problem}; nothing was written`, { rule: 'path' });
    return p;
  });
}
