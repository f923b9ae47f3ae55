/**
 * The Agent Skills specification's rules for SKILL.md front matter, as pure functions.
 *
 * `strict` follows the specification exactly: every rule broken is an error.
 * `lenient` (the default for builds) follows the spec's client-implementation guide: warn and
 * load when the name does not match its folder or is over 64 characters, skip when the
 * description is missing. The name is the skill's id in feed URLs, `skill://` URIs, archives and
 * peer registries, which all require a spec-valid name: a name written as a title (`Ahrefs
 * Automation`, `capsule_crm-automation`, `-2chat-automation`) is loaded under a valid id — the
 * folder's name when that is valid, else the normalized name — and kept as the skill's title.
 *
 * | problem                                                         | strict | lenient                          |
 * |-----------------------------------------------------------------|--------|----------------------------------|
 * | name ≠ folder; name over 64 characters (up to 200)              | error  | warning (loaded)                 |
 * | name uppercase, `--`, hyphen at an end, characters outside a-z 0-9 -, over 200 characters | error | warning `name-normalized`: loaded under the folder's name or the normalized name, the written name as title; error when neither is a valid name |
 * | name missing                                                    | error  | warning, the folder name is used if it is a valid name |
 * | name or description not a string, description missing or empty | error  | error (skipped)                  |
 * | description over 1024, compatibility empty or over 500, license/compatibility/metadata/allowed-tools of the wrong type | error | warning (loaded) |
 * | fields the spec does not define                                 | error  | warning (registry fields: silent)|
 * | visibility not public/private/group                             | error  | error (skipped)                  |
 */
import { INDEXED_DESCRIPTION_CHARS, MAX_TAG_CHARS, MAX_TAGS, indexedTags } from '../model/bounds.ts';
import { readSkillNeeds, splitAllowedTools } from './requirements.ts';
import { isPlaceholderDescription } from './placeholders.ts';
import { editDistance } from '../lib/near-names.ts';
import {
  COMPATIBILITY_MAX,
  DESCRIPTION_MAX,
  RegistryFields,
  SKILL_NAME_MAX,
  SKILL_NAME_PATTERN,
  SPEC_FIELDS,
  type Severity,
} from '../model/skill.ts';

export type ValidationMode = 'strict' | 'lenient';

/** A problem before it is tied to a skill folder and file. */
export interface FieldProblem {
  severity: Severity;
  field?: string;
  rule: string;
  message: string;
}

export interface ValidatedFrontMatter {
  problems: FieldProblem[];
  /** Undefined when the skill cannot be loaded (a problem with severity `error` explains why). */
  name?: string;
  /** The name as written, when it is not a valid name and lenient mode loads the skill under another (`name`). */
  title?: string;
  description?: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  allowedTools: string[];
  registry: RegistryFields;
}

export interface ValidateOptions {
  /** Name of the folder holding SKILL.md; the skill's name must equal it. */
  folderName?: string;
  mode: ValidationMode;
  /** Scalar values as written in SKILL.md (from parseSkillMarkdown), to keep "1.10" from becoming 1.1. */
  sourceText?: Record<string, string>;
}

/** Characters (code points), not UTF-16 code units or bytes: "é" and "😀" count once. */
function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Longest name lenient mode accepts: it becomes a file name, and file systems stop at 255 bytes. */
const LENIENT_NAME_MAX = 200;

/** A spec-valid name to suggest for an invalid one, when there is an obvious one (the loader's normalization). */
export function suggestName(name: string): string | undefined {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SKILL_NAME_MAX)
    .replace(/-+$/, '');
  return slug && slug !== name ? slug : undefined;
}

