/**
 * The Agent Skills specification's rules for SKILL.md front matter, as pure functions.
 *
 * `strict` follows the specification exactly: every rule is an error.
 * `lenient` loads what an agent client would load (the spec's client-implementation guide):
 * a name that does not match the folder or breaks the name format is a warning; a missing or
 * empty description, or front matter that does not parse, makes the skill unloadable.
 */
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
  description?: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  allowedTools: string[];
  registry: RegistryFields;
}

/** Characters, not UTF-16 code units or bytes: "é" and "😀" count once. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkName(name: string, folderName: string | undefined): Array<{ rule: string; message: string }> {
  const out: Array<{ rule: string; message: string }> = [];
  const len = charLength(name);
  if (len > SKILL_NAME_MAX) out.push({ rule: 'name-length', message: `name is ${len} characters; the limit is ${SKILL_NAME_MAX}` });
  if (name !== name.toLowerCase()) {
    out.push({ rule: 'name-lowercase', message: `name "${name}" must be lowercase: use "${name.toLowerCase()}"` });
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    out.push({ rule: 'name-hyphen-ends', message: `name "${name}" must not start or end with a hyphen` });
  }
  if (name.includes('--')) out.push({ rule: 'name-double-hyphen', message: `name "${name}" must not contain "--"` });
  if (!/^[A-Za-z0-9-]*$/.test(name)) {
    out.push({
      rule: 'name-characters',
      message: `name "${name}" may only contain lowercase letters a-z, digits 0-9 and hyphens`,
    });
  }
  if (out.length === 0 && !SKILL_NAME_PATTERN.test(name)) {
    out.push({ rule: 'name-format', message: `name "${name}" is not a valid skill name` });
  }
  if (folderName !== undefined && name !== folderName) {
    out.push({
      rule: 'name-matches-folder',
      message: `name "${name}" must equal its folder name "${folderName}": rename the folder or the skill`,
    });
  }
  return out;
}

function splitList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  if (typeof value === 'string') return value.split(/[,\s]+/).map((v) => v.trim()).filter(Boolean);
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
export function readRegistryFields(data: Record<string, unknown>, metadata: Record<string, string>): { fields: RegistryFields; problems: FieldProblem[] } {
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
      field: 'metadata.visibility',
      rule: 'visibility-value',
      message: `visibility "${visibility}" must be one of public, private, group`,
    });
    visibility = 'private'; // never publish a skill whose intended audience is unclear
  }
  const fields = RegistryFields.parse({
    tags: [...new Set(splitList(pick('tags')).map((t) => t.toLowerCase()))],
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

/** Top-level keys skillpress reads as registry fields (accepted in lenient mode). */
const REGISTRY_KEYS = new Set([
  'tags', 'domain', 'author', 'version', 'visibility', 'allowed_groups', 'allowed-groups', 'owner',
  'repository_url', 'repository-url', 'repository',
]);

export function validateFrontMatter(
  data: Record<string, unknown>,
  opts: { folderName?: string; mode: ValidationMode },
): ValidatedFrontMatter {
  const problems: FieldProblem[] = [];
  const strict = opts.mode === 'strict';
  const soft: Severity = strict ? 'error' : 'warning';
  const result: ValidatedFrontMatter = { problems, metadata: {}, allowedTools: [], registry: RegistryFields.parse({}) };

  // name
  const rawName = data.name;
  if (rawName === undefined || rawName === null || rawName === '') {
    problems.push({ severity: 'error', field: 'name', rule: 'name-required', message: 'name is required: add "name: <folder name>" to the front matter' });
  } else if (typeof rawName !== 'string') {
    problems.push({ severity: 'error', field: 'name', rule: 'name-type', message: `name must be a string, got ${JSON.stringify(rawName)}` });
  } else {
    const name = rawName.trim() === rawName ? rawName : rawName.trim();
    for (const p of checkName(name, opts.folderName)) problems.push({ severity: soft, field: 'name', ...p });
    result.name = name;
  }

  // description
  const desc = data.description;
  if (desc === undefined || desc === null || (typeof desc === 'string' && desc.trim() === '')) {
    problems.push({
      severity: 'error',
      field: 'description',
      rule: 'description-required',
      message: 'description is required: say what the skill does and when to use it (1-1024 characters)',
    });
  } else if (typeof desc !== 'string') {
    problems.push({ severity: 'error', field: 'description', rule: 'description-type', message: `description must be a string, got ${JSON.stringify(desc)}` });
  } else {
    const len = charLength(desc);
    if (len > DESCRIPTION_MAX) {
      problems.push({ severity: soft, field: 'description', rule: 'description-length', message: `description is ${len} characters; the limit is ${DESCRIPTION_MAX}` });
    }
    result.description = desc;
  }

  // license
  if (data.license !== undefined && data.license !== null) {
    if (typeof data.license !== 'string') {
      problems.push({ severity: soft, field: 'license', rule: 'license-type', message: 'license must be a string' });
    }
    result.license = optionalString(data.license);
  }

  // compatibility
  if (data.compatibility !== undefined && data.compatibility !== null) {
    if (typeof data.compatibility !== 'string') {
      problems.push({ severity: soft, field: 'compatibility', rule: 'compatibility-type', message: 'compatibility must be a string' });
    } else {
      const len = charLength(data.compatibility);
      if (len === 0 || len > COMPATIBILITY_MAX) {
        problems.push({
          severity: soft,
          field: 'compatibility',
          rule: 'compatibility-length',
          message: `compatibility is ${len} characters; it must be 1-${COMPATIBILITY_MAX} when present`,
        });
      }
    }
    result.compatibility = optionalString(data.compatibility);
  }

  // metadata: string -> string
  if (data.metadata !== undefined && data.metadata !== null) {
    if (typeof data.metadata !== 'object' || Array.isArray(data.metadata)) {
      problems.push({ severity: soft, field: 'metadata', rule: 'metadata-type', message: 'metadata must be a mapping of string keys to string values' });
    } else {
      for (const [key, value] of Object.entries(data.metadata as Record<string, unknown>)) {
        if (typeof value !== 'string') {
          problems.push({
            severity: soft,
            field: `metadata.${key}`,
            rule: 'metadata-string-values',
            message: `metadata.${key} must be a string: quote it${Array.isArray(value) ? ' or join the list with commas' : ''}`,
          });
          result.metadata[key] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
        } else {
          result.metadata[key] = value;
        }
      }
    }
  }

  // allowed-tools: space-separated string (experimental)
  const tools = data['allowed-tools'];
  if (tools !== undefined && tools !== null) {
    if (typeof tools !== 'string') {
      problems.push({ severity: soft, field: 'allowed-tools', rule: 'allowed-tools-type', message: 'allowed-tools must be a space-separated string, e.g. "Bash(git:*) Read"' });
      result.allowedTools = splitList(tools);
    } else {
      result.allowedTools = tools.split(/\s+/).filter(Boolean);
    }
  }

  // Unknown top-level fields: the spec defines no others.
  for (const key of Object.keys(data)) {
    if ((SPEC_FIELDS as readonly string[]).includes(key)) continue;
    const registry = REGISTRY_KEYS.has(key);
    if (strict || !registry) {
      problems.push({
        severity: strict ? 'error' : 'warning',
        field: key,
        rule: 'unknown-field',
        message: `"${key}" is not a field of the Agent Skills specification: move it under metadata`,
      });
    }
  }

  const registry = readRegistryFields(data, result.metadata);
  problems.push(...registry.problems);
  result.registry = registry.fields;
  return result;
}
