/**
 * Enabled and disabled skills. A skill is disabled by the config (`skills.disabled`: names or
 * globs) or by itself (`metadata.enabled: "false"`). A disabled skill stays in Elasticsearch with
 * `is_enabled: false` and is left out of everything published (feed, site, discovery, MCP).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidInputError, errorMessage } from '../lib/errors.ts';
import type { Skill } from '../model/skill.ts';
import type { BundleConfig } from '../model/config.ts';

/** `*` matches any characters; everything else is literal. */
function globRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/** The rule of `skills.disabled` that disables `name`, if one does. */
export function disabledBy(name: string, disabled: readonly string[]): string | undefined {
  return disabled.find((rule) => (rule.includes('*') ? globRegExp(rule).test(name) : rule === name));
}

/** What in the config disables a skill, and how to enable it again. */
export interface ConfigDisables {
  /** `skills.disabled: "legacy-*"`, or `bundle "legacy" (enabled: false)`. */
  by: string;
  /** `skillpress enable x`, or the edit of the config that enables it. */
  enable: string;
}

/** What in the config (`skills.disabled`, a bundle with `enabled: false`) disables the skill, if anything does. */
export function configDisables(
  skill: Skill,
  config: { skills: { disabled: readonly string[] }; bundles: Readonly<Record<string, BundleConfig>> },
): ConfigDisables | undefined {
  const rule = disabledBy(skill.id, config.skills.disabled);
  if (rule !== undefined)
    return {
      by: `skills.disabled: "${rule}"`,
      // enable removes a name; a glob is the config's to edit.
      enable: rule === skill.id ? `skillpress enable ${skill.id}` : `remove "${rule}" from skills.disabled`,
    };
  for (const [name, b] of Object.entries(config.bundles))
    if (!b.enabled && bundleMembers(b, [skill]).length > 0)
      return { by: `bundle "${name}" (enabled: false)`, enable: `set bundles.${name}.enabled to true` };
  return undefined;
}

/** False when the skill says `metadata.enabled: "false"` (or `enabled: false` at the top level). */
function enabledInSkill(skill: Skill): boolean {
  const metadata = skill.frontmatter.metadata as Record<string, unknown> | undefined;
  const value = metadata?.enabled ?? skill.frontmatter.enabled;
  return !(value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false'));
}

/**
 * The skills with `is_enabled` set from `skills.disabled` and each skill's `metadata.enabled`.
 *
 * @example
 * ```ts
 * import { loadCatalog } from 'skillpress';
 * import { markEnabled } from 'skillpress/internal';
 * const catalog = await loadCatalog('skills');
 * const skills = markEnabled(catalog.skills, ['legacy-*']);
 * console.log(skills.filter((s) => s.is_enabled === false).map((s) => s.id));
 * ```
 */
export function markEnabled(skills: readonly Skill[], disabled: readonly string[]): Skill[] {
  return skills.map((s) => ({ ...s, is_enabled: enabledInSkill(s) && disabledBy(s.id, disabled) === undefined }));
}

export interface SetEnabledResult {
  file: string;
  changed: boolean;
  disabled: string[];
  /** Enabling: a glob of `skills.disabled` that still disables the name. */
  stillDisabledBy?: string;
}

/**
 * Enable or disable a skill by name in `<configDir>/skillpress.json` (`skills.disabled`),
 * keeping every other field of the file as it is. Creates the file when there is none.
 *
 * @example
 * ```ts
 * import { setSkillEnabled } from 'skillpress';
 * await setSkillEnabled('config', 'old-skill', false); // adds "old-skill" to skills.disabled
 * ```
 */
export async function setSkillEnabled(configDir: string, name: string, enabled: boolean): Promise<SetEnabledResult> {
  const file = path.join(configDir, 'skillpress.json');
  const raw = await readFile(file, 'utf8').catch(() => undefined);
  let data: Record<string, unknown>;
  try {
    data = raw === undefined ? {} : (JSON.parse(raw) as Record<string, unknown>);
  } catch (err) {
    throw new InvalidInputError(`${file}: not valid JSON (${errorMessage(err)}); nothing was changed`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new InvalidInputError(`${file}: expected a JSON object; nothing was changed`);
  const skills = (typeof data.skills === 'object' && data.skills !== null ? data.skills : {}) as Record<
    string,
    unknown
  >;
  const before = Array.isArray(skills.disabled) ? skills.disabled.map(String) : [];
  const disabled = enabled ? before.filter((n) => n !== name) : before.includes(name) ? before : [...before, name];
  const changed = disabled.length !== before.length;
  if (changed) {
    // An emptied list goes, and with it a `skills` object left with nothing: the file reads as before the disable.
    const { disabled: _, ...rest } = skills;
    const next = disabled.length > 0 ? { ...rest, disabled } : rest;
    if (Object.keys(next).length > 0) data.skills = next;
    else delete data.skills;
    await mkdir(configDir, { recursive: true });
    const indent = /^\{\n( +|\t)/.exec(raw ?? '')?.[1] ?? 2;
    await writeFile(file, `${JSON.stringify(data, null, indent)}\n`);
  }
  const stillDisabledBy = enabled ? disabledBy(name, disabled) : undefined;
  return { file, changed, disabled, ...(stillDisabledBy ? { stillDisabledBy } : {}) };
}

/** A bundle's members among `skills`: ids matched by name or glob, or carrying one of its tags. */
export function bundleMembers(bundle: BundleConfig, skills: readonly Skill[]): string[] {
  const tags = new Set(bundle.tags.map((t) => t.toLowerCase()));
  return skills
    .filter((s) => disabledBy(s.id, bundle.skills) !== undefined || s.registry_fields.tags.some((t) => tags.has(t)))
    .map((s) => s.id)
    .sort();
}

/** `skills.disabled` plus the members of every bundle with `enabled: false`. */
export function disabledNames(
  disabled: readonly string[],
  bundles: Readonly<Record<string, BundleConfig>>,
  skills: readonly Skill[],
): string[] {
  const off = Object.values(bundles).filter((b) => !b.enabled);
  return [...disabled, ...off.flatMap((b) => bundleMembers(b, skills))];
}

/** The enabled bundles as the feed index publishes them: members among the published skills. */
export function publishedBundles(
  bundles: Readonly<Record<string, BundleConfig>>,
  published: readonly Skill[],
): Array<{ name: string; description?: string; skills: string[] }> {
  return Object.entries(bundles)
    .filter(([, b]) => b.enabled)
    .map(([name, b]) => ({
      name,
      ...(b.description ? { description: b.description } : {}),
      skills: bundleMembers(b, published),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
