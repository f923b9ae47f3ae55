/**
 * The walk of the skills folder: which folders are skills, and which entries each one holds.
 *
 * - A folder holding `SKILL.md` is a skill, at any depth up to `maxDepth` (category folders
 *   such as `skills/finance/refund-approval/` are fine); one deeper is reported (`max-depth`).
 * - A skill folder nested inside another skill is its own skill; its files do not belong to
 *   the outer skill (the outer skill gets a warning so the layout is a deliberate choice).
 * - Every entry under a skill is a file to read, or a reject with its rule and reason: a name
 *   that cannot be published (`path-unpublishable`, the one rule of src/lib/paths.ts), a name
 *   that is not UTF-8, a device, pipe or socket, a symlink that is broken, loops, or leaves the
 *   skill. A symlink is followed only to a file of its own skill, never into a nested skill:
 *   links are classified once the whole walk is done, when every nested skill is known.
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Problem, Severity } from '../model/skill.ts';
import type { IgnoreMatcher } from '../lib/ignore.ts';
import { isInsideDir } from '../lib/fs.ts';
import { FEED_PATH, STAGING_MARK, STATE_DIR } from '../lib/layout.ts';
import { pathProblem, quotePath } from '../lib/paths.ts';
import { errorMessage } from '../lib/errors.ts';

export const SKILL_FILE = 'SKILL.md';

/** An entry of a skill that is reported instead of read. */
export interface Reject {
  path: string;
  reason: string;
  severity: Severity;
  rule: string;
  /** Listed in the skill's files with the reason (true), or only reported (false: its name or target must not be published). */
  listed: boolean;
}

export interface FoundSkill {
  /** Absolute path of the skill folder. */
  abs: string;
  /** Path relative to the root, `/`-separated (`.` when the root itself is a skill). */
  rel: string;
  /** Regular files (and symlinks to them), relative to the skill folder, `/`-separated. */
  files: string[];
  /** Where a file that is a symlink is read from: its resolved target. */
  targets: Map<string, string>;
  /** Symlinks not yet classified. */
  links: string[];
  rejects: Reject[];
  /** Skill folders inside this one, relative to it. */
  nestedSkills: string[];
  /** Folder levels below the root. */
  depth: number;
}

export interface FindOptions {
  ignore: IgnoreMatcher;
  maxDepth: number;
}

