/**
 * The reference pages of docs/reference/, rendered from their single sources: the zod schemas
 * of the configuration and of the feed (through their JSON Schemas: fields, types, defaults,
 * descriptions) and the loader's rule list. `npm run docs` writes them; a unit test checks the
 * committed pages are current.
 */
import { z } from 'zod';
import { configSchema } from '../../src/model/config-schema.ts';
import { PUBLISHED_SCHEMAS } from '../../src/model/feed.ts';
import { BUILD_RULES, VALIDATION_RULES, type ValidationRule } from '../../src/load/rules.ts';

interface JsonSchema {
  type?: string;
  $ref?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  $defs?: Record<string, JsonSchema>;
}

interface Field {
  path: string;
  schema: JsonSchema;
  required: boolean;
}

const GENERATED = (source: string): string =>
  `<!-- Generated from ${source} by \`npm run docs\`: edit the source, not this page. -->`;
const MIB = 1024 * 1024;

/** Text for a table cell: pipes escaped, line breaks joined. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (text: string): string => '`' + text + '`';
const anchor = (name: string): string => name.toLowerCase();

function numberType(s: JsonSchema): string {
  const base = s.type === 'integer' ? 'integer' : 'number';
  // zod's .int() bounds every integer to the safe range: that says nothing to a reader.
  const min = s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : undefined;
  const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (s.exclusiveMinimum !== undefined) return `${base} > ${s.exclusiveMinimum}`;
  if (min !== undefined && max !== undefined) return `${base} ${min}–${max}`;
  if (min !== undefined) return `${base} ≥ ${min}`;
  return base;
}

/** A field's type, as a reader of a JSON file sees it. */
function typeOf(s: JsonSchema): string {
  if (s.$ref) {
    const name = s.$ref.split('/').at(-1)!;
    return `[${name}](#${anchor(name)})`;
  }
  if (s.const !== undefined) return code(JSON.stringify(s.const));
  if (s.enum) return s.enum.map((v) => code(JSON.stringify(v))).join(' or ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.type === 'array') return `${s.items && Object.keys(s.items).length > 0 ? typeOf(s.items) : 'any'}[]`;
  if (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') {
    const values = Object.keys(s.additionalProperties).length > 0 ? typeOf(s.additionalProperties) : 'any';
    return `map of ${values}`;
  }
  if (s.type === 'integer' || s.type === 'number') return numberType(s);
  if (s.type === 'string' && s.format === 'uri') return 'URL';
  if (s.type === 'string' && s.pattern) return `string ${code(s.pattern)}`;
  return s.type ?? 'any';
}

function defaultOf(f: Field): string {
  const value = f.schema.default;
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return '';
  const text = code(JSON.stringify(value));
  return typeof value === 'number' && value >= MIB && value % MIB === 0 && /bytes$/.test(f.path)
    ? `${text} (${value / MIB} MiB)`
    : text;
}

/** The fields of an object schema, depth first: `a`, `a.b`, `list[].c`, `map.*.d`. */
function fields(schema: JsonSchema, prefix = ''): Field[] {
  const out: Field[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix + name;
    out.push({ path, schema: child, required: schema.required?.includes(name) ?? false });
    if (child.properties) out.push(...fields(child, `${path}.`));
    else if (child.items?.properties) out.push(...fields(child.items, `${path}[].`));
    else if (typeof child.additionalProperties === 'object' && child.additionalProperties.properties)
      out.push(...fields(child.additionalProperties, `${path}.*.`));
  }
  return out;
}

function fieldTable(list: Field[], columns: 'config' | 'feed'): string[] {
  const head =
    columns === 'config'
      ? ['| field | type | default | meaning |', '|---|---|---|---|']
      : ['| field | type | required | meaning |', '|---|---|---|---|'];
  const row = (f: Field): string => {
    const third = columns === 'config' ? defaultOf(f) : f.required ? 'yes' : '';
    return `| ${code(f.path)} | ${cell(typeOf(f.schema))} | ${cell(third)} | ${cell(f.schema.description ?? '')} |`;
  };
  return [...head, ...list.map(row)];
}

export function configReference(): string {
  const schema = configSchema() as JsonSchema;
  return [
    GENERATED('src/model/config.ts'),
    '',
    '# Configuration reference: `config/skillpress.json`',
    '',
    'Every field is optional; the default applies when a field is left out. `config/skillpress.schema.json`',
    '(the same schema, for editors) is generated from the same source. `--config dir` reads the file from another folder.',
    '',
    ...fieldTable(fields(schema), 'config'),
    '',
  ].join('\n');
}

/** One section per feed part and per definition the parts refer to, in the order of PUBLISHED_SCHEMAS. */
export function feedReference(): string {
  const defs = new Map<string, JsonSchema>();
  for (const schema of Object.values(PUBLISHED_SCHEMAS)) {
    for (const [name, def] of Object.entries((z.toJSONSchema(schema, { io: 'output' }) as JsonSchema).$defs ?? {}))
      defs.set(name, def);
  }
  const names = [...Object.keys(PUBLISHED_SCHEMAS), ...[...defs.keys()].filter((n) => !(n in PUBLISHED_SCHEMAS))];
  const sections = names.flatMap((name) => {
    const def = defs.get(name)!;
    return [
      `## ${name}`,
      '',
      ...(def.description ? [def.description, ''] : []),
      ...fieldTable(fields(def), 'feed'),
      '',
    ];
  });
  return [
    GENERATED('src/model/feed.ts'),
    '',
    '# Feed reference: `feed/v1`',
    '',
    'The JSON files of a built feed, field by field. Every URL inside the feed is relative to the feed root',
    '(the folder holding `index.json`) and percent-encoded per path segment. The same schemas are published',
    'as JSON Schema beside the feed, in `feed/v1/schemas/<Name>.schema.json`.',
    '',
    ...sections,
  ].join('\n');
}

function ruleRows(rules: Record<string, ValidationRule>): string[] {
  return [
    '| rule | `--strict` | lenient | meaning |',
    '|---|---|---|---|',
    ...Object.entries(rules).map(
      ([id, r]) => `| ${code(id)} | ${r.strict ?? '—'} | ${r.lenient ?? '—'} | ${cell(r.meaning)} |`,
    ),
  ];
}

export function rulesReference(): string {
  return [
    GENERATED('src/load/rules.ts'),
    '',
    '# Validation rules',
    '',
    'Every problem `skillpress validate` and `skillpress build` report while loading skills carries one of these',
    'rule ids, with its severity: `--strict` applies the specification exactly, the default (lenient) mode',
    "follows the specification's client guide. Any error makes `skillpress validate` exit with 1; warnings do not.",
    '',
    ...ruleRows(VALIDATION_RULES),
    '',
    '## Rules the build adds',
    '',
    'Once every skill is loaded, `skillpress build` and `skillpress dev` compare the skills with each other',
    '(`validate` checks each skill on its own, so it does not report these). Both skills of a pair are published.',
    "A pair of two skills imported from peers is counted in the build's summary but not listed: only their registry can change them.",
    '',
    ...ruleRows(BUILD_RULES),
    '',
  ].join('\n');
}

/** Every page, by file name under docs/reference/. */
export const REFERENCE_PAGES: Record<string, () => string> = {
  'config.md': configReference,
  'feed.md': feedReference,
  'rules.md': rulesReference,
};
