/**
 * loadCatalog: walk a folder of skills and return the typed Catalog.
 *
 * - A folder holding `SKILL.md` is a skill, at any depth up to `maxDepth` (category folders
 *   such as `skills/finance/refund-approval/` are fine).
 * - A skill folder nested inside another skill is its own skill; its files do not belong to
 *   the outer skill (the outer skill gets a warning so the layout is a deliberate choice).
 * - Every regular file under a skill is stored, listed with a skip reason, or ignored by rule.
 * - A symlink is followed only if it resolves inside its skill folder; one that leaves it is an
 *   error and its target is never read.
 */
import { readdirSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog, Problem, Skill, SkillFile } from '../model/skill.ts';
import { MIB } from '../model/config.ts';
import { DEFAULT_IGNORE, ignoreMatcher, type IgnoreMatcher } from '../lib/ignore.ts';
import { parseSkillMarkdown } from './frontmatter.ts';
import { readFileFromDisk, skippedFile } from './read-file.ts';
import { validateFrontMatter, type ValidationMode } from './validate.ts';
import { checkBody } from './body-checks.ts';
import { pMap } from '../lib/p-map.ts';
import { assembleSkill, isLoadable } from './assemble-skill.ts';

export interface LoadOptions {
  mode?: ValidationMode;
  ignore?: readonly string[];
  maxFileBytes?: number;
  maxDepth?: number;
  /** Registry name given to local skills. */
  registry?: string;
  /** Seconds since the epoch; clamps `updated_at` so builds are reproducible. */
  sourceDateEpoch?: number;
}

interface FoundSkill {
  /** Absolute path of the skill folder. */
  abs: string;
  /** Path relative to the root, `/`-separated (`.` when the root itself is a skill). */
  rel: string;
  skillMd: string;
  /** Paths relative to the skill folder, `/`-separated. */
  files: string[];
  /** Symlinks and other entries that cannot be stored, with why. */
  rejects: Array<{ path: string; reason: string; severity: 'error' | 'warning'; rule: string }>;
  nestedSkills: string[];
  /** realpath of `abs`, resolved once for the first symlink in the skill. */
  realAbs?: string;
}

const SKILL_FILE = 'SKILL.md';

const toPosix = (p: string): string => p.split(path.sep).join('/');

// Code-unit order, not localeCompare: the same on every machine whatever its locale.
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function loadCatalog(root: string, options: LoadOptions = {}): Promise<Catalog> {
  const opts = {
    mode: options.mode ?? 'lenient',
    ignore: ignoreMatcher(options.ignore ?? DEFAULT_IGNORE),
    maxFileBytes: options.maxFileBytes ?? MIB,
    maxDepth: options.maxDepth ?? 8,
    registry: options.registry ?? 'local',
    sourceDateEpoch: options.sourceDateEpoch,
  };
  const absRoot = path.resolve(root);
  const problems: Problem[] = [];
  const rootStat = await stat(absRoot).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    problems.push({ severity: 'error', skill: '.', rule: 'root-missing', message: `skills folder "${root}" does not exist or is not a folder` });
    return { skills: [], problems };
  }

  const found: FoundSkill[] = [];
  await findSkills({ absRoot, ignore: opts.ignore, maxDepth: opts.maxDepth, found, problems }, absRoot, 0, undefined);
  found.sort((a, b) => byCodeUnit(a.rel, b.rel));
  if (found.length === 0 && problems.length === 0) {
    problems.push({ severity: 'error', skill: '.', rule: 'no-skills', message: `no SKILL.md found in "${root}" or its sub-folders: a skill is a folder holding a SKILL.md file` });
  }

  const loaded = await pMap(found, (f) => loadSkill(f, opts), 16);
  const skills: Array<{ skill: Skill; nameLine?: number }> = [];
  for (const result of loaded) {
    problems.push(...result.problems);
    if (result.skill) skills.push({ skill: result.skill, nameLine: result.nameLine });
  }

  // Duplicate names: the first folder (in path order) keeps the name; the others are errors.
  const seen = new Map<string, string>();
  const unique: Skill[] = [];
  for (const { skill, nameLine } of skills) {
    const dir = skill.source.kind === 'local' ? skill.source.dir : skill.id;
    const first = seen.get(skill.name);
    if (first !== undefined) {
      problems.push({
        severity: 'error',
        skill: dir,
        file: SKILL_FILE,
        line: nameLine,
        field: 'name',
        rule: 'name-unique',
        message: `name "${skill.name}" is already used by the skill in "${first}": names must be unique in a catalog, so this one is left out; rename one of them (and its folder)`,
      });
      continue;
    }
    seen.set(skill.name, dir);
    unique.push(skill);
  }
  return { skills: unique, problems: sortProblems(problems) };
}