/** The spec's name rules. Every problem found, so one run shows all that needs fixing. */
export function checkName(name: string, folderName: string | undefined): Array<{ rule: string; message: string }> {
  const out: Array<{ rule: string; message: string }> = [];
  const suggestion = suggestName(name);
  const use = suggestion ? `: use "${suggestion}"` : '';
  const len = charLength(name);
  if (len > SKILL_NAME_MAX)
    out.push({ rule: 'name-length', message: `name is ${len} characters; the limit is ${SKILL_NAME_MAX}${use}` });
  if (name !== name.toLowerCase())
    out.push({ rule: 'name-lowercase', message: `name "${name}" must be lowercase${use}` });
  if (name.startsWith('-') || name.endsWith('-'))
    out.push({ rule: 'name-hyphen-ends', message: `name "${name}" must not start or end with a hyphen${use}` });
  if (name.includes('--'))
    out.push({ rule: 'name-double-hyphen', message: `name "${name}" must not contain consecutive hyphens "--"${use}` });
  if (!/^[A-Za-z0-9-]*$/.test(name)) {
    out.push({
      rule: 'name-characters',
      message: `name "${name}" may only contain lowercase letters a-z, digits 0-9 and hyphens${use}`,
    });
  }
  if (out.length === 0 && !SKILL_NAME_PATTERN.test(name))
    out.push({ rule: 'name-characters', message: `name "${name}" is not a valid skill name` });
  // NFC on both sides: macOS file systems hand back folder names decomposed (NFD).
  if (folderName !== undefined && name.normalize('NFC') !== folderName.normalize('NFC')) {
    out.push({
      rule: 'name-matches-folder',
      message: `name "${name}" must equal its folder name "${folderName}": rename the folder or change the name`,
    });
  }
  return out;
}

function splitList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(/[,\s]+/)
      .map((v) => v.trim())
      .filter(Boolean);
  return [];
}

function optionalString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/**
 * Registry fields (tags, domain, author, version, visibility, allowed groups, owner,
 * repository URL) from `metadata` first, then the top level. In `metadata` lists are
 * comma- or space-separated strings, as the spec only allows string values there.
 */
function readRegistryFields(
  data: Record<string, unknown>,
  metadata: Record<string, string>,
): { fields: RegistryFields; problems: FieldProblem[] } {
  const pick = (...keys: string[]): unknown => {
    for (const key of keys) {
      if (metadata[key] !== undefined) return metadata[key];
      if (data[key] !== undefined) return data[key];
    }
    return undefined;
  };
  const problems: FieldProblem[] = [];
  let visibility = optionalString(pick('visibility'))?.toLowerCase() ?? 'public';
  if (!['public', 'private', 'group'].includes(visibility)) {
    problems.push({
      severity: 'error',
      field: metadata.visibility !== undefined ? 'metadata.visibility' : 'visibility',
      rule: 'visibility-value',
      message: `visibility "${visibility}" must be one of public, private, group`,
    });
    visibility = 'private'; // never publish a skill whose intended audience is unclear
  }
  const fields = RegistryFields.parse({
    tags: boundedTags(
      [...new Set(splitList(pick('tags')).map((t) => t.toLowerCase()))],
      metadata.tags !== undefined ? 'metadata.tags' : 'tags',
      problems,
    ),
    domain: optionalString(pick('domain')),
    author: optionalString(pick('author')),
    version: optionalString(pick('version')),
    visibility,
    allowed_groups: splitList(pick('allowed_groups', 'allowed-groups')),
    owner: optionalString(pick('owner')),
    repository_url: optionalString(pick('repository_url', 'repository-url', 'repository')),
  });
  return { fields, problems };
}

/** At most MAX_TAGS tags of at most MAX_TAG_CHARS characters are kept; what is cut is reported. */
function boundedTags(tags: string[], field: string, problems: FieldProblem[]): string[] {
  const kept = indexedTags(tags);
  if (kept.length === tags.length) return kept;
  const long = tags.filter((t) => charLength(t) > MAX_TAG_CHARS).length;
  const over = tags.length - long - kept.length;
  problems.push({
    severity: 'warning',
    field,
    rule: 'tags-limit',
    message: `${tags.length} tags: ${[long ? `${long} over ${MAX_TAG_CHARS} characters` : '', over ? `${over} past the first ${MAX_TAGS}` : ''].filter(Boolean).join(' and ')} were dropped; keep the ${MAX_TAGS} that say best what the skill is about`,
  });
  return kept;
}

/** Top-level keys skillpress reads as registry fields (accepted silently in lenient mode). */
const REGISTRY_KEYS = new Set([
  'tags',
  'domain',
  'author',
  'version',
  'visibility',
  'allowed_groups',
  'allowed-groups',
  'owner',
  'repository_url',
  'repository-url',
  'repository',
  // What a skill needs (docs/requirements.md): read by readSkillNeeds.
  'requires',
  'requirements',
  'target_agents',
]);

