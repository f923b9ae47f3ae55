/**
 * A build with `analytics.source` publishes the figures: in cards.json, the skill JSON and the
 * `agent_skills` document; events for skills the catalog lacks are reported, not published; a
 * source that cannot be read stops the build, naming it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../../src/build.ts';
import { loadCatalog } from '../../src/load/index.ts';
import { skillDocument } from '../../src/emit/elasticsearch/documents.ts';
import { Card } from '../../src/model/feed.ts';
import { FIXTURE, tempDir, writeSkills } from '../mcp/helpers.ts';
import { FileRecorder, makeEvent, type EventInput } from '../../src/usage/index.ts';

async function writeEvents(file: string, ...events: Array<[string, EventInput]>): Promise<void> {
  const recorder = new FileRecorder(file);
  for (const [user, input] of events) recorder.record(makeEvent(input, { user }));
  await recorder.close();
}

describe('build with analytics.source', () => {
  let tmp: { dir: string; remove: () => Promise<void> };
  let skills: string;
  const configFor = async (name: string, analytics: object): Promise<string> => {
    const dir = path.join(tmp.dir, name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'skillpress.json'), JSON.stringify({ analytics }));
    return dir;
  };
  beforeAll(async () => {
    tmp = await tempDir();
    skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, FIXTURE);
  });
  afterAll(async () => tmp?.remove());

  test('cards, skill JSON and the agent_skills document carry the figures', async () => {
    const events = path.join(tmp.dir, 'events');
    await writeEvents(
      path.join(events, 'a.jsonl'),
      ['u1', { type: 'load', skill: 'pdf-processing', via: 'view_skill', version: '1.2.0' }],
      ['u1', { type: 'load', skill: 'pdf-processing', via: 'best_skill', version: '1.2.0' }],
      ['u1', { type: 'outcome', skill: 'pdf-processing', outcome: 'success', stars: 5 }],
      ['u2', { type: 'outcome', skill: 'pdf-processing', outcome: 'failure', stars: 3 }],
      ['u2', { type: 'load', skill: 'retired-skill', via: 'view_skill' }],
    );
    const config = await configFor('config-ok', { source: events, min_reports: 2 });
    const out = path.join(tmp.dir, 'dist');
    const result = await build({ skills, out, config, site: false });
    expect(result.usage).toMatchObject({ events: 5, skills: 1, unknown: { 'retired-skill': 1 } });
    expect(result.usage!.updateCandidates[0]).toMatchObject({ skill: 'pdf-processing', failure: 1 });

    const cards = JSON.parse(await readFile(path.join(out, 'feed/v1/cards.json'), 'utf8'));
    const pdf = cards.skills.find((c: Card) => c.id === 'pdf-processing');
    expect(pdf.usage).toEqual({
      usage_version: 1,
      registry: 'local',
      usage_count: 2,
      outcomes: { success: 1, failure: 1, partial: 0 },
      reporters: 2,
      success_rate: 0.5,
      rating: 4,
      rating_count: 2,
      last_used: expect.any(String),
    });
    expect(Card.parse(pdf).usage).toEqual(pdf.usage);
    expect(cards.skills.find((c: Card) => c.id === 'trino-debug').usage).toBeUndefined();
    expect(cards.skills.some((c: Card) => c.id === 'retired-skill')).toBe(false);
    const skillJson = JSON.parse(await readFile(path.join(out, 'feed/v1/skills/pdf-processing.json'), 'utf8'));
    expect(skillJson.card.usage).toEqual(pdf.usage);

    const catalog = await loadCatalog(skills);
    const skill = catalog.skills.find((s) => s.id === 'pdf-processing')!;
    skill.usage = pdf.usage;
    expect(skillDocument(skill)).toMatchObject({ rating: 4, usage_count: 2, success_rate: 0.5 });
  });

  test("a relative source is read from the config's folder, wherever the build runs", async () => {
    const config = await configFor('config-relative', { source: 'usage.jsonl', min_reports: 1 });
    await writeEvents(path.join(config, 'usage.jsonl'), [
      'u1',
      { type: 'outcome', skill: 'trino-debug', outcome: 'success', stars: 4 },
    ]);
    // The working directory (the repository running the tests) holds no usage.jsonl.
    const result = await build({ skills, out: path.join(tmp.dir, 'dist-relative'), config, site: false });
    expect(result.usage).toMatchObject({ sources: [path.join(config, 'usage.jsonl')], events: 1, skills: 1 });
  });

  test('analytics.min_reporters holds the success rate back until that many users reported', async () => {
    const config = await configFor('config-reporters', { source: 'usage.jsonl', min_reports: 1, min_reporters: 2 });
    const failures = Array.from({ length: 5 }, (): [string, EventInput] => [
      'u1',
      { type: 'outcome', skill: 'trino-debug', outcome: 'failure' },
    ]);
    await writeEvents(path.join(config, 'usage.jsonl'), ...failures);
    const out = path.join(tmp.dir, 'dist-reporters');
    await build({ skills, out, config, site: false });
    const cards = JSON.parse(await readFile(path.join(out, 'feed/v1/cards.json'), 'utf8'));
    const usage = cards.skills.find((c: Card) => c.id === 'trino-debug').usage;
    expect(usage).toMatchObject({ outcomes: { failure: 5 }, reporters: 1 });
    expect(usage.success_rate).toBeUndefined();
  });

  test('a source of which no line is an event stops the build, and a summary given for the events says so', async () => {
    const events = path.join(tmp.dir, 'for-summary.jsonl');
    await writeEvents(events, ['u1', { type: 'outcome', skill: 'trino-debug', outcome: 'success', stars: 4 }]);
    const { summarizeUsage } = await import('../../src/usage/index.ts');
    const summaryFile = path.join(tmp.dir, 'usage-summary.json');
    await writeFile(summaryFile, `${JSON.stringify(await summarizeUsage([events], {}), null, 2)}\n`);
    const summaryConfig = await configFor('config-summary', { source: summaryFile });
    await expect(
      build({ skills, out: path.join(tmp.dir, 'dist-summary'), config: summaryConfig, site: false }),
    ).rejects.toThrow(
      /usage source .*usage-summary\.json: a usage summary \(what usage summarize --out writes\), not usage events/,
    );
    const garbage = path.join(tmp.dir, 'notes.jsonl');
    await writeFile(garbage, 'hello\nworld\n');
    const garbageConfig = await configFor('config-garbage', { source: garbage });
    await expect(
      build({ skills, out: path.join(tmp.dir, 'dist-garbage'), config: garbageConfig, site: false }),
    ).rejects.toThrow(/usage source .*notes\.jsonl: no line is a usage event \(2 skipped; line 1: /);
  });

  test('a source that cannot be read stops the build, naming it', async () => {
    const config = await configFor('config-missing', { source: path.join(tmp.dir, 'no-such.jsonl') });
    await expect(build({ skills, out: path.join(tmp.dir, 'dist2'), config, site: false })).rejects.toThrow(
      /usage source .*no-such\.jsonl: cannot be read \(ENOENT\)/,
    );
  });
});
