/**
 * Front matter → what a skill needs (`SkillNeeds`). Pure and total: malformed input gives a
 * warning naming the field and what was kept, never an exception. Formats: docs/requirements.md.
 */
import {
  CompatibilityRequirement,
  NEEDS_VERSION,
  RequirementType,
  type SkillNeeds,
  type ToolReference,
} from '../model/requirements.ts';
import type { FieldProblem } from './validate.ts';

/** Keys of `requires` skillpress reads (the only one the public catalogs use is `mcp`). */
export const REQUIRES_KEYS = ['mcp'] as const;

/** Most entries read from one list: a skill declaring more is cut, with a warning. */
const MAX_ENTRIES = 100;

type Where = { field: string; rule: string };
const warn = (problems: FieldProblem[], where: Where, message: string): void => {
  problems.push({ severity: 'warning', ...where, message });
};

/**
 * `allowed-tools` split into entries: on whitespace and commas outside parentheses, so
 * `Bash(git add:*)` and `Bash(npm:*, pnpm:*)` stay one entry each. Unbalanced parentheses end the entry at the next space and are reported.
 */
export function splitAllowedTools(text: string): { entries: string[]; unbalanced: string[] } {
  const entries: string[] = [];
  const unbalanced: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of text) {
    // Commas separate too: many catalogs write `Bash, Read, Write`.
    if ((/\s/.test(ch) || ch === ',') && depth === 0) {
      if (current) entries.push(current);
      current = '';
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    current += ch;
  }
  if (current && depth > 0) {
    // An unclosed parenthesis: fall back to whitespace for what follows it.
    const [first, ...rest] = current.split(/[\s,]+/).filter(Boolean);
    unbalanced.push(first!);
    entries.push(first!, ...rest);
  } else if (current) entries.push(current);
  return { entries, unbalanced };
}

const TOOL_NAME = /^[A-Za-z0-9_.*-]+$/;
const MCP_PREFIX = 'mcp__';

/** One `allowed-tools` entry → a tool reference; undefined when it is not a tool name. */
export function parseToolReference(raw: string): ToolReference | undefined {
  const m = /^([^()]+)(?:\((.*)\))?$/s.exec(raw);
  if (!m) return undefined;
  const name = m[1]!.trim();
  if (!TOOL_NAME.test(name)) return undefined;
  const capabilities = (m[2] ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const mcp = /^mcp__([^_]+(?:_[^_]+)*?)(?:__(.+))?$/.exec(name);
  if (mcp) return { tool: mcp[2] ?? '*', server: mcp[1]!, capabilities, raw };
  // `mcp__github__`, `mcp__`: meant for a server, but naming no server or no tool; not a built-in tool either.
  if (name.startsWith(MCP_PREFIX)) return undefined;
  return { tool: name, capabilities, raw };
}

function readToolReferences(entries: string[], problems: FieldProblem[], unbalanced: string[]): ToolReference[] {
  const tools: ToolReference[] = [];
  for (const u of unbalanced)
    warn(
      problems,
      { field: 'allowed-tools', rule: 'allowed-tools-syntax' },
      `"${u}" opens a parenthesis it never closes`,
    );
  for (const raw of entries.slice(0, MAX_ENTRIES)) {
    const ref = parseToolReference(raw);
    if (ref) tools.push(ref);
    else if (!unbalanced.includes(raw))
      warn(
        problems,
        { field: 'allowed-tools', rule: 'allowed-tools-syntax' },
        raw.startsWith(MCP_PREFIX)
          ? `"${raw}" is not an MCP tool reference: write mcp__<server>__<tool>, or mcp__<server> for every tool of the server`
          : `"${raw}" is not a tool reference: write a tool name, Name(capability) or mcp__server__tool`,
      );
  }
  if (entries.length > MAX_ENTRIES)
    warn(
      problems,
      { field: 'allowed-tools', rule: 'allowed-tools-syntax' },
      `${entries.length} entries; the first ${MAX_ENTRIES} are read`,
    );
  return tools;
}

/** A list written as a YAML list or a comma/space-separated string; anything else is reported. */
function stringList(value: unknown, where: Where, problems: FieldProblem[]): string[] {
  const { field } = where;
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? value.split(/[,\s]+/) : Array.isArray(value) ? value : undefined;
  if (!items || !items.every((v) => typeof v === 'string' || typeof v === 'number')) {
    warn(problems, where, `${field} must be a list of names or a comma-separated string, e.g. [rube, github]`);
    return [];
  }
  const out = [...new Set(items.map((v) => String(v).trim()).filter(Boolean))];
  if (out.length > MAX_ENTRIES) warn(problems, where, `${out.length} entries; the first ${MAX_ENTRIES} are read`);
  return out.slice(0, MAX_ENTRIES);
}

/** `requires: { mcp: [rube] }` (ComposioHQ's convention) → the MCP servers required. */
function readRequires(value: unknown, problems: FieldProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) {
    warn(
      problems,
      { field: 'requires', rule: 'requires-format' },
      'requires must be a mapping, e.g. "requires:\\n  mcp: [rube]"',
    );
    return [];
  }
  const entries = value as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    if (!(REQUIRES_KEYS as readonly string[]).includes(key))
      warn(
        problems,
        { field: `requires.${key}`, rule: 'requires-format' },
        `requires.${key} is not read (skillpress reads requires.mcp)`,
      );
  }
  return stringList(entries.mcp, { field: 'requires.mcp', rule: 'requires-format' }, problems);
}