export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => byCodeUnit(a.skill, b.skill) || byCodeUnit(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
}

/** What stays the same through the whole walk of the skills folder. */
interface Walk {
  absRoot: string;
  ignore: IgnoreMatcher;
  maxDepth: number;
  /** Skill folders found so far. */
  found: FoundSkill[];
  problems: Problem[];
}

async function findSkills(walk: Walk, dir: string, depth: number, owner: FoundSkill | undefined): Promise<void> {
  const { absRoot, ignore, maxDepth, problems } = walk;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const rel = toPosix(path.relative(owner?.abs ?? absRoot, dir)) || '.';
    const reason = `folder cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
    if (owner) owner.rejects.push({ path: rel, reason, severity: 'warning', rule: 'unreadable' });
    else problems.push({ severity: 'warning', skill: rel, rule: 'unreadable', message: reason });
    return;
  }
  let current = owner;
  if (entries.some((e) => e.name === SKILL_FILE && (e.isFile() || e.isSymbolicLink()))) {
    const rel = toPosix(path.relative(absRoot, dir)) || '.';
    const skill: FoundSkill = { abs: dir, rel, skillMd: path.join(dir, SKILL_FILE), files: [], rejects: [], nestedSkills: [] };
    if (owner) owner.nestedSkills.push(toPosix(path.relative(owner.abs, dir)));
    walk.found.push(skill);
    current = skill;
  } else if (!owner && entries.some((e) => e.name.toLowerCase() === 'skill.md' && e.isFile())) {
    const rel = toPosix(path.relative(absRoot, dir)) || '.';
    const actual = entries.find((e) => e.name.toLowerCase() === 'skill.md')!.name;
    problems.push({
      severity: 'error',
      skill: rel,
      file: actual,
      rule: 'skill-md-name',
      message: `found "${actual}" but the file must be named exactly "SKILL.md": rename it`,
    });
  }
  entries.sort((a, b) => byCodeUnit(a.name, b.name));
  // This folder's path inside its skill, computed once: per-file path.relative is a hot spot with 50,000 files.
  const relDir = current ? toPosix(path.relative(current.abs, dir)) : '';
  for (const entry of entries) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (ignore.dir(entry.name)) continue;
      // max_depth bounds the search for skills; inside a skill every folder is read.
      if (!current && depth + 1 > maxDepth) continue;
      await findSkills(walk, abs, depth + 1, current);
    } else if (current) {
      if (ignore.file(entry.name)) continue;
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isFile()) current.files.push(rel);
      else if (entry.isSymbolicLink()) await classifySymlink(current, abs, rel);
      else current.rejects.push({ path: rel, reason: 'not a regular file (device, socket or pipe): remove it from the skill', severity: 'warning', rule: 'special-file' });
    } else if (entry.isSymbolicLink() && !ignore.dir(entry.name)) {
      // Outside any skill a link is not followed: it could lead anywhere, or loop.
      problems.push({
        severity: 'warning',
        skill: toPosix(path.relative(absRoot, abs)),
        rule: 'symlink-not-followed',
        message: 'symlink outside any skill folder is not followed: move or copy the skill into the skills folder',
      });
    }
  }
}

/** A symlink inside the skill is stored as the file it points to; one leaving the skill is an error. */
async function classifySymlink(skill: FoundSkill, abs: string, rel: string): Promise<void> {
  const skillReal = (skill.realAbs ??= await realpath(skill.abs));
  const target = await realpath(abs).catch(() => undefined);
  if (target === undefined) {
    skill.rejects.push({ path: rel, reason: 'symlink is broken (its target does not exist): remove it or fix its target', severity: 'warning', rule: 'symlink-broken' });
    return;
  }
  const inside = target === skillReal || target.startsWith(skillReal + path.sep);
  if (!inside) {
    skill.rejects.push({ path: rel, reason: 'symlink leaves the skill folder, so its target was not read: put a copy of the file inside the skill instead', severity: 'error', rule: 'symlink-escape' });
    return;
  }
  const st = await stat(target);
  if (st.isFile()) skill.files.push(rel);
  else skill.rejects.push({ path: rel, reason: 'symlink to a folder inside the skill is not followed (its files are stored where they are): remove the link', severity: 'warning', rule: 'symlink-folder' });
}

interface LoadResult {
  skill?: Skill;
  /** Line of `name:` in SKILL.md, for reporting duplicates. */
  nameLine?: number;
  problems: Problem[];
}

async function loadSkill(
  found: FoundSkill,
  opts: { mode: ValidationMode; maxFileBytes: number; registry: string; sourceDateEpoch?: number },
): Promise<LoadResult> {
  const problems: Problem[] = [];
  const at = (p: Omit<Problem, 'skill'>): void => {
    problems.push({ skill: found.rel, ...p });
  };
  const folderName = path.basename(found.abs);

  // Files first: a skill is judged on everything it holds.
  found.files.sort();
  let newest = 0;
  const files = found.files.map((rel): SkillFile => {
    const read = readFileFromDisk(path.join(found.abs, rel), rel, opts.maxFileBytes);
    if (read.kind === 'unreadable') {
      const reason = `file cannot be read (${read.code})`;
      at({ severity: 'warning', file: rel, rule: 'unreadable', message: reason });
      return skippedFile(rel, undefined, 0, reason);
    }
    newest = Math.max(newest, read.mtimeMs);
    if (read.kind === 'stored') return read.file;
    const reason = `file is ${read.size} bytes, over the ${opts.maxFileBytes}-byte limit (skills.max_file_bytes)`;
    at({ severity: 'warning', file: rel, rule: 'file-too-large', message: `${reason}; it is listed but not stored: shrink it, move it out of the skill, or raise skills.max_file_bytes` });
    return skippedFile(rel, read.sha256, read.size, reason);
  });
  for (const r of found.rejects) {
    at({ severity: r.severity, file: r.path, rule: r.rule, message: r.reason });
    if (r.rule !== 'symlink-escape') files.push(skippedFile(r.path, undefined, 0, r.reason));
  }
  files.sort((a, b) => byCodeUnit(a.path, b.path));
  for (const nested of found.nestedSkills) {
    at({
      severity: 'warning',
      file: `${nested}/${SKILL_FILE}`,
      rule: 'nested-skill',
      message: `"${nested}" holds its own SKILL.md, so it is a separate skill and its files are not part of this one: move it out, or rename its SKILL.md if it belongs to this skill`,
    });
  }

  const skillMdFile = files.find((f) => f.path === SKILL_FILE);
  if (!skillMdFile || skillMdFile.content === undefined || skillMdFile.encoding !== 'utf-8') {
    at({
      severity: 'error',
      file: SKILL_FILE,
      rule: 'skill-md-readable',
      message: skillMdFile?.skipped ? `SKILL.md was not stored: ${skillMdFile.skipped.reason}` : 'SKILL.md must be UTF-8 text without NUL bytes: save it as UTF-8',
    });
    return { problems };
  }

  // Lenient mode reads what an agent client would: values with an unquoted ": " are repaired.
  const parsed = parseSkillMarkdown(skillMdFile.content, { repair: opts.mode === 'lenient' });
  if (!parsed.ok) {
    at({ severity: 'error', file: SKILL_FILE, line: parsed.line, rule: parsed.rule, message: parsed.message });
    return { problems };
  }
  for (const r of parsed.repairs) at({ severity: 'warning', file: SKILL_FILE, line: r.line, field: r.field, rule: 'frontmatter-yaml-repaired', message: r.message });
  const fm = validateFrontMatter(parsed.data, { folderName, mode: opts.mode, sourceText: parsed.sourceText });
  const lineOf = (field: string | undefined): number | undefined => (field === undefined ? undefined : (parsed.fieldLines[field] ?? parsed.fieldLines[field.split('.')[0]!]));
  for (const p of fm.problems) at({ ...p, file: SKILL_FILE, line: lineOf(p.field) });
  for (const p of await checkBody(parsed, new Set(files.map((f) => f.path)))) at({ ...p, file: SKILL_FILE });

  if (problems.some((p) => p.severity === 'error') || !isLoadable(fm)) {
    return { problems };
  }
  const epoch = opts.sourceDateEpoch;
  const updatedMs = epoch !== undefined ? Math.min(newest, epoch * 1000) : newest;
  const skill = assembleSkill({
    parsed,
    frontMatter: fm,
    files,
    registry: opts.registry,
    source: { kind: 'local', dir: found.rel },
    health: { status: 'healthy' },
    updated_at: new Date(Math.floor(updatedMs / 1000) * 1000).toISOString(),
  });
  return { skill, problems, nameLine: parsed.fieldLines.name };
}
