/**
 * Find and read the configuration (`skillpress.json`), validated against the zod schema
 * (src/model/config.ts). It belongs to the skills' repository, never to the working directory
 * by accident: without `--config`, it is looked up from the skills folder upwards (docs/cli.md).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { LoadOptions } from '../load/index.ts';
import { SkillpressConfig } from '../model/config.ts';
import { errorMessage, InvalidInputError, UsageError } from '../lib/errors.ts';
import { checkSchema, describeIssues, parseJsonText } from '../lib/json.ts';
import { didYouMean } from '../lib/near-names.ts';

export const CONFIG_FILE = 'skillpress.json';

/** How many of a config file's problems its error lists. */
const CONFIG_ISSUES = 20;

/** A configuration and where it came from. */
export interface FoundConfig {
  config: SkillpressConfig;
  /** The file read; undefined when none was found (every field has its default). */
  file: string | undefined;
  /**
   * The folder `skills.root` is relative to: the one holding `skillpress.json`, or holding the
   * `config/` folder it is in; without a file, where the lookup started.
   */
  root: string;
}

export interface FindConfigOptions {
  /** `--config`: a folder holding skillpress.json, or the file itself. Must exist. */
  config?: string;
  /** Where the lookup starts: the skills folder (default: the working directory). */
  from?: string;
}

/**
 * The configuration of a skills folder: `--config` when given (a missing path, a folder without
 * skillpress.json, an unreadable file are usage errors), else the nearest `skillpress.json` or
 * `config/skillpress.json` in `from` or a folder above it, up to the repository's root (the
 * folder holding `.git`) or the filesystem's root; none there: every default.
 *
 * @example
 * const { config, file } = await findConfig({ from: 'skills' });
 * console.log(file ?? 'no skillpress.json: defaults', config.registry.title);
 */
export async function findConfig(options: FindConfigOptions = {}): Promise<FoundConfig> {
  if (options.config !== undefined) {
    const file = await explicitConfigFile(options.config);
    const root = path.basename(path.dirname(file)) === 'config' ? path.dirname(path.dirname(file)) : path.dirname(file);
    return { config: await readConfigFile(file), file, root };
  }
  const start = path.resolve(options.from ?? '.');
  for (let dir = start; ; dir = path.dirname(dir)) {
    const found = await configIn(dir);
    if (found) return { config: await readConfigFile(found), file: found, root: dir };
    if ((await kindOf(path.join(dir, '.git'))) !== 'missing' || path.dirname(dir) === dir) break;
  }
  return { config: SkillpressConfig.parse({}), file: undefined, root: start };
}

/**
 * Read the configuration at `configPath` (a folder holding skillpress.json, or the file), or
 * with no path, the one `findConfig` finds from the working directory.
 *
 * @example
 * const config = await loadConfig('config'); // config/skillpress.json
 */
export async function loadConfig(configPath?: string): Promise<SkillpressConfig> {
  return (await findConfig({ config: configPath })).config;
}

type Kind = 'file' | 'folder' | 'missing';

async function kindOf(p: string): Promise<Kind> {
  try {
    return (await stat(p)).isDirectory() ? 'folder' : 'file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return 'missing';
    throw new UsageError(`${p}: cannot be read: ${errorMessage(err)}`, { cause: err });
  }
}

async function explicitConfigFile(given: string): Promise<string> {
  const kind = await kindOf(given);
  if (kind === 'missing') throw new UsageError(`--config ${given}: no such file or folder`);
  if (kind === 'file') return given;
  const file = path.join(given, CONFIG_FILE);
  const inside = await kindOf(file);
  if (inside === 'missing') throw new UsageError(`--config ${given}: no ${CONFIG_FILE} in this folder`);
  if (inside === 'folder') throw new UsageError(`--config ${given}: ${file} is a folder, not a file`);
  return file;
}

/** The config file in `dir`, if any: `skillpress.json` or `config/skillpress.json` (both: ambiguous). */
async function configIn(dir: string): Promise<string | undefined> {
  const candidates = [path.join(dir, CONFIG_FILE), path.join(dir, 'config', CONFIG_FILE)];
  const found: string[] = [];
  for (const file of candidates) {
    const kind = await kindOf(file);
    if (kind === 'folder') throw new UsageError(`${file} is a folder, not a file; remove or rename it`);
    if (kind === 'file') found.push(file);
  }
  if (found.length > 1)
    throw new UsageError(`${found.join(' and ')} both exist; keep one, or choose with --config`, {
      rule: 'ambiguous-config',
    });
  return found[0];
}

