/**
 * The one JSON + zod parser for documents skillpress reads from others (feeds, manifests,
 * discovery indexes, config): bounded before parsing (bytes and nesting depth, so a hostile
 * document cannot make `JSON.parse` build gigabytes of nested arrays), then checked against a
 * schema. Errors are InvalidInputErrors that name the document, the JSON path and the rule:
 *
 *   https://peer.example/feed/v1/index.json: skills.3.sha256: must be 64 hex digits (schema)
 *
 * `rule` tells the cases apart: `too-large`, `too-deep`, `invalid-json`, `schema`.
 */
import type { z } from 'zod';
import { InvalidInputError, errorMessage } from './errors.ts';
import { limitText, sizeText } from './size-text.ts';

/** JSON documents skillpress reads are a few levels deep; front matter nests a little more. */
export const MAX_JSON_DEPTH = 64;

export interface JsonLimits {
  /** Most bytes (UTF-8) the document may have. */
  maxBytes?: number;
  /** Deepest nesting of arrays and objects (default MAX_JSON_DEPTH). */
  maxDepth?: number;
}

/** Parse `input` as JSON (no schema), within the limits. `where` names the document in errors. */
export function parseJsonText(input: Uint8Array | string, where: string, limits: JsonLimits = {}): unknown {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (limits.maxBytes !== undefined && size > limits.maxBytes) {
    throw new InvalidInputError(`${where}: ${sizeText(size)}, over ${limitText(limits.maxBytes)} for this document`, {
      rule: 'too-large',
    });
  }
  const text =
    typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  if (nestingDepthExceeds(text, maxDepth)) {
    throw new InvalidInputError(
      `${where}: arrays and objects nested more than ${maxDepth} levels deep; refused before parsing`,
      { rule: 'too-deep' },
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError(`${where}: not valid JSON: ${errorMessage(err)}`, { rule: 'invalid-json', cause: err });
  }
}

/** Parse `input` as JSON and check it against `schema`. */
export function parseJson<S extends z.ZodType>(
  input: Uint8Array | string,
  schema: S,
  where: string,
  limits?: JsonLimits,
): z.infer<S> {
  return checkSchema(parseJsonText(input, where, limits), schema, where);
}

/**
 * `data` checked against `schema`; `at` is the JSON path of `data` inside the document, if not its
 * root; `maxIssues`: how many of its problems the error lists (default 3).
 */
export function checkSchema<S extends z.ZodType>(
  data: unknown,
  schema: S,
  where: string,
  at?: string,
  maxIssues?: number,
): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new InvalidInputError(`${where}: ${describeIssues(parsed.error.issues, at, maxIssues)}`, { rule: 'schema' });
}

/** The first few zod issues as `path: message` (`(root)` for the document itself), joined by `; `. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], at?: string, max = 3): string {
  const shown = issues.slice(0, max).map((issue) => {
    const field = [...(at ? [at] : []), ...issue.path.map(String)].join('.');
    return `${field || '(root)'}: ${issue.message}`;
  });
  const more = issues.length > max ? ` (and ${issues.length - max} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/** Whether arrays/objects nest deeper than `max` anywhere in `text` (brackets inside strings do not count). */
function nestingDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
