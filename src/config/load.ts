/** Read `config/skillpress.json` (optional) and validate it against the zod schema (src/model/config.ts). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadOptions } from '../load/index.ts';
import { SkillpressConfig } from '../model/config.ts';
import { InvalidInputError, UsageError } from '../lib/errors.ts';
import { describeIssues, parseJson } from '../lib/json.ts';

/**
 * Read `<configDir>/skillpress.json` and validate it (defaults filled in); no file gives the
 * defaults. A file that breaks a rule is a {@link UsageError} naming the file, the field and the rule.
 *
 * @example
 * ```ts
 * import { build, loadConfig } from 'skillpress';
 * const config = await loadConfig('config');
 * config.site.base = '/skills/';
 * await build({ config, out: 'dist' });
 * ```
 */
export async function loadConfig(configDir = 'config'): Promise<SkillpressConfig> {
  const file = path.join(configDir, 'skillpress.json');
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return SkillpressConfig.parse({});
  }
  try {
    return parseJson(raw, SkillpressConfig, file);
  } catch (err) {
    // A config that breaks a rule is a usage problem (exit 2), with the file, field and rule named.
    if (err instanceof InvalidInputError) throw new UsageError(err.message, { cause: err, rule: err.rule });
    throw err;
  }
}

/**
 * The config a library call was given: a config folder (read with `loadConfig`), or an object —
 * whole or partial, as `{ registry: { name: 'acme' } }` — checked against the schema and
 * completed with the defaults. A wrong field is a UsageError naming it, never a TypeError later.
 */
export async function resolveConfig(config: string | object | undefined): Promise<SkillpressConfig> {
  if (config === undefined || typeof config === 'string') return loadConfig(config);
  const parsed = SkillpressConfig.safeParse(config);
  if (!parsed.success) throw new UsageError(`config: ${describeIssues(parsed.error.issues)}`, { rule: 'schema' });
  return parsed.data;
}

/** The loader options `config.skills` sets, the same for every command that reads the skills folder. */
export function skillsLoadOptions(config: SkillpressConfig): Pick<LoadOptions, 'ignore' | 'maxFileBytes' | 'maxDepth'> {
  return {
    ignore: config.skills.ignore,
    maxFileBytes: config.skills.max_file_bytes,
    maxDepth: config.skills.max_depth,
  };
}

/** SOURCE_DATE_EPOCH (reproducible builds) of the environment the CLI passes, if set and valid. */
export function sourceDateEpoch(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const v = env.SOURCE_DATE_EPOCH;
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}