/** What stays the same through the whole walk of the skills folder. */
interface Walk extends FindOptions {
  absRoot: string;
  found: FoundSkill[];
  problems: Problem[];
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

// Code-unit order, not localeCompare: the same on every machine whatever its locale.
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every skill folder under `absRoot` (sorted by path), with its entries; problems outside any skill go to `problems`. */
export async function findSkills(absRoot: string, options: FindOptions, problems: Problem[]): Promise<FoundSkill[]> {
  const walk: Walk = { ...options, absRoot, found: [], problems };
  walkFolder(walk, absRoot, 0, undefined);
  for (const skill of walk.found) await classifyLinks(skill);
  return walk.found.sort((a, b) => byCodeUnit(a.rel, b.rel));
}

/**
 * A build's output folder (or its staging folder) inside the skills folder, as `dist/` is when the
 * skills sit at a repository's top: it holds copies of the skills (and imported ones), never skills.
 */
const isBuildOutput = (dir: string): boolean =>
  existsSync(path.join(dir, FEED_PATH, 'index.json')) || existsSync(path.join(dir, STAGING_MARK));

/** Whether a symbolic link leads to a folder (a dangling link does not). */
function linksToFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why the walk does not go into the folder `dir` (called `name`) outside any skill, or undefined
 * when it does: an ignored name, skillpress's own state (its version store holds copies) or a
 * build's output. Exported so that create_skill's `folder` is refused by the same rule.
 */
export function folderNotWalked(ignore: IgnoreMatcher, dir: string, name: string): string | undefined {
  if (ignore.dir(name)) return 'a name the loader ignores (skills.ignore)';
  if (name === STATE_DIR) return `skillpress's state folder (${STATE_DIR}), where the loader never looks for skills`;
  if (isBuildOutput(dir)) return "a build's output folder, where the loader never looks for skills";
  return undefined;
}

function walkFolder(walk: Walk, dir: string, depth: number, owner: FoundSkill | undefined): void {
  const listing = readFolder(walk, dir, owner);
  if (!listing) return;
  const current = skillHere(walk, dir, depth, owner, listing.entries);
  if (current === null) return;
  // This folder's path inside its skill, computed once: per-file path.relative is a hot spot with 50,000 files.
  const relDir = current ? toPosix(path.relative(current.abs, dir)) : '';
  for (const bad of listing.undecodable) rejectName(walk, current, dir, relDir, bad);
  for (const entry of listing.entries) {
    const abs = path.join(dir, entry.name);
    if (!current) {
      if (entry.isDirectory()) {
        if (folderNotWalked(walk.ignore, abs, entry.name) === undefined) walkFolder(walk, abs, depth + 1, undefined);
      } else if (entry.isSymbolicLink() && !walk.ignore.dir(entry.name) && linksToFolder(abs)) {
        // Outside any skill a link to a folder is not followed: it could lead anywhere, or loop.
        // A link to a file (AGENTS.md -> CLAUDE.md) is no skill and says nothing.
        walk.problems.push({
          severity: 'warning',
          skill: toPosix(path.relative(walk.absRoot, abs)),
          rule: 'symlink-not-followed',
          message:
            'symlink to a folder outside any skill folder is not followed: if it holds skills, move or copy them into the skills folder',
        });
      }
      continue;
    }
    if (entry.isDirectory() ? walk.ignore.dir(entry.name) : walk.ignore.file(entry.name)) continue;
    const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
    const problem = pathProblem(rel);
    if (problem !== undefined) {
      const what = entry.isDirectory() ? 'folder' : 'file';
      current.rejects.push({
        path: rel,
        severity: 'warning',
        rule: 'path-unpublishable',
        listed: false,
        reason: `${what} path ${quotePath(rel)} ${problem}, so it cannot be published${what === 'folder' ? ' (nor any file in it)' : ''}: rename it`,
      });
    } else if (entry.isDirectory()) walkFolder(walk, abs, depth + 1, current);
    else if (entry.isFile()) current.files.push(rel);
    else if (entry.isSymbolicLink()) current.links.push(rel);
    else
      current.rejects.push({
        path: rel,
        reason: 'not a regular file (device, socket or pipe): remove it from the skill',
        severity: 'warning',
        rule: 'special-file',
        listed: true,
      });
  }
}

/**
 * The skill this folder belongs to: a new one when it holds SKILL.md, else its owner's
 * (undefined outside any skill); null when it holds a skill deeper than `maxDepth`, which is
 * reported and not walked.
 */
function skillHere(
  walk: Walk,
  dir: string,
  depth: number,
  owner: FoundSkill | undefined,
  entries: Dirent[],
): FoundSkill | undefined | null {
  const rel = toPosix(path.relative(walk.absRoot, dir)) || '.';
  if (entries.some((e) => e.name === SKILL_FILE && (e.isFile() || e.isSymbolicLink()))) {
    // max_depth bounds the search for skills; inside a skill every folder is read.
    if (!owner && depth > walk.maxDepth) {
      walk.problems.push({
        severity: 'warning',
        skill: rel,
        file: SKILL_FILE,
        rule: 'max-depth',
        message: `skill folder is ${depth} levels below the skills folder, deeper than skills.max_depth (${walk.maxDepth}), so it was not loaded: move it up or raise skills.max_depth`,
      });
      return null;
    }
    const skill: FoundSkill = {
      abs: dir,
      rel,
      files: [],
      targets: new Map(),
      links: [],
      rejects: [],
      nestedSkills: [],
      depth,
    };
    if (owner) owner.nestedSkills.push(toPosix(path.relative(owner.abs, dir)));
    walk.found.push(skill);
    return skill;
  }
  const lookalike = owner ? undefined : entries.find((e) => e.name.toLowerCase() === 'skill.md' && e.isFile());
  if (lookalike) {
    walk.problems.push({
      severity: 'error',
      skill: rel,
      file: lookalike.name,
      rule: 'skill-md-name',
      message: `found "${lookalike.name}" but the file must be named exactly "SKILL.md": rename it`,
    });
  }
  return owner;
}

interface Listing {
  /** Entries whose names are UTF-8, sorted by name. */
  entries: Dirent[];
  /** Names that are not UTF-8, shown with `\xNN` for their undecodable bytes. */
  undecodable: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A folder's entries; undefined (and reported) when it cannot be read. */
function readFolder(walk: Walk, dir: string, owner: FoundSkill | undefined): Listing | undefined {
  try {
    let entries = readdirSync(dir, { withFileTypes: true });
    const undecodable: string[] = [];
    // Node decodes a name that is not UTF-8 with U+FFFD, so two such names can look the same
    // and neither can be opened: read the raw bytes to tell them apart and report each.
    if (entries.some((e) => e.name.includes('\uFFFD'))) {
      entries = [];
      for (const raw of readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
        const name = decodeName(raw.name);
        if (name === undefined) undecodable.push(escapeBytes(raw.name));
        else entries.push(Object.assign(raw, { name }));
      }
    }
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    return { entries, undecodable: undecodable.sort(byCodeUnit) };
  } catch (err) {
    const rel = toPosix(path.relative(owner?.abs ?? walk.absRoot, dir)) || '.';
    const reason = `folder cannot be read (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})`;
    if (owner) owner.rejects.push({ path: rel, reason, severity: 'warning', rule: 'unreadable', listed: true });
    else walk.problems.push({ severity: 'warning', skill: rel, rule: 'unreadable', message: reason });
    return undefined;
  }
}

function decodeName(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A name that is not UTF-8, printable: ASCII as is, every other byte as `\xNN`. */
function escapeBytes(bytes: Buffer): string {
  let out = '';
  for (const b of bytes)
    out += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return out;
}

function rejectName(walk: Walk, skill: FoundSkill | undefined, dir: string, relDir: string, shown: string): void {
  const reason = `name is not valid UTF-8, so it cannot be published (it is shown with \\x escapes for its other bytes): rename it`;
  if (skill)
    skill.rejects.push({
      path: relDir === '' ? shown : `${relDir}/${shown}`,
      reason,
      severity: 'warning',
      rule: 'name-not-utf8',
      listed: false,
    });
  else
    walk.problems.push({
      severity: 'warning',
      skill: toPosix(path.join(path.relative(walk.absRoot, dir), shown)),
      rule: 'name-not-utf8',
      message: `${reason}; skills inside it are not loaded`,
    });
}

/** ` to "../other/SKILL.md"`: where a link points, as it is written (its target is never read); '' when it cannot be read. */
async function linkText(abs: string): Promise<string> {
  const to = await readlink(abs).catch(() => undefined);
  return to === undefined ? '' : ` to ${quotePath(to)}`;
}

/**
 * A symlink is stored as the file it points to when that file is inside its own skill and
 * not inside a skill nested in it; anything else is reported with what happened.
 */
async function classifyLinks(skill: FoundSkill): Promise<void> {
  if (skill.links.length === 0) return;
  const real = await realpath(skill.abs);
  // The walk never follows links, so a nested skill's real path is the skill's plus its relative path.
  const nested = skill.nestedSkills.map((n) => ({ rel: n, real: path.join(real, ...n.split('/')) }));
  const reject = (rel: string, severity: Severity, rule: string, reason: string, listed = true): void => {
    skill.rejects.push({ path: rel, severity, rule, reason, listed });
  };
  for (const rel of skill.links) {
    let target: string;
    try {
      target = await realpath(path.join(skill.abs, ...rel.split('/')));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP')
        reject(
          rel,
          'warning',
          'symlink-loop',
          'symlink loop: the link leads back to itself through other links, so it has no target: remove it',
        );
      else if (code === 'ENOENT' || code === 'ENOTDIR')
        reject(
          rel,
          'warning',
          'symlink-broken',
          'symlink is broken (its target does not exist): remove it or fix its target',
        );
      else reject(rel, 'warning', 'unreadable', `symlink cannot be followed (${code ?? errorMessage(err)})`);
      continue;
    }
    if (!isInsideDir(target, real)) {
      const to = await linkText(path.join(skill.abs, ...rel.split('/')));
      reject(
        rel,
        'error',
        'symlink-escape',
        `symlink${to} leaves the skill folder, so its target was not read: put a copy of the file inside the skill instead`,
        false,
      );
      continue;
    }
    const into = nested.find((n) => isInsideDir(target, n.real));
    if (into) {
      reject(
        rel,
        'error',
        'symlink-escape',
        `symlink points into "${into.rel}", a separate skill nested in this one, so its target was not read: a link may only lead to this skill's own files`,
        false,
      );
      continue;
    }
    const st = await stat(target).catch((err: NodeJS.ErrnoException) => err);
    if (st instanceof Error)
      reject(rel, 'warning', 'unreadable', `symlink target cannot be read (${st.code ?? st.message})`);
    else if (st.isFile()) {
      skill.files.push(rel);
      skill.targets.set(rel, target);
    } else if (st.isDirectory())
      reject(
        rel,
        'warning',
        'symlink-folder',
        'symlink to a folder inside the skill is not followed (its files are stored where they are): remove the link',
      );
    else
      reject(
        rel,
        'warning',
        'special-file',
        'symlink to a device, socket or pipe, not a regular file: remove it from the skill',
      );
  }
}
