/**
 * SKILL.md as the authoring calls write it: composed from fields for a new skill, or edited in
 * place for an update (the YAML document is edited, so the author's comments, order and quoting
 * of every other field are kept).
 */
import YAML from 'yaml';
import { InvalidInputError } from '../lib/errors.ts';

const FENCE = /^---[ \t]*$/;

/** A new SKILL.md: front matter from the fields (metadata values as strings, as the specification wants), then the body. */
export function composeSkillMarkdown(fields: {
  name: string;
  description: string;
  body: string;
  metadata?: Record<string, string>;
}): string {
  const data: Record<string, unknown> = { name: fields.name, description: fields.description };
  if (fields.metadata && Object.keys(fields.metadata).length > 0) data.metadata = { ...fields.metadata };
  return `---\n${YAML.stringify(data, { lineWidth: 0 })}---\n${withFinalNewline(fields.body.replace(/^\n+/, ''))}`;
}

/** Splits SKILL.md into its front matter text and its body (`\n` line endings); undefined when it has no closed front matter. */
export function splitSkillMarkdown(raw: string): { yaml: string; body: string } | undefined {
  const lines = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n').split('\n');
  if (!FENCE.test(lines[0] ?? '')) return undefined;
  const close = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (close < 0) return undefined;
  return { yaml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

/** The version a skill's front matter gives: `metadata.version`, else a top-level `version` (registry field). */
export function versionOf(raw: string): string | undefined {
  const split = splitSkillMarkdown(raw);
  if (!split) return undefined;
  const data = YAML.parse(split.yaml) as { metadata?: { version?: unknown }; version?: unknown } | null;
  const v = data?.metadata?.version ?? data?.version;
  return v === undefined || v === null ? undefined : String(v);
}

/**
 * SKILL.md with a new description, body and version. The version is written to
 * `metadata.version` (moved there from a top-level `version`, which the specification does not define).
 */
export function editSkillMarkdown(
  raw: string,
  edit: { description?: string; body?: string; version: string },
  where = 'SKILL.md',
): string {
  const split = splitSkillMarkdown(raw);
  if (!split) throw new InvalidInputError(`${where}: has no front matter between "---" lines; fix it by hand first`);
  const doc = YAML.parseDocument(split.yaml);
  if (doc.errors.length > 0 || !YAML.isMap(doc.contents))
    throw new InvalidInputError(`${where}: its front matter is not valid YAML fields; fix it by hand first`);
  if (edit.description !== undefined) setDescription(doc, edit.description);
  if (doc.has('version')) doc.delete('version');
  const metadata = doc.get('metadata');
  if (metadata !== undefined && !YAML.isMap(metadata))
    throw new InvalidInputError(`${where}: metadata is not a mapping; fix it by hand first`);
  doc.setIn(['metadata', 'version'], edit.version);
  // Flow lists and maps keep their padding as written: `[MIT]` stays `[MIT]`, `[ MIT ]` stays so.
  const yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: /[[{] \S/.test(split.yaml) });
  const body = edit.body !== undefined ? withFinalNewline(edit.body.replace(/^\n+/, '')) : split.body;
  return `---\n${yaml}---\n${body}`;
}

/** Sets the description; one missing (the skill did not load without it) goes right after the name, where readers look. */
function setDescription(doc: YAML.Document, description: string): void {
  const items = (doc.contents as YAML.YAMLMap).items;
  if (doc.has('description') || !doc.has('name')) return void doc.set('description', description);
  const at = items.findIndex((pair) => YAML.isScalar(pair.key) && pair.key.value === 'name');
  items.splice(at + 1, 0, doc.createPair('description', description));
}

const withFinalNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * Whether version `a` comes after `b` (integers, or dotted numbers such as semver, a leading `v`
 * and a pre-release or build suffix aside); undefined when either is neither. Unlike
 * `compareVersions` (./history.ts), which orders any two stored versions, it says when a string is
 * no version at all.
 */
export function versionAfter(a: string, b: string): boolean | undefined {
  const parts = (v: string): number[] | undefined =>
    /^v?(\d+(?:\.\d+)*)(?:[-+].*)?$/.exec(v.trim())?.[1]!.split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  if (!x || !y) return undefined;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return false;
}

/**
 * The next version: an integer counts up by one; a semver (`1.4.2`, `v2.0.0-rc.1`) has its patch
 * part raised (pre-release and build parts dropped); none counts as version 1.
 */
export function nextVersion(current: string | undefined): string {
  if (current === undefined || current.trim() === '') return '2';
  const v = current.trim();
  if (/^\d+$/.test(v)) return String(Number(v) + 1);
  const semver = /^(v?)(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v);
  if (semver) return `${semver[1]}${semver[2]}.${semver[3]}.${Number(semver[4]) + 1}`;
  const dotted = /^(v?)((?:\d+\.)*)(\d+)$/.exec(v);
  if (dotted) return `${dotted[1]}${dotted[2]}${Number(dotted[3]) + 1}`;
  throw new InvalidInputError(
    `metadata.version "${v}" is neither an integer nor a semantic version (1.2.3): set it to one (for example "1") and update again`,
    { rule: 'version-format' },
  );
}
