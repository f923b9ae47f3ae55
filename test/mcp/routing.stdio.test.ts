/**
 * Routing over stdio, in both protocol eras: `skills_search` partial matches and their coverage,
 * `best_skill` one or none with the rule, candidates found by meaning alone, and the sampling path — a client whose sampling handler
 * judges only what the server sent it. A model answer naming a skill that was not shown, garbage,
 * or no answer in time falls back to the rule; a client without sampling gets the rule.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult, CreateMessageRequest } from '@modelcontextprotocol/client';
import { buildFeed, connect, ERAS, tempDir, type Connected } from './helpers.ts';

const FIXTURE_SKILLS = path.join(import.meta.dirname, '../fixtures/routing/skills');
const JUDGE_TIMEOUT_MS = 1500;

type Reply = string | 'hang';

const structured = <T = Record<string, any>>(r: CallToolResult) => r.structuredContent as T;

/** The candidate names the server showed the model: the lines `- name: description`. */
function shown(request: CreateMessageRequest): string[] {
  const text = request.params.messages.map((m) => ('text' in m.content ? m.content.text : '')).join('\n');
  return [...text.matchAll(/^- ([a-z0-9-]+):/gm)].map((m) => m[1]!);
}

describe.each(ERAS)('routing over stdio (%s era)', (era) => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let feed: string;
  let plain: Connected;
  let sampling: Connected;
  /** What the next sampling request is answered with, as a function of the candidates shown. */
  let reply: (candidates: string[]) => Reply = () => 'none';
  const asked: string[][] = [];

  beforeAll(async () => {
    tmp = await tempDir();
    feed = await buildFeed(FIXTURE_SKILLS, path.join(tmp.dir, 'dist'));
    plain = await connect(feed, era);
    sampling = await connect(feed, era, ['--judge-timeout-ms', String(JUDGE_TIMEOUT_MS)], {
      capabilities: { sampling: {} },
    });
    sampling.client.setRequestHandler('sampling/createMessage', async (request) => {
      const candidates = shown(request);
      asked.push(candidates);
      const answer = reply(candidates);
      if (answer === 'hang') await new Promise((resolve) => setTimeout(resolve, JUDGE_TIMEOUT_MS * 3));
      return {
        model: 'test-judge',
        role: 'assistant',
        content: { type: 'text', text: answer === 'hang' ? 'none' : answer },
        stopReason: 'endTurn',
      };
    });
  });

  afterAll(async () => {
    await plain?.close();
    await sampling?.close();
    await tmp?.remove();
  });

  const best = async (client: Connected, query: string) =>
    structured(await client.client.callTool({ name: 'best_skill', arguments: { query } }));

  test('skills_search: partial matches are ranked, each with its matched words and coverage', async () => {
    const out = structured(
      await plain.client.callTool({
        name: 'skills_search',
        arguments: { query: 'my export.csv has broken dates and a slow sql query' },
      }),
    );
    expect(out.words).toEqual(['export', 'csv', 'broken', 'dates', 'slow', 'sql', 'query']);
    expect(out.results.length).toBeGreaterThanOrEqual(2);
    const names = out.results.map((r: { name: string }) => r.name);
    expect(names.slice(0, 2).sort()).toEqual(['spreadsheet-cleanup', 'sql-tuning']);
    for (const r of out.results) {
      expect(r.coverage).toBeGreaterThan(0);
      expect(r.coverage).toBeLessThan(1);
      expect(r.matched.length).toBeGreaterThan(0);
      expect(r.coverage).toBeCloseTo(r.matched.length / out.words.length, 2);
    }
  });

  test('skills_search: a skill found by meaning alone says so, with its description as the excerpt', async () => {
    const result = await plain.client.callTool({
      name: 'skills_search',
      arguments: { query: 'my boss wants a talk for monday, make it look nice' },
    });
    const deck = structured(result).results.find((r: { name: string }) => r.name === 'slide-deck');
    expect(deck).toMatchObject({ coverage: 0, matched: [] });
    expect(deck.excerpt).toBe(deck.description.slice(0, deck.excerpt.length));
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    const line = text.split('\n').find((l) => l.startsWith('- slide-deck '))!;
    expect(line).toMatch(/^- slide-deck \(score [\d.]+, close in meaning; no word in common\): /);
    expect(line).not.toMatch(/Files: /);
  });

  test('skills_search: when no skill shares a word with the request, its head says the results are close in meaning alone', async () => {
    const query = 'keynote visuals for monday boardroom audience';
    const result = await plain.client.callTool({ name: 'skills_search', arguments: { query } });
    const out = structured(result);
    expect(out.total).toBeGreaterThan(0);
    for (const r of out.results) expect(r).toMatchObject({ coverage: 0, matched: [] });
    expect(out.results.map((r: { name: string }) => r.name)).toContain('slide-deck');
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text.split('\n')[0]).toBe(
      `No skill shares a meaningful word with "${query}"; ${out.total} are close to it in meaning alone, the closest ${out.results.length}:`,
    );
    // A request that shares words keeps the usual head.
    const shared = await plain.client.callTool({ name: 'skills_search', arguments: { query: 'slow sql query plans' } });
    expect((shared.content as Array<{ text: string }>)[0]!.text).toMatch(
      /^\d+ skill\(s\) match "slow sql query plans"/,
    );
  });

  test('best_skill without sampling: the rule decides, one skill or none', async () => {
    const one = await best(plain, 'flaky tests that fail intermittently in CI');
    expect(one).toMatchObject({ decided_by: 'rule', skill: { name: 'flaky-tests' } });
    const none = await best(plain, 'transcribe this podcast episode to text');
    expect(none).toMatchObject({ decided_by: 'rule', skill: null });
  });

  test('best_skill with sampling: the model judges the candidates it was shown', async () => {
    asked.length = 0;
    reply = (candidates) => (candidates.includes('docker-images') ? 'docker-images' : 'none');
    const r = await best(sampling, 'our container image is 2GB, make it smaller');
    expect(r).toMatchObject({ decided_by: 'model', skill: { name: 'docker-images' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(r.candidates.map((c: { name: string }) => c.name));
    expect(r.reason).toMatch(/client's model chose "docker-images"/);

    reply = () => 'none';
    expect(await best(sampling, 'our container image is 2GB, make it smaller')).toMatchObject({
      decided_by: 'model',
      skill: null,
    });
  });

  test('best_skill with sampling: a skill the request shares no word with reaches the model by meaning', async () => {
    reply = (candidates) => (candidates.includes('slide-deck') ? 'slide-deck' : 'none');
    const query = 'my boss wants a talk for monday, make it look nice';
    const r = await best(sampling, query);
    expect(r).toMatchObject({ decided_by: 'model', skill: { name: 'slide-deck' } });
    expect(r.candidates.find((c: { name: string }) => c.name === 'slide-deck')).toMatchObject({
      coverage: 0,
      meaning: expect.any(Number),
    });
    // The rule needs the request's words: meaning alone also brings skills near requests none fits.
    expect(await best(plain, query)).toMatchObject({ decided_by: 'rule', skill: null });
  });

  test('best_skill says none with the nearest skills, for the agent to read one that fits', async () => {
    const query = 'my boss wants a talk for monday, make it look nice';
    const result = await plain.client.callTool({ name: 'best_skill', arguments: { query } });
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    const listed = [...text.matchAll(/^- ([a-z0-9-]+): (.+)$/gm)];
    const out = structured(result);
    expect(out.skill).toBeNull();
    expect(text).toMatch(/Nearest skills; if one is what the user asked for, read it with view_skill/);
    expect(listed.map((m) => m[1])).toEqual(out.candidates.slice(0, 3).map((c: { name: string }) => c.name));
    expect(listed.map((m) => m[1])).toContain('slide-deck');
    // Each with the start of what it says it is for, on one line.
    const deck = structured(
      await plain.client.callTool({ name: 'view_skill', arguments: { name: 'slide-deck', detail: 'card' } }),
    );
    expect(
      listed
        .find((m) => m[1] === 'slide-deck')![2]!
        .startsWith(deck.skill.description.replace(/\s+/g, ' ').slice(0, 40)),
    ).toBe(true);
  });

  test.each([
    ['a skill that was not a candidate', (): Reply => 'api-docs'],
    ['garbage', (): Reply => 'I think you should probably use the docker one!'],
    ['no answer in time', (): Reply => 'hang'],
  ])('best_skill with sampling: %s falls back to the rule', async (_, answer) => {
    reply = answer;
    const r = await best(sampling, 'flaky tests that fail intermittently in CI');
    expect(r).toMatchObject({ decided_by: 'rule', skill: { name: 'flaky-tests' } });
    expect(r.reason).toMatch(/^The rule decided \(/);
  });

  test('best_skill judge=rule never asks the model', async () => {
    asked.length = 0;
    reply = (candidates) => (candidates.includes('release-notes') ? 'release-notes' : 'none');
    const r = await best(sampling, 'release notes from merged pull requests');
    expect(r.decided_by).toBe('model');
    const ruled = structured(
      await sampling.client.callTool({
        name: 'best_skill',
        arguments: { query: 'release notes from merged pull requests', judge: 'rule' },
      }),
    );
    expect(ruled).toMatchObject({ decided_by: 'rule', skill: { name: 'release-notes' } });
    expect(asked).toHaveLength(1);
  });
});
