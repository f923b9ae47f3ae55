import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileRecorder, makeEvent, summarizeUsage, userHash, type EventInput } from '../../src/usage/index.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillpress-usage-'));
  dirs.push(dir);
  return path.join(dir, 'usage.jsonl');
}

async function record(file: string, user: string, ...inputs: EventInput[]): Promise<void> {
  const recorder = new FileRecorder(file);
  for (const input of inputs) recorder.record(makeEvent(input, { user: userHash(user, 'salt') }));
  await recorder.close();
}

const load = (skill: string, version?: string): EventInput => ({ type: 'load', skill, via: 'view_skill', version });
const outcome = (skill: string, o: 'success' | 'failure' | 'partial', stars?: number): EventInput => ({
  type: 'outcome',
  skill,
  outcome: o,
  ...(stars ? { stars } : {}),
});

describe('usage files and their summary', () => {
  it('counts uses, outcomes and each user’s latest stars, per version and in total', async () => {
    const file = tempFile();
    await record(
      file,
      'ann',
      load('pdf', '1.0'),
      load('pdf', '2.0'),
      outcome('pdf', 'success', 2),
      outcome('pdf', 'success', 4),
    );
    await record(file, 'bob', load('pdf', '2.0'), outcome('pdf', 'failure', 1), outcome('pdf', 'partial'));
    const summary = await summarizeUsage([file], { minReports: 4 });
    const pdf = summary.skills.pdf!;
    expect(pdf.usage_count).toBe(3);
    expect(pdf.outcomes).toEqual({ success: 2, failure: 1, partial: 1 });
    expect(pdf.success_rate).toBe(0.625); // (2 + 0.5) / 4
    expect(pdf.rating).toBe(2.5); // ann's latest 4, bob's 1
    expect(pdf.rating_count).toBe(2);
    expect(pdf.versions['2.0']!.usage_count).toBe(2);
    expect(pdf.versions['1.0']!.usage_count).toBe(1);
    expect(summary.update_candidates.map((c) => c.skill)).toEqual(['pdf']);
  });

  it('shows no success rate below the minimum number of reports', async () => {
    const file = tempFile();
    await record(file, 'ann', outcome('pdf', 'success'), outcome('pdf', 'failure'));
    const summary = await summarizeUsage([file], { minReports: 3 });
    expect(summary.skills.pdf!.success_rate).toBeUndefined();
    expect(summary.skills.pdf!.outcomes.failure).toBe(1);
  });

  it('counts a flood of stars from one user once', async () => {
    const file = tempFile();
    const flood = Array.from({ length: 1000 }, () => outcome('pdf', 'success', 1));
    await record(file, 'mallory', ...flood);
    await record(file, 'ann', outcome('pdf', 'success', 5));
    const pdf = (await summarizeUsage([file])).skills.pdf!;
    expect(pdf.rating).toBe(3);
    expect(pdf.rating_count).toBe(2);
  });

  it('weighs each reporter once in the success rate, however often they report', async () => {
    const file = tempFile();
    await record(file, 'mallory', ...Array.from({ length: 50 }, () => outcome('pdf', 'failure')));
    await record(file, 'ann', outcome('pdf', 'success'), outcome('pdf', 'partial'));
    await record(file, 'bob', outcome('pdf', 'success'));
    const pdf = (await summarizeUsage([file])).skills.pdf!;
    expect(pdf.outcomes).toEqual({ success: 2, failure: 50, partial: 1 });
    expect(pdf.reporters).toBe(3);
    expect(pdf.success_rate).toBe(0.583); // (0 + 0.75 + 1) / 3, where counting reports would give 0.047
  });

  it('counts each report without a user as a reporter of its own', async () => {
    const file = tempFile();
    const recorder = new FileRecorder(file);
    for (const o of ['success', 'failure', 'failure'] as const) recorder.record(makeEvent(outcome('pdf', o), {}));
    await recorder.close();
    const pdf = (await summarizeUsage([file], { minReports: 1 })).skills.pdf!;
    expect(pdf.reporters).toBe(3);
    expect(pdf.success_rate).toBe(0.333);
  });

  it('shows no success rate below the minimum number of reporters', async () => {
    const file = tempFile();
    await record(file, 'mallory', ...Array.from({ length: 5 }, () => outcome('pdf', 'failure')));
    const alone = await summarizeUsage([file], { minReporters: 2 });
    expect(alone.skills.pdf!.success_rate).toBeUndefined();
    expect(alone.min_reporters).toBe(2);
    await record(file, 'ann', outcome('pdf', 'success'));
    expect((await summarizeUsage([file], { minReporters: 2 })).skills.pdf!.success_rate).toBe(0.5);
  });

  it('skips malformed lines and a torn last line, naming their line numbers', async () => {
    const file = tempFile();
    await record(file, 'ann', load('pdf'));
    appendFileSync(file, 'not json\n{"v":1,"type":"outcome","skill":"pdf","outcome":"great"}\n');
    await record(file, 'ann', load('pdf'));
    appendFileSync(file, '{"v":1,"type":"load","sk'); // a write cut short
    const summary = await summarizeUsage([file]);
    expect(summary.skills.pdf!.usage_count).toBe(2);
    expect(summary.skipped.count).toBe(3);
    expect(summary.skipped.lines.map((l) => [l.line, l.reason.split(' ')[0]])).toEqual([
      [2, 'not'],
      [3, 'id:'],
      [5, 'torn'],
    ]);
  });

  it('reports events of skills the catalog does not have instead of publishing them', async () => {
    const file = tempFile();
    await record(file, 'ann', load('pdf'), load('gone'), load('gone'));
    const summary = await summarizeUsage([file], { known: new Set(['pdf']) });
    expect(Object.keys(summary.skills)).toEqual(['pdf']);
    expect(summary.unknown).toEqual({ gone: 2 });
  });

  it('stops on a source that cannot be read, naming it', async () => {
    const missing = path.join(path.dirname(tempFile()), 'nope.jsonl');
    await expect(summarizeUsage([missing])).rejects.toThrow(/nope\.jsonl: cannot be read \(ENOENT\)/);
  });

  it('reads a folder of .jsonl files', async () => {
    const file = tempFile();
    await record(file, 'ann', load('pdf'));
    writeFileSync(path.join(path.dirname(file), 'b.jsonl'), readFileSync(file));
    expect((await summarizeUsage([path.dirname(file)])).skills.pdf!.usage_count).toBe(2);
  });
});