/**
 * Top-level fields agent clients document and read where they are (Claude Code's skills
 * reference; VS Code's Agent Skills reference spells one `user-invokable`). Moving one under
 * `metadata`, as `unknown-field` advises for other fields, would stop that client reading it:
 * lenient mode accepts them silently, strict reports them as `client-field`.
 */
const CLIENT_FIELDS: ReadonlyMap<string, string> = new Map([
  ...[
    'when_to_use',
    'argument-hint',
    'arguments',
    'disable-model-invocation',
    'user-invocable',
    'model',
    'effort',
    'context',
    'agent',
    'hooks',
    'paths',
    'shell',
  ].map((key): [string, string] => [key, 'Claude Code']),
  ['user-invokable', 'VS Code'],
]);

const isEmpty = (v: unknown): boolean => v === undefined || v === null;

/**
 * A value that should have been a string, as one: a list of scalars joined by commas, anything
 * holding a mapping as JSON (never `[object Object]`).
 */
function asText(value: unknown): string {
  const scalar = (v: unknown): boolean => v === null || typeof v !== 'object';
  if (Array.isArray(value) && value.every(scalar)) return value.map(String).join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * Check parsed SKILL.md front matter against the Agent Skills specification (`strict`: every
 * rule broken is an error; `lenient`: as the spec's client guide, warn where a client would still
 * load). Returns the fields it could read and every problem, each naming its field and rule.
 *
 * @example
 * ```ts
 * import { parseSkillMarkdown, validateFrontMatter } from 'skillpress';
 * const parsed = parseSkillMarkdown('---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n# PDF tools\n');
 * if (parsed.ok) {
 *   const checked = validateFrontMatter(parsed.data, { mode: 'strict', folderName: 'pdf-tools' });
 *   console.log(checked.name, checked.problems); // 'pdf-tools', []
 * }
 * ```
 */
export function validateFrontMatter(data: Record<string, unknown>, opts: ValidateOptions): ValidatedFrontMatter {
  const problems: FieldProblem[] = [];
  const strict = opts.mode === 'strict';
  // Rules an agent client relaxes: errors in strict mode, warnings in lenient mode.
  const soft: Severity = strict ? 'error' : 'warning';
  const result: ValidatedFrontMatter = { problems, metadata: {}, allowedTools: [], registry: RegistryFields.parse({}) };
  const written = (field: string, value: unknown): string => opts.sourceText?.[field] ?? asText(value);

  Object.assign(result, validateName(data.name, opts, problems));
  result.description = validateDescription(data.description, soft, problems);
  if (!isEmpty(data.license)) {
    if (typeof data.license !== 'string') {
      problems.push({
        severity: soft,
        field: 'license',
        rule: 'license-type',
        message: 'license must be a string, e.g. "Apache-2.0" or "LICENSE.txt"',
      });
    }
    result.license = written('license', data.license);
  }
  result.compatibility = validateCompatibility(data.compatibility, soft, problems, written);
  result.metadata = validateMetadata(data.metadata, soft, problems, written);
  result.allowedTools = validateAllowedTools(data['allowed-tools'], soft, problems);
  problems.push(...extraFields(data, strict, soft));

  problems.push(...readSkillNeeds(data).problems);
  const registry = readRegistryFields(data, result.metadata);
  problems.push(...registry.problems);
  result.registry = registry.fields;
  return result;
}

type Written = (field: string, value: unknown) => string;

/**
 * Where a field that is no field of the specification belongs: a misspelt known one (`descripton`,
 * `allowed_tools`), one skillpress reads at the top level, or else `metadata`.
 */
function unknownFieldMessage(key: string): string {
  const known = [...SPEC_FIELDS, ...REGISTRY_KEYS, ...CLIENT_FIELDS.keys()];
  const close = (k: string) => editDistance(key.toLowerCase(), k) <= Math.min(2, Math.floor(key.length / 3));
  const near = known.includes(key) ? undefined : known.find(close);
  const not = `"${key}" is not a field of the Agent Skills specification`;
  if (near) return `${not}: did you mean "${near}"?`;
  const read = READ_AT_TOP[key];
  return read ? `${not}: other agents ignore it (${read})` : `${not}: move it under metadata (as a string)`;
}

/** skillpress's own top-level fields that moving under `metadata` as a string would break, and what to write instead for the specification. */
const READ_AT_TOP: Readonly<Record<string, string>> = {
  requires:
    'skillpress reads requires.mcp there; within the specification, name the servers in allowed-tools as mcp__<server>',
  requirements: 'within the specification, write metadata.requirements as a string: "tool:git, api:github?"',
  target_agents: 'within the specification, write metadata.target_agents as a string: "claude-code, codex"',
};

/** The top-level fields the specification does not define: a client's own (`client-field`), or to move under `metadata`. */
function extraFields(data: Record<string, unknown>, strict: boolean, soft: Severity): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(data)) {
    if ((SPEC_FIELDS as readonly string[]).includes(key)) continue;
    const client = CLIENT_FIELDS.get(key);
    if (!strict && (REGISTRY_KEYS.has(key) || client)) continue;
    problems.push(
      client
        ? {
            severity: soft,
            field: key,
            rule: 'client-field',
            message: `"${key}" is ${client}'s own field, not the Agent Skills specification's: other agents ignore it (leave it where it is: under metadata ${client} would no longer read it)`,
          }
        : { severity: soft, field: key, rule: 'unknown-field', message: unknownFieldMessage(key) },
    );
  }
  return problems;
}