/**
 * One requirement written as text: `type:target`, then optional `>=min` and `<=max` (or `<max`),
 * and a trailing `?` when it is optional. E.g. `environment:python>=3.11`, `api:github?`.
 */
export function parseRequirement(text: string): CompatibilityRequirement | undefined {
  const m = /^(\w+):([^\s<>=?]+)\s*(?:>=\s*([^\s<>?]+))?\s*(?:<=?\s*([^\s<>?]+))?\s*(\?)?$/.exec(text.trim());
  if (!m || !RequirementType.safeParse(m[1]).success) return undefined;
  return {
    type: m[1] as CompatibilityRequirement['type'],
    target: m[2]!,
    ...(m[3] ? { min_version: m[3] } : {}),
    ...(m[4] ? { max_version: m[4] } : {}),
    required: !m[5],
  };
}

function readRequirements(value: unknown, field: string, problems: FieldProblem[]): CompatibilityRequirement[] {
  if (value === undefined || value === null) return [];
  const items: unknown[] =
    typeof value === 'string' ? value.split(/[,;]/).filter((s) => s.trim()) : Array.isArray(value) ? value : [value];
  const out: CompatibilityRequirement[] = [];
  for (const item of items.slice(0, MAX_ENTRIES)) {
    const parsed =
      typeof item === 'string'
        ? parseRequirement(item)
        : CompatibilityRequirement.safeParse({ required: true, ...(item as object) }).data;
    if (parsed) out.push(withReadableVersions(parsed, field, problems));
    else
      warn(
        problems,
        { field: field, rule: 'requirements-format' },
        `${JSON.stringify(item)} is not a requirement: write "type:target", type one of product, tool, api, environment, e.g. "environment:python>=3.11"`,
      );
  }
  return out;
}

/** A version as tools print them: digits first (`3.11`, `v2.40.1`, `1.0.0-beta`). */
const VERSION = /^v?\d[\w.+-]*$/;

/** The requirement without a bound that is not a version (`git>=abc`), warned about: the requirement itself stays. */
function withReadableVersions(
  req: CompatibilityRequirement,
  field: string,
  problems: FieldProblem[],
): CompatibilityRequirement {
  const out = { ...req };
  for (const bound of ['min_version', 'max_version'] as const) {
    const version = out[bound];
    if (version === undefined || VERSION.test(version)) continue;
    delete out[bound];
    warn(
      problems,
      { field, rule: 'requirements-format' },
      `${req.type}:${req.target}: ${JSON.stringify(version)} is not a version (${bound}), so it was left out: write digits, e.g. "${req.type}:${req.target}>=2.40"`,
    );
  }
  return out;
}

/**
 * What a skill needs, from its front matter (`allowed-tools`, `requires`, `metadata.requirements`,
 * `metadata.target_agents`, or top-level `requirements` / `target_agents`), with a warning for
 * each part that could not be read.
 *
 * @example
 * ```ts
 * import { readSkillNeeds } from 'skillpress';
 * const { needs } = readSkillNeeds({ 'allowed-tools': 'Bash(git:*) mcp__github__create_issue', requires: { mcp: ['rube'] } });
 * console.log(needs.tools[1]); // { tool: 'create_issue', server: 'github', capabilities: [], raw: 'mcp__github__create_issue' }
 * console.log(needs.mcp_servers); // ['rube', 'github']
 * ```
 */
export function readSkillNeeds(frontmatter: Record<string, unknown>): { needs: SkillNeeds; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const allowed = frontmatter['allowed-tools'];
  const split =
    typeof allowed === 'string'
      ? splitAllowedTools(allowed)
      : { entries: Array.isArray(allowed) ? allowed.filter((t) => typeof t === 'string') : [], unbalanced: [] };
  const tools = readToolReferences(split.entries, problems, split.unbalanced);
  const metadata = (typeof frontmatter.metadata === 'object' && frontmatter.metadata) || {};
  const meta = metadata as Record<string, unknown>;
  const servers = [
    ...readRequires(frontmatter.requires, problems),
    ...tools.flatMap((t) => (t.server ? [t.server] : [])),
  ];
  const needs: SkillNeeds = {
    version: NEEDS_VERSION,
    tools,
    mcp_servers: [...new Set(servers)],
    requirements: [
      ...readRequirements(meta.requirements, 'metadata.requirements', problems),
      ...readRequirements(frontmatter.requirements, 'requirements', problems),
    ],
    target_agents: [
      ...new Set([
        ...stringList(meta.target_agents, { field: 'metadata.target_agents', rule: 'target-agents-format' }, problems),
        ...stringList(frontmatter.target_agents, { field: 'target_agents', rule: 'target-agents-format' }, problems),
      ]),
    ],
  };
  return { needs, problems };
}

/** True when the skill declares nothing it needs (the site then shows no section). */
export function needsNothing(needs: SkillNeeds): boolean {
  return !needs.tools.length && !needs.mcp_servers.length && !needs.requirements.length && !needs.target_agents.length;
}
