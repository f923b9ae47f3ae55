/**
 * Split SKILL.md into YAML front matter and markdown body, and parse the front matter.
 *
 * The split is done here (not by a front-matter library) so every line number we report is a
 * line of SKILL.md as the author sees it. The `yaml` library parses with the YAML 1.2 core
 * schema (no surprise dates or `yes` booleans); duplicate keys are rejected here, in one pass
 * (the library's own check compares every pair of keys: 80,000 keys took 53 s). Front matter
 * is at most MAX_FRONTMATTER_BYTES, checked before parsing.
 *
 * A UTF-8 BOM and CRLF line endings (common from Windows editors) are accepted.
 */
import YAML, { LineCounter, isCollection, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import { errorMessage } from '../lib/errors.ts';
import { plainYamlError } from './yaml-errors.ts';

export type FrontMatterRule =
  'frontmatter-missing' | 'frontmatter-unclosed' | 'frontmatter-size' | 'frontmatter-yaml' | 'frontmatter-not-mapping';

/** Largest front matter read (UTF-16 code units, about bytes): real ones stay under 4 KB. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

export interface FrontMatterError {
  ok: false;
  rule: FrontMatterRule;
  line: number;
  message: string;
}

export interface ParsedSkillMarkdown {
  ok: true;
  /** The front matter as YAML values (strings, numbers, lists, maps). */
  data: Record<string, unknown>;
  /** Markdown after the closing `---` line, with `\n` line endings. */
  body: string;
  /** Line of SKILL.md where the body starts (1-based). */
  bodyLine: number;
  /** Total lines of SKILL.md. */
  lines: number;
  /** SKILL.md line of each top-level key and each `metadata.<key>`, e.g. `{ name: 2, 'metadata.version': 7 }`. */
  fieldLines: Record<string, number>;
  /**
   * The text of scalar values exactly as written, keyed like `fieldLines` (`version: 1.10`
   * gives "1.10", where the YAML value is the number 1.1). Lists of scalars are joined with ", ".
   */
  sourceText: Record<string, string>;
  /** Lines whose unquoted value contained ": " and was quoted to make the YAML parse (lenient only). */
  repairs: Array<{ line: number; field: string; message: string }>;
}

export type FrontMatterResult = ParsedSkillMarkdown | FrontMatterError;

export interface ParseOptions {
  /**
   * Quote top-level values that contain ": " when the YAML does not parse otherwise, as the
   * spec's client guide suggests for skills written for more forgiving parsers.
   */
  repair?: boolean;
}

const FENCE = /^---[ \t]*$/;

/**
 * Split SKILL.md text into its YAML front matter and its markdown body, with the line of every
 * field. Never throws: a missing, unclosed or unparsable front matter is `{ ok: false, rule, line, message }`.
 *
 * @example
 * ```ts
 * import { parseSkillMarkdown } from 'skillpress';
 * const parsed = parseSkillMarkdown('---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n# PDF tools\n');
 * if (parsed.ok) console.log(parsed.data.name, parsed.bodyLine); // 'pdf-tools', 5
 * else console.log(`line ${parsed.line}: ${parsed.message}`);
 * ```
 */
export function parseSkillMarkdown(raw: string, options: ParseOptions = {}): FrontMatterResult {
  const text = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) {
    return {
      ok: false,
      rule: 'frontmatter-missing',
      line: 1,
      message: 'SKILL.md must start with YAML front matter: a "---" line, the fields, then another "---" line',
    };
  }
  const close = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (close < 0) {
    return {
      ok: false,
      rule: 'frontmatter-unclosed',
      line: 1,
      message: 'front matter is not closed: add a "---" line after the last field',
    };
  }
  // Line i of `yamlLines` is line i + 2 of SKILL.md.
  const yamlLines = lines.slice(1, close);
  const firstYamlLine = 2;
  const size = yamlLines.reduce((n, l) => n + l.length + 1, 0);
  if (size > MAX_FRONTMATTER_CHARS) {
    return {
      ok: false,
      rule: 'frontmatter-size',
      line: firstYamlLine,
      message: `front matter is ${size} characters; the limit is ${MAX_FRONTMATTER_CHARS}: keep the fields short and move data into the skill's files`,
    };
  }

  const parsed = parseOrRepair(yamlLines, firstYamlLine, options);
  if (!parsed.ok) return parsed;
  const { doc, lineCounter, repairs } = parsed;
  const data = parsed.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return {
      ok: false,
      rule: 'frontmatter-not-mapping',
      line: firstYamlLine,
      message: 'front matter must be a YAML mapping of fields such as "name: my-skill"',
    };
  }
  return {
    ok: true,
    data: data as Record<string, unknown>,
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
    lines: text.endsWith('\n') ? lines.length - 1 : lines.length,
    ...fieldsAsWritten(doc, lineCounter, firstYamlLine),
    repairs,
  };
}

/**
 * The front matter parsed; when it does not parse, with each top-level value holding ": " quoted
 * (`repairs` says which) if `options.repair`, else the error, naming that value when quoting it
 * was the whole fix.
 */