describe('the fast path of reading events agrees with the schema', () => {
  const good = { v: 1, id: 'x', at: '2026-01-01T00:00:00.000Z', skill: 'pdf', type: 'outcome', outcome: 'success' };
  const cases: Array<[string, object]> = [
    ['valid', good],
    ['stars 0', { ...good, stars: 0 }],
    ['stars 2.5', { ...good, stars: 2.5 }],
    ['stars "3"', { ...good, stars: '3' }],
    ['month 13', { ...good, at: '2026-13-01T00:00:00.000Z' }],
    ['an offset', { ...good, at: '2026-01-01T00:00:00+02:00' }],
    ['an extra field', { ...good, request: 'secret' }],
    ['empty skill', { ...good, skill: '' }],
    ['load without via', { ...good, type: 'load' }],
    ['note too long', { ...good, note: 'x'.repeat(501) }],
  ];
  it.each(cases)('%s', async (_label, event) => {
    const { parseEventLine } = await import('../../src/usage/read.ts');
    const { UsageEvent } = await import('../../src/model/usage.ts');
    const schema = UsageEvent.safeParse(event);
    const read = parseEventLine(JSON.stringify(event));
    expect(typeof read !== 'string').toBe(schema.success);
    if (schema.success) expect(read).toEqual(schema.data);
  });
});
