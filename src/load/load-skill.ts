/**
 * One skill folder found by the walk → a Skill, or the problems that keep it out. A skill is
 * judged on everything it holds: every file is read (or listed with why not) before SKILL.md
 * is parsed and validated.
 */
import path from 'node:path';
import type { Problem, Skill, SkillFile } from '../model/skill.ts';
import type { TokenCounts } from '../lib/token-counts.ts';
import { readFileFromDisk, skippedFile } from './read-file.ts';
import type { ValidationMode } from './validate.ts';
import { checkBody } from './body-checks.ts';
import { bodyPlaceholderProblem } from './placeholders.ts';
import { assembleSkill } from './assemble-skill.ts';
import { readSkillMarkdown } from './skill-markdown.ts';
import { SKILL_FILE, byCodeUnit, type FoundSkill } from './find-skills.ts';
import { limitText, sizeText } from '../lib/size-text.ts';

export interface SkillLoadOptions {
  mode: ValidationMode;
  maxFileBytes: number;
  registry: string;
  /** Seconds since the epoch; clamps `updated_at` so builds are reproducible. */
  sourceDateEpoch?: number;
  /** Token counts (of long bodies) kept between builds. */
  tokens?: TokenCounts;
}

export interface LoadResult {
  skill?: Skill;
  /** Line of `name:` in SKILL.md, for reporting duplicates. */
  nameLine?: number;
  problems: Problem[];
}

type Report = (p: Omit<Problem, 'skill'>) => void;

export async function loadSkill(found: FoundSkill, opts: SkillLoadOptions): Promise<LoadResult> {
  const problems: Problem[] = [];
  const at: Report = (p) => {
    problems.push({ skill: found.rel, ...p });
  };
  const { files, newest } = readFiles(found, opts.maxFileBytes, at);
  reportNested(found, at);

  const skillMd = files.find((f) => f.path === SKILL_FILE);
  if (!skillMd || skillMd.content === undefined || skillMd.encoding !== 'utf-8') {
    // A SKILL.md rejected by the walk (a link leaving the skill, a loop) was reported, as an error, with what happened.
    if (!found.rejects.some((r) => r.path === SKILL_FILE)) {
      at({
        severity: 'error',
        file: SKILL_FILE,
        rule: 'skill-md-readable',
        message: skillMd?.skipped
          ? `SKILL.md was not stored: ${skillMd.skipped.reason}`
          : 'SKILL.md must be UTF-8 text without NUL bytes: save it as UTF-8',
      });
    }
    return { problems };
  }

  const folderName = path.basename(found.abs);
  // Lenient mode reads what an agent client would: values with an unquoted ": " are repaired.
  const md = readSkillMarkdown(skillMd.content, {
    folderName,
    mode: opts.mode,
    repair: opts.mode === 'lenient',
  });
  for (const p of md.problems) at({ ...p, file: SKILL_FILE });
  if (!md.parsed) return { problems };
  // The body is checked even when the front matter keeps the skill out: every problem is reported at once.
  const { parsed } = md;
  for (const p of await checkBody(parsed, new Set(files.map((f) => f.path)), opts.tokens, folderName))
    at({ ...p, file: SKILL_FILE });
  const placeholder = bodyPlaceholderProblem(parsed, opts.mode === 'strict' ? 'error' : 'warning');
  if (placeholder) at({ ...placeholder, file: SKILL_FILE });

  if (!md.ok || problems.some((p) => p.severity === 'error')) return { problems };
  const epoch = opts.sourceDateEpoch;
  const updatedMs = epoch !== undefined ? Math.min(newest, epoch * 1000) : newest;
  const skill = assembleSkill({
    parsed,
    frontMatter: md.frontMatter,
    files,
    registry: opts.registry,
    source: { kind: 'local', dir: found.rel },
    health: { status: 'healthy' },
    updated_at: new Date(Math.floor(updatedMs / 1000) * 1000).toISOString(),
  });
  return { skill, problems, nameLine: parsed.fieldLines.name };
}

/** Every file of the skill, stored or listed with a skip reason, sorted by path; and the newest mtime. */
function readFiles(found: FoundSkill, maxFileBytes: number, at: Report): { files: SkillFile[]; newest: number } {
  let newest = 0;
  const files = found.files.map((rel): SkillFile => {
    const abs = found.targets.get(rel) ?? path.join(found.abs, ...rel.split('/'));
    const read = readFileFromDisk(abs, rel, maxFileBytes);
    if (read.kind === 'unreadable') {
      const reason = `file cannot be read (${read.code})`;
      at({ severity: 'warning', file: rel, rule: 'unreadable', message: reason });
      return skippedFile(rel, undefined, 0, reason);
    }
    newest = Math.max(newest, read.mtimeMs);
    if (read.kind === 'stored') {
      if (!isGitLfsPointer(read.file)) return read.file;
      at({
        severity: 'warning',
        file: rel,
        rule: 'git-lfs-pointer',
        message: `file is a Git LFS pointer (${read.file.size} bytes), not the file it stands for; it is published as it is, as text/plain: run \`git lfs pull\` before building`,
      });
      // Its bytes are text, whatever its name says: the site shows them, MCP serves them, as text.
      return { ...read.file, mime: 'text/plain' };
    }
    const reason = `file is ${sizeText(read.size)}, over ${limitText(maxFileBytes, 'skills.max_file_bytes')}`;
    at({
      severity: 'warning',
      file: rel,
      rule: 'file-too-large',
      message: `${reason}; it is listed but not stored: shrink it, move it out of the skill, or raise skills.max_file_bytes`,
    });
    return skippedFile(rel, read.sha256, read.size, reason);
  });
  for (const r of found.rejects) {
    // SKILL.md is required: whatever kept it from being read keeps the skill out.
    const severity = r.path === SKILL_FILE ? 'error' : r.severity;
    at({ severity, file: r.path, rule: r.rule, message: r.reason });
    if (r.listed) files.push(skippedFile(r.path, undefined, 0, r.reason));
  }
  return { files: files.sort((a, b) => byCodeUnit(a.path, b.path)), newest };
}

/** A clone without `git lfs pull` holds small text stubs in place of the real files (spec: git-lfs docs/spec.md). */
function isGitLfsPointer(file: SkillFile): boolean {
  return (
    file.encoding === 'utf-8' &&
    file.size < 1024 &&
    file.content!.startsWith('version https://git-lfs.github.com/spec/v1\n') &&
    /^oid sha256:[0-9a-f]{64}$/m.test(file.content!)
  );
}

function reportNested(found: FoundSkill, at: Report): void {
  for (const nested of found.nestedSkills) {
    at({
      severity: 'warning',
      file: `${nested}/${SKILL_FILE}`,
      rule: 'nested-skill',
      message: `"${nested}" holds its own SKILL.md, so it is a separate skill and its files are not part of this one: move it out, or rename its SKILL.md if it belongs to this skill`,
    });
  }
}
