import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, NODE, tempDir } from '../mcp/helpers.ts';

const run = (args: string[]) =>
  promisify(execFile)(NODE, [CLI, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

const line = (o: object) =>
  `${JSON.stringify({ v: 1, id: Math.random().toString(36).slice(2), at: '2026-01-01T00:00:00.000Z', ...o })}\n`;

describe('skillpress usage summarize', () => {
  let tmp: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => void (tmp = await tempDir('skillpress-usage-cli-')));
  afterAll(async () => tmp?.remove());

  test('prints the table, the failing skills and the skipped lines, and writes usage.json', async () => {
    const file = path.join(tmp.dir, 'events.jsonl');
    await writeFile(
      file,
      line({ type: 'load', skill: 'pdf', via: 'view_skill' }) +
        'garbage\n' +
        line({ type: 'outcome', skill: 'pdf', outcome: 'failure', stars: 2, user: 'a' }),
    );
    const out = path.join(tmp.dir, 'usage.json');
    const r = await run(['usage', 'summarize', file, '--out', out, '--min-reports', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 event\(s\)/);
    expect(r.stdout).toMatch(/pdf: 1 failure\(s\) of 1 report\(s\), success rate 0%$/m);
    expect(r.stdout).toContain(`${file}:2: not JSON`);
    const summary = JSON.parse(await readFile(out, 'utf8'));
    expect(summary.skills.pdf).toMatchObject({ usage_count: 1, success_rate: 0, rating: 2 });
    // Below --min-reports the table shows no rate, and neither does the failing skills' line.
    const few = await run(['usage', 'summarize', file, '--min-reports', '2']);
    expect(few.stdout).toMatch(/^ {2}pdf: 1 failure\(s\) of 1 report\(s\)$/m);
    expect(few.stdout).not.toMatch(/0%/);
    // … and says why its rate is "-".
    expect(few.stdout).toContain(
      'success rate "-": held back until a skill has 2 report(s) from 1 reporter(s) (--min-reports, --min-reporters)',
    );
    expect(r.stdout).not.toContain('success rate "-"');
  });

  test('the table lines its columns up under their headings, rates in percent', async () => {
    const file = path.join(tmp.dir, 'aligned.jsonl');
    await writeFile(
      file,
      line({ type: 'load', skill: 'rotate-a-leaked-service-account-key', via: 'view_skill' }) +
        line({
          type: 'outcome',
          skill: 'rotate-a-leaked-service-account-key',
          outcome: 'success',
          stars: 5,
          user: 'a',
        }) +
        line({ type: 'outcome', skill: 'pdf', outcome: 'partial', user: 'b' }),
    );
    const r = await run(['usage', 'summarize', file, '--min-reports', '1']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('skill '))!;
    const rows = lines.filter((l) => /^(rotate-a-leaked-service-account-key|pdf) /.test(l));
    expect(rows).toHaveLength(2);
    // Each value ends where its heading ends (numbers right-aligned), in every row.
    for (const [heading, values] of [
      ['uses', ['1', '0']],
      ['success rate', ['100%', '50%']],
    ] as const) {
      const end = header.indexOf(heading) + heading.length;
      rows.forEach((row, i) => expect(row.slice(0, end).endsWith(` ${values[i]}`), `${heading} in ${row}`).toBe(true));
    }
  });

  test('--min-reporters holds a rate back until that many users reported; a bad value names the flag', async () => {
    const file = path.join(tmp.dir, 'reporters.jsonl');
    await writeFile(
      file,
      line({ type: 'outcome', skill: 'pdf', outcome: 'failure', user: 'a' }).repeat(3) +
        line({ type: 'outcome', skill: 'pdf', outcome: 'success', user: 'b' }),
    );
    const two = await run(['usage', 'summarize', file, '--min-reports', '1', '--min-reporters', '2', '--json']);
    expect(JSON.parse(two.stdout).skills.pdf).toMatchObject({ reporters: 2, success_rate: 0.5 });
    const three = await run(['usage', 'summarize', file, '--min-reports', '1', '--min-reporters', '3']);
    expect(three.stdout).toMatch(/^ {2}pdf: 3 failure\(s\) of 4 report\(s\)$/m);
    const bad = await run(['usage', 'summarize', file, '--min-reporters', 'two']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--min-reporters must be a positive integer \(got "two"\)/);
  });

  test('a source that cannot be read is an error naming it', async () => {
    const r = await run(['usage', 'summarize', path.join(tmp.dir, 'missing.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing\.jsonl: cannot be read \(ENOENT\)/);
  });

  test('--feed where no build is: a usage error (exit 2); a broken cards.json names the file (exit 1)', async () => {
    const events = path.join(tmp.dir, 'one.jsonl');
    await writeFile(events, line({ type: 'load', skill: 'pdf', via: 'view_skill' }));
    const missing = await run(['usage', 'summarize', events, '--feed', path.join(tmp.dir, 'no-build')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--feed .*no-build: no cards\.json there .*run `skillpress build` first/);
    await writeFile(path.join(tmp.dir, 'cards.json'), '{"skills": [');
    const broken = await run(['usage', 'summarize', events, '--feed', tmp.dir]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/cards\.json: not JSON .*rebuild the feed/);
  });
});