function validateCompatibility(
  value: unknown,
  soft: Severity,
  problems: FieldProblem[],
  written: Written,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push({
      severity: soft,
      field: 'compatibility',
      rule: 'compatibility-type',
      message: 'compatibility must be a string, e.g. "Requires Python 3.11+ and network access"',
    });
    return value === null ? undefined : written('compatibility', value);
  }
  const len = charLength(value);
  if (len === 0 || len > COMPATIBILITY_MAX) {
    problems.push({
      severity: soft,
      field: 'compatibility',
      rule: 'compatibility-length',
      message:
        len === 0
          ? 'compatibility is empty: remove the field or say what the skill needs (1-500 characters)'
          : `compatibility is ${len} characters; the limit is ${COMPATIBILITY_MAX}: keep only the environment requirements`,
    });
  }
  return len > 0 ? value : undefined;
}

/** `metadata` as strings: a value of another type is reported and kept as written. */
function validateMetadata(
  value: unknown,
  soft: Severity,
  problems: FieldProblem[],
  written: Written,
): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (isEmpty(value)) return metadata;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({
      severity: soft,
      field: 'metadata',
      rule: 'metadata-type',
      message: 'metadata must be a mapping of string keys to string values, e.g. "metadata:\\n  author: example-org"',
    });
    return metadata;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = `metadata.${key}`;
    if (typeof v === 'string') {
      metadata[key] = v;
      continue;
    }
    const text = v === null ? '' : written(field, v);
    problems.push({
      severity: soft,
      field,
      rule: 'metadata-string-values',
      message: Array.isArray(v)
        ? `${field} must be a string, not a list: write it as one string, e.g. ${key}: ${yamlQuoted(text)}`
        : `${field} must be a string: quote it, e.g. ${key}: ${yamlQuoted(text)} (unquoted, YAML reads it as ${v === null ? 'null' : typeof v})`,
    });
    metadata[key] = text;
  }
  return metadata;
}

/** `text` as a YAML single-quoted scalar, to copy into the front matter as it is (quotes inside are doubled). */
const yamlQuoted = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** allowed-tools (experimental): a space-separated string or a YAML list of strings. */
function validateAllowedTools(tools: unknown, soft: Severity, problems: FieldProblem[]): string[] {
  if (isEmpty(tools)) return [];
  if (typeof tools === 'string') return splitAllowedTools(tools).entries;
  if (Array.isArray(tools)) {
    if (!tools.every((t) => typeof t === 'string')) {
      problems.push({
        severity: soft,
        field: 'allowed-tools',
        rule: 'allowed-tools-type',
        message: 'every item of allowed-tools must be a string, e.g. "Bash(git:*)"; quote items such as 123',
      });
    }
    return tools.map(String).filter(Boolean);
  }
  problems.push({
    severity: soft,
    field: 'allowed-tools',
    rule: 'allowed-tools-type',
    message: 'allowed-tools must be a space-separated string or a list of strings, e.g. "Bash(git:*) Read"',
  });
  return [];
}

/** A valid name the folder gives when it is one (and not too long for a file name). */
function folderId(folderName: string | undefined): string | undefined {
  return folderName !== undefined && SKILL_NAME_PATTERN.test(folderName) && folderName.length <= LENIENT_NAME_MAX
    ? folderName
    : undefined;
}