function parseOrRepair(
  yamlLines: string[],
  firstYamlLine: number,
  options: ParseOptions,
): (YamlResult & { ok: true; repairs: ParsedSkillMarkdown['repairs'] }) | FrontMatterError {
  const parsed = parseYaml(yamlLines.join('\n'));
  if (parsed.ok) return { ...parsed, repairs: [] };
  const fix = quoteColonValues(yamlLines);
  const retried = fix.changed.length > 0 ? parseYaml(fix.lines.join('\n')) : undefined;
  if (retried?.ok && options.repair) {
    const repairs = fix.changed.map((c) => ({
      line: c.index + firstYamlLine,
      field: c.key,
      message: `the value of "${c.key}" contains ": ", which is not valid YAML unquoted; it was read as a quoted string: wrap it in quotes`,
    }));
    return { ...retried, repairs };
  }
  // Quoting a value made it parse: that value is the whole problem, said alone.
  const cause = retried?.ok
    ? `the value of "${fix.changed[0]!.key}" on line ${fix.changed[0]!.index + firstYamlLine} contains ": ": wrap it in quotes`
    : parsed.message;
  return {
    ok: false,
    rule: 'frontmatter-yaml',
    line: (retried?.ok ? fix.changed[0]!.index + 1 : (parsed.line ?? 1)) + firstYamlLine - 1,
    message: `front matter is not valid YAML: ${cause}`,
  };
}

/** The SKILL.md line and the source text of each top-level field and each `metadata.<key>`. */
function fieldsAsWritten(
  doc: Document,
  lineCounter: LineCounter,
  firstYamlLine: number,
): Pick<ParsedSkillMarkdown, 'fieldLines' | 'sourceText'> {
  // Keyed by what the author wrote: a field named "__proto__" or "constructor" is a key like any other.
  const fieldLines: Record<string, number> = Object.create(null) as Record<string, number>;
  const sourceText: Record<string, string> = Object.create(null) as Record<string, string>;
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? firstYamlLine : lineCounter.linePos(offset).line + firstYamlLine - 1;
  const visit = (map: unknown, prefix: string): void => {
    if (!isMap(map)) return;
    for (const item of map.items) {
      const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
      const at = prefix + key;
      fieldLines[at] = lineOf(isScalar(item.key) ? item.key.range?.[0] : undefined);
      const source = sourceOf(item.value);
      if (source !== undefined) sourceText[at] = source;
      if (prefix === '' && key === 'metadata') visit(item.value, 'metadata.');
    }
  };
  visit(doc.contents, '');
  return { fieldLines, sourceText };
}

type YamlResult =
  { ok: true; value: unknown; doc: Document; lineCounter: LineCounter } | { ok: false; line?: number; message: string };

const NESTED_TOO_DEEPLY = 'lists or mappings are nested too deeply';

function parseYaml(source: string): YamlResult {
  const lineCounter = new LineCounter();
  try {
    const doc = YAML.parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: true });
    const error = doc.errors[0];
    if (error) {
      if (error.code === 'RESOURCE_EXHAUSTION')
        return { ok: false, line: error.linePos?.[0]?.line, message: NESTED_TOO_DEEPLY };
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      return { ok: false, ...plainYamlError({ code: error.code, message, line: error.linePos?.[0]?.line }, source) };
    }
    const repeated = repeatedKey(doc);
    if (repeated) {
      const line = repeated.offset === undefined ? undefined : lineCounter.linePos(repeated.offset).line;
      return { ok: false, line, message: `the key "${repeated.key}" appears twice in the same mapping: keep one` };
    }
    // maxAliasCount bounds "billion laughs" alias expansion: skill content is untrusted.
    const value = doc.toJS({ maxAliasCount: 100 }) ?? {};
    return { ok: true, value, doc, lineCounter };
  } catch (err) {
    // The YAML library recurses into nested lists and mappings: a deep enough nesting overflows the stack.
    return { ok: false, message: err instanceof RangeError ? NESTED_TOO_DEEPLY : errorMessage(err) };
  }
}

/** The first key repeated within one mapping, anywhere in the document (one pass, a Set per mapping). */
function repeatedKey(doc: Document): { key: string; offset?: number } | undefined {
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isCollection(node)) continue;
    const keys = new Set<string>();
    for (const item of node.items) {
      if (isPair(item)) {
        const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
        if (isMap(node) && keys.has(key)) return { key, offset: (item.key as Node | null)?.range?.[0] };
        keys.add(key);
        stack.push(item.key, item.value);
      } else stack.push(item);
    }
  }
  return undefined;
}

function sourceOf(node: unknown): string | undefined {
  if (isScalar(node)) return node.source ?? (node.value === null ? '' : String(node.value));
  if (isSeq(node) && node.items.every(isScalar)) return node.items.map((i) => sourceOf(i)!).join(', ');
  return undefined;
}

/** Without trailing spaces and tabs; a loop, as a regex (`[ \t]+$`) is quadratic on a long run of blanks. */
function trimBlanksEnd(s: string): string {
  let end = s.length;
  while (end > 0 && (s[end - 1] === ' ' || s[end - 1] === '\t')) end--;
  return s.slice(0, end);
}

/** Top-level `key: value` lines whose plain value contains ": " (invalid YAML), single-quoted. */
function quoteColonValues(lines: string[]): { lines: string[]; changed: Array<{ index: number; key: string }> } {
  const changed: Array<{ index: number; key: string }> = [];
  const out = lines.map((line, index) => {
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.*)$/.exec(line);
    if (!m) return line;
    const key = m[1]!;
    const value = trimBlanksEnd(m[2]!);
    if (!value.includes(': ') || /^['"[{|>&*!#]/.test(value)) return line;
    changed.push({ index, key });
    return `${key}: '${value.replace(/'/g, "''")}'`;
  });
  return { lines: out, changed };
}