async function readConfigFile(file: string): Promise<SkillpressConfig> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot be read: ${errorMessage(err)}`, { cause: err });
  }
  try {
    const data = parseJsonText(raw, file);
    const unknown = unknownKeys(data, SkillpressConfig, '', new Set(['$schema']));
    // One's own config: every mistake at once (up to CONFIG_ISSUES), unknown keys and wrong values alike.
    if (unknown.length === 0) return checkSchema(data, SkillpressConfig, file, undefined, CONFIG_ISSUES);
    const parsed = SkillpressConfig.safeParse(data);
    const values = parsed.success ? [] : [describeIssues(parsed.error.issues, undefined, CONFIG_ISSUES)];
    throw new InvalidInputError(`${file}: ${[...unknown, ...values].join('; ')}`, { rule: 'unknown-key' });
  } catch (err) {
    // A config that breaks a rule is a usage problem (exit 2), with the file, field and rule named.
    if (err instanceof InvalidInputError) throw new UsageError(err.message, { cause: err, rule: err.rule });
    throw err;
  }
}

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The object schema below defaults and optionals, if `schema` is one. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let def = defOf(schema);
  while (def.innerType) def = defOf(def.innerType);
  return def.type === 'object' ? def.shape : undefined;
}

function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  let def = defOf(schema);
  while (def.innerType) def = defOf(def.innerType);
  return def.type === 'array' ? def.element : undefined;
}

/**
 * Keys the schema does not know, each with the nearest known one: zod drops them without a
 * word, so a misspelt `"titel"` would silently leave the default title in place.
 */
export function unknownKeys(data: unknown, schema: z.ZodType, at = '', allowed = new Set<string>()): string[] {
  const element = arrayElement(schema);
  if (element && Array.isArray(data))
    return data.flatMap((item, i) => unknownKeys(item, element, `${at}${at ? '.' : ''}${i}`));
  const shape = objectShape(schema);
  if (!shape || typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const field = `${at}${at ? '.' : ''}${key}`;
    if (shape[key]) problems.push(...unknownKeys(value, shape[key], field));
    else if (!allowed.has(key)) problems.push(`${field}: unknown key${didYouMean(key, Object.keys(shape), 1)}`);
  }
  return problems;
}

/** The skills folder a command reads, and its configuration. */
export interface SkillsAndConfig extends FoundConfig {
  /** The folder given, else `skills.root` of the config (relative to its `root`), as a path from the working directory. */
  skills: string;
}

/**
 * The skills folder and its configuration: the folder given (`--skills`, an argument) and the
 * config found from it; with no folder given, the config found from the working directory and
 * its `skills.root`.
 */
export async function findSkillsAndConfig(options: {
  skills?: string;
  config?: string;
  /** The working directory the lookup starts from when no folder is given (default: the process's). */
  cwd?: string;
}): Promise<SkillsAndConfig> {
  const cwd = options.cwd ?? process.cwd();
  const found = await findConfig({ config: options.config, from: options.skills ?? cwd });
  const skills = options.skills ?? (path.relative(cwd, path.resolve(found.root, found.config.skills.root)) || '.');
  return { ...found, skills };
}

/** The folder of the config file found (stdio MCP servers start there); undefined when none was found. */
export const configFolder = (found: FoundConfig): string | undefined => (found.file ? found.root : undefined);

/** One line saying which configuration a command used (the build prints it). */
export function describeConfig(found: FoundConfig, from: string | undefined): string {
  if (found.file) return `config: ${path.relative('.', found.file) || found.file}`;
  return `config: no ${CONFIG_FILE} or config/${CONFIG_FILE} in ${from ?? '.'} or the folders above it (up to the repository root); using the defaults`;
}

/** The loader options `config.skills` sets, the same for every command that reads the skills folder. */
export function skillsLoadOptions(
  config: SkillpressConfig,
): Pick<LoadOptions, 'ignore' | 'maxFileBytes' | 'maxDepth' | 'precedence'> {
  return {
    ignore: config.skills.ignore,
    maxFileBytes: config.skills.max_file_bytes,
    maxDepth: config.skills.max_depth,
    precedence: config.skills.precedence,
  };
}

/** SOURCE_DATE_EPOCH (reproducible builds) if set and valid. */
export function sourceDateEpoch(env = process.env): number | undefined {
  const v = env.SOURCE_DATE_EPOCH;
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * The config a library call was given: a config path (read with `loadConfig`), or an object —
 * whole or partial, as `{ registry: { name: 'acme' } }` — checked against the schema and
 * completed with the defaults. A wrong field is a UsageError naming it, never a TypeError later.
 */
export async function resolveConfig(config: string | object | undefined): Promise<SkillpressConfig> {
  if (config === undefined || typeof config === 'string') return loadConfig(config);
  const parsed = SkillpressConfig.safeParse(config);
  if (!parsed.success) throw new UsageError(`config: ${describeIssues(parsed.error.issues)}`, { rule: 'schema' });
  return parsed.data;
}