function validateName(
  raw: unknown,
  opts: ValidateOptions,
  problems: FieldProblem[],
): Pick<ValidatedFrontMatter, 'name' | 'title'> {
  const strict = opts.mode === 'strict';
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    const fallback = folderId(opts.folderName);
    const usable = !strict && fallback !== undefined;
    problems.push({
      severity: usable ? 'warning' : 'error',
      field: 'name',
      rule: 'name-required',
      message: `name is required: add "name: ${fallback ?? suggestName(opts.folderName ?? '') ?? 'my-skill'}" to the front matter${usable ? ' (the folder name is used meanwhile)' : ''}`,
    });
    return { name: usable ? fallback : undefined };
  }
  if (typeof raw !== 'string') {
    problems.push({
      severity: 'error',
      field: 'name',
      rule: 'name-type',
      message: `name must be a string of lowercase letters, digits and hyphens, got ${JSON.stringify(raw)}`,
    });
    return {};
  }
  const name = raw.trim();
  // The guide's two relaxations; every other name rule is about the name's form.
  const forgiven = (rule: string): boolean =>
    rule === 'name-matches-folder' || (rule === 'name-length' && charLength(name) <= LENIENT_NAME_MAX);
  const found = checkName(name, opts.folderName);
  const formProblems = found.filter((p) => !forgiven(p.rule));
  if (formProblems.length === 0 || strict) {
    problems.push(
      ...found.map((p): FieldProblem => ({
        severity: !strict && forgiven(p.rule) ? 'warning' : 'error',
        field: 'name',
        ...p,
      })),
    );
    return formProblems.length === 0 ? { name } : {};
  }
  return normalizedName(name, formProblems, opts.folderName, problems);
}

/**
 * Lenient mode, a name that is not a valid id (written as a title): the skill is loaded under
 * its folder's name, or else the normalized name, and the written name becomes its title.
 */
function normalizedName(
  name: string,
  formProblems: Array<{ rule: string; message: string }>,
  folderName: string | undefined,
  problems: FieldProblem[],
): Pick<ValidatedFrontMatter, 'name' | 'title'> {
  const fromFolder = folderId(folderName);
  const id = fromFolder ?? suggestName(name);
  const why = formProblems.map((p) => p.rule).join(', ');
  if (id === undefined) {
    problems.push(...formProblems.map((p): FieldProblem => ({ severity: 'error', field: 'name', ...p })));
    return {};
  }
  problems.push({
    severity: 'warning',
    field: 'name',
    rule: 'name-normalized',
    message:
      `name ${JSON.stringify(name)} is not a valid skill name (${why}); the skill is published as "${id}" (${fromFolder ? "its folder's name" : 'the name normalized'}) ` +
      `with ${JSON.stringify(name)} as its title: write "name: ${id}" (strict mode refuses the name)`,
  });
  return { name: id, title: name };
}

function validateDescription(raw: unknown, soft: Severity, problems: FieldProblem[]): string | undefined {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    problems.push({
      severity: 'error',
      field: 'description',
      rule: 'description-required',
      message: `description is ${raw === undefined ? 'missing' : 'empty'}: say what the skill does and when to use it (1-${DESCRIPTION_MAX} characters)`,
    });
    return undefined;
  }
  if (typeof raw !== 'string') {
    problems.push({
      severity: 'error',
      field: 'description',
      rule: 'description-type',
      message: `description must be a string, got ${JSON.stringify(raw)}: quote it`,
    });
    return undefined;
  }
  const len = charLength(raw);
  if (len > DESCRIPTION_MAX) {
    problems.push({
      severity: soft,
      field: 'description',
      rule: 'description-length',
      message: `description is ${len} characters; the limit is ${DESCRIPTION_MAX}: keep what the skill does and when to use it, move detail into the body (search and routing read only the first ${INDEXED_DESCRIPTION_CHARS} characters; the other ${len - INDEXED_DESCRIPTION_CHARS} are cut)`,
    });
  }
  if (isPlaceholderDescription(raw)) {
    problems.push({
      severity: soft,
      field: 'description',
      rule: 'scaffold-placeholder',
      message:
        'description is still the placeholder skillpress new wrote: say what the skill does and when to use it, in the words a user would say',
    });
  }
  return raw;
}
