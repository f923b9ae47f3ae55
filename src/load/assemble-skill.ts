/**
 * The one place a Skill is put together from a parsed, validated SKILL.md and its files —
 * for local folders, peer feeds and SKILL.md URLs alike, so every source yields the same model.
 */
import type { Health, Skill, SkillFile, SkillSource } from '../model/skill.ts';
import type { ParsedSkillMarkdown } from './frontmatter.ts';
import { skillDigest } from './read-file.ts';
import type { ValidatedFrontMatter } from './validate.ts';

/** Validated front matter whose name and description are known to be present. */
export type LoadableFrontMatter = ValidatedFrontMatter & { name: string; description: string };

export interface SkillParts {
  parsed: ParsedSkillMarkdown;
  frontMatter: LoadableFrontMatter;
  files: SkillFile[];
  registry: string;
  source: SkillSource;
  health: Health;
  updated_at: string;
  /** Defaults to the digest of the stored files. */
  digest?: string;
}

export function assembleSkill(parts: SkillParts): Skill {
  const { parsed, frontMatter: fm } = parts;
  return {
    id: fm.name,
    name: fm.name,
    ...(fm.title !== undefined ? { title: fm.title } : {}),
    description: fm.description,
    frontmatter: parsed.data,
    license: fm.license,
    compatibility: fm.compatibility,
    allowed_tools: fm.allowedTools,
    registry_fields: fm.registry,
    body: parsed.body,
    body_line: parsed.bodyLine,
    files: parts.files,
    digest: parts.digest ?? skillDigest(parts.files.filter((f) => !f.skipped)),
    registry: parts.registry,
    source: parts.source,
    health: parts.health,
    updated_at: parts.updated_at,
  };
}

/** Narrow validated front matter to the loadable case (name and description present). */
export function isLoadable(fm: ValidatedFrontMatter): fm is LoadableFrontMatter {
  return fm.name !== undefined && fm.description !== undefined;
}
