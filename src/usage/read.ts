/**
 * Reading usage events: JSON Lines files (a file, several, or a folder of `*.jsonl`) or the
 * Elasticsearch index. A line that is not an event is skipped and counted with its line number;
 * a last line without its newline is a write cut short (or still under way) and skipped too.
 * A source that cannot be read is an error naming it, never an empty source.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InvalidInputError, errorMessage } from '../lib/errors.ts';
import { MAX_NOTE, UsageEvent, USAGE_VERSION } from '../model/usage.ts';

/** A line skipped, where, and why. */
export interface SkippedLine {
  source: string;
  line: number;
  reason: string;
}

export interface ParsedLines {
  events: UsageEvent[];
  skipped: SkippedLine[];
}

/** Events as recorders write them: `at` from toISOString, no field the schema lacks. */
const ISO_UTC = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const COMMON = ['v', 'id', 'at', 'skill', 'version', 'digest', 'client', 'user', 'type'];
const FIELDS = { load: new Set([...COMMON, 'via']), outcome: new Set([...COMMON, 'outcome', 'stars', 'note']) };
const VIA = new Set(['view_skill', 'skills/get', 'resources/read', 'best_skill']);
const OUTCOME = new Set(['success', 'failure', 'partial']);
const str = (x: unknown, max: number, min = 0): boolean => typeof x === 'string' && x.length >= min && x.length <= max;
const optStr = (x: unknown, max: number): boolean => x === undefined || str(x, max);

/**
 * The fast path: true only for events the zod schema (UsageEvent) accepts unchanged — a subset
 * of them, those written the way recorders write them. Anything else goes to the schema, which
 * decides and says why. (Checking a million lines with the schema alone takes most of a summary's time.)
 */
function isPlainEvent(e: Record<string, unknown>): boolean {
  const fields = e.type === 'load' ? FIELDS.load : e.type === 'outcome' ? FIELDS.outcome : undefined;
  if (!fields) return false;
  for (const key in e) if (!fields.has(key)) return false;
  if (e.v !== USAGE_VERSION || !str(e.id, 64, 1) || typeof e.at !== 'string' || !ISO_UTC.test(e.at)) return false;
  if (!str(e.skill, 300, 1) || !optStr(e.version, 100) || !optStr(e.digest, 100)) return false;
  if (!optStr(e.client, 200) || !optStr(e.user, 128)) return false;
  if (e.type === 'load') return VIA.has(e.via as string);
  const stars = e.stars;
  if (stars !== undefined && !(Number.isInteger(stars) && (stars as number) >= 1 && (stars as number) <= 5))
    return false;
  return OUTCOME.has(e.outcome as string) && optStr(e.note, MAX_NOTE);
}

/** One line → an event, or why it is not one. */
export function parseEventLine(line: string): UsageEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    isPlainEvent(value as Record<string, unknown>)
  )
    return value as UsageEvent;
  if (typeof value === 'object' && value !== null && (value as { v?: unknown }).v !== USAGE_VERSION)
    return `unknown event version ${JSON.stringify((value as { v?: unknown }).v)} (this skillpress reads ${USAGE_VERSION})`;
  const parsed = UsageEvent.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.') || 'event'}: ${issue.message}`;
}

/** Whole text (a spool file): every complete line; a torn last line is left out. */
export function parseEventLines(text: string, source = 'spool'): ParsedLines {
  const events: UsageEvent[] = [];
  const skipped: SkippedLine[] = [];
  const lines = text.split('\n');
  const torn = lines.pop();
  if (torn) skipped.push({ source, line: lines.length + 1, reason: 'torn last line (no newline)' });
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const event = parseEventLine(line);
    if (typeof event === 'string') skipped.push({ source, line: i + 1, reason: event });
    else events.push(event);
  });
  return { events, skipped };
}

/** The files a source names: a `.jsonl` file, or a folder's `*.jsonl` files (sorted). */
export async function eventFiles(source: string): Promise<string[]> {
  const st = await stat(source).catch((err: NodeJS.ErrnoException) => {
    throw new InvalidInputError(`usage source ${source}: cannot be read (${err.code ?? err.message})`);
  });
  if (st.isFile()) return [source];
  if (!st.isDirectory()) throw new InvalidInputError(`usage source ${source}: neither a file nor a folder`);
  const names = (await readdir(source)).filter((n) => n.endsWith('.jsonl')).sort();
  return names.map((n) => path.join(source, n));
}

/**
 * Streams one file's events to `onEvent`, line by line (the file is never held whole), and
 * returns the lines skipped.
 */
export async function readEventFile(file: string, onEvent: (event: UsageEvent) => void): Promise<SkippedLine[]> {
  const skipped: SkippedLine[] = [];
  let rest = '';
  let lineNo = 0;
  let events = 0;
  const take = (line: string): void => {
    lineNo++;
    if (line.trim() === '') return;
    const event = parseEventLine(line);
    if (typeof event === 'string') return void skipped.push({ source: file, line: lineNo, reason: event });
    events++;
    onEvent(event);
  };
  try {
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const text = rest + (chunk as string);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        take(text.slice(start, nl));
        start = nl + 1;
      }
      rest = text.slice(start);
    }
  } catch (err) {
    throw new InvalidInputError(
      `usage source ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})`,
    );
  }
  if (rest !== '') skipped.push({ source: file, line: lineNo + 1, reason: TORN });
  if (events === 0 && skipped.some((s) => s.reason !== TORN))
    throw new InvalidInputError(await notEvents(file, skipped));
  return skipped;
}

const TORN = 'torn last line (no newline)';

/**
 * Why a file of which no line is an event is no usage source: most often the summary
 * `usage summarize --out` writes, given where the events were meant. Read on, it would publish a
 * catalog that says "never used" of every skill.
 */
async function notEvents(file: string, skipped: readonly SkippedLine[]): Promise<string> {
  const summary = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .then((json) => json !== null && typeof json === 'object' && 'skills' in json && 'update_candidates' in json)
    .catch(() => false);
  if (summary)
    return `usage source ${file}: a usage summary (what usage summarize --out writes), not usage events: give the events it was made from (the .jsonl files or folder mcp --usage writes), or an Elasticsearch URL`;
  const first = skipped.find((s) => s.reason !== TORN)!;
  return `usage source ${file}: no line is a usage event (${skipped.length} skipped; line ${first.line}: ${first.reason}): give the .jsonl files or folder mcp --usage writes`;
}
