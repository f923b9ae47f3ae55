/**
 * `skillpress usage summarize <files… | folders… | --es URL> [--out usage.json]`: usage events
 * summed up per skill and version (`summarizeUsage`), printed as a table, written as JSON.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, parse, UsageError, type Command } from '../args.ts';
import { InvalidInputError } from '../../lib/errors.ts';
import { FEED_PATH } from '../../lib/layout.ts';
import type { UsageSummary } from '../../usage/index.ts';
import { alignColumns } from '../columns.ts';

const USAGE =
  'skillpress usage summarize <events.jsonl | folder>… [--es URL] [--index name] [--feed dist] [--min-reports n] [--min-reporters n] [--out usage.json] [--json]';

export const usage: Command = {
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parse(
      argv,
      {
        es: { type: 'string' },
        index: { type: 'string' },
        feed: { type: 'string' },
        'min-reports': { type: 'string' },
        'min-reporters': { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
      },
      Infinity,
    );
    const [sub, ...files] = positionals;
    if (sub !== 'summarize')
      throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand: summarize');
    const sources = [...files, ...(values.es ? [values.es] : [])];
    if (sources.length === 0) throw new UsageError('give event files, folders of them, or --es <URL>');
    const minReports = positiveInteger('--min-reports', values['min-reports']);
    const minReporters = positiveInteger('--min-reporters', values['min-reporters']);
    const known = values.feed ? await feedSkillIds(values.feed) : undefined;
    const { summarizeUsage } = await import('../../usage/index.ts');
    const summary = await summarizeUsage(sources, { minReports, minReporters, known, index: values.index });
    if (values.out) await writeFile(values.out, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : report(summary, values.out));
    return EXIT.ok;
  },
};

/** The skill ids of a built feed (a build folder or its `feed/v1`): events for others are reported as unknown. */
async function feedSkillIds(dir: string): Promise<Set<string>> {
  for (const file of [path.join(dir, ...FEED_PATH.split('/'), 'cards.json'), path.join(dir, 'cards.json')]) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let cards: { skills?: Array<{ id: string }> };
    try {
      cards = JSON.parse(text) as typeof cards;
    } catch (err) {
      throw new InvalidInputError(`${file}: not JSON (${err instanceof Error ? err.message : err}): rebuild the feed`);
    }
    return new Set((cards.skills ?? []).map((c) => c.id));
  }
  throw new UsageError(
    `--feed ${dir}: no cards.json there (a build folder or its feed/v1; run \`skillpress build\` first)`,
  );
}

function positiveInteger(flag: string, given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!(Number.isInteger(n) && n > 0)) throw new UsageError(`${flag} must be a positive integer (got "${given}")`);
  return n;
}

const percent = (rate: number | undefined): string => (rate === undefined ? '-' : `${Math.round(rate * 100)}%`);

function skillTable(s: UsageSummary): string[] {
  const rows = Object.entries(s.skills)
    .sort(([, a], [, b]) => b.usage_count - a.usage_count)
    .map(([id, f]) => [
      id,
      String(f.usage_count),
      String(f.outcomes.success),
      String(f.outcomes.failure),
      String(f.outcomes.partial),
      String(f.reporters ?? 0),
      percent(f.success_rate),
      f.rating === undefined ? '-' : `${f.rating} (${f.rating_count})`,
      f.last_used ?? '-',
    ]);
  if (rows.length === 0) return [];
  const header = [
    'skill',
    'uses',
    'success',
    'failure',
    'partial',
    'reporters',
    'success rate',
    'rating (users)',
    'last used',
  ];
  return ['', ...alignColumns([header, ...rows], new Set([1, 2, 3, 4, 5, 6, 7])), ...heldBack(s)];
}

/** Why a skill with reports shows no success rate: the thresholds, when any rate is held back. */
function heldBack(s: UsageSummary): string[] {
  const held = Object.values(s.skills).some((f) => (f.reporters ?? 0) > 0 && f.success_rate === undefined);
  if (!held) return [];
  return [
    `success rate "-": held back until a skill has ${s.min_reports} report(s) from ${s.min_reporters} reporter(s) (--min-reports, --min-reporters)`,
  ];
}

function report(s: UsageSummary, out: string | undefined): string {
  const lines = [`${s.events} event(s) from ${s.sources.join(', ')}`, ...skillTable(s)];
  if (s.update_candidates.length > 0)
    lines.push(
      '',
      'failing most (candidates for an update):',
      ...s.update_candidates.slice(0, 10).map(
        // The rate only where the table publishes it: 1 failure of 1 is not "0%".
        (c) =>
          `  ${c.skill}: ${c.failure} failure(s) of ${c.reports} report(s)` +
          (s.skills[c.skill]?.success_rate !== undefined ? `, success rate ${percent(c.success_rate)}` : ''),
      ),
    );
  const unknown = Object.entries(s.unknown);
  if (unknown.length > 0)
    lines.push('', `not in the catalog (not published): ${unknown.map(([id, n]) => `${id} (${n})`).join(', ')}`);
  if (s.skipped.count > 0)
    lines.push(
      '',
      `skipped ${s.skipped.count} line(s):`,
      ...s.skipped.lines.slice(0, 10).map((l) => `  ${l.source}:${l.line}: ${l.reason}`),
    );
  if (out) lines.push('', `wrote ${out}`);
  return `${lines.join('\n')}\n`;
}
