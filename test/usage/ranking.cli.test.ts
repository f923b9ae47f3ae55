/**
 * `skillpress search --best` on a feed with usage figures answers what best_skill answers: the
 * same result, field for field, with each candidate's success rate beside it.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { CLI, connectInProcess, NODE, ROOT } from '../mcp/helpers.ts';
import { QUERY, usageFeeds, type UsageFeeds } from './usage-feeds.ts';

describe('skillpress search --best with usage figures', () => {
  let feeds: UsageFeeds;
  beforeAll(async () => {
    feeds = await usageFeeds();
  });
  afterAll(async () => feeds?.remove());

  const bestSkill = async (feed: string) => {
    const server = await connectInProcess(feed, 'legacy');
    try {
      const r: CallToolResult = await server.client.callTool({
        name: 'best_skill',
        arguments: { query: QUERY, judge: 'rule' },
      });
      return r.structuredContent as Record<string, any>;
    } finally {
      await server.close();
    }
  };

  test('skillpress search --best answers as best_skill does, success rates shown beside the candidates', async () => {
    const mcp = await bestSkill(feeds.measured);
    const run = (...args: string[]) =>
      spawnSync(NODE, [CLI, 'search', QUERY, '--best', '--feed', feeds.measured, ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      });
    const json = JSON.parse(run('--json').stdout);
    // best_skill's result, field for field; the candidates' success rates are the only addition.
    const { candidates, search_time_ms, ...answer } = json;
    const { candidates: mcpCandidates, search_time_ms: mcpTime, ...mcpAnswer } = mcp;
    expect(answer).toEqual(mcpAnswer);
    expect(answer.skill).toMatchObject({ name: 'data-wash', instructions: expect.any(String) });
    expect([typeof search_time_ms, typeof mcpTime]).toEqual(['number', 'number']);
    expect(candidates.map(({ success_rate, ...c }: Record<string, unknown>) => c)).toEqual(mcpCandidates);
    expect(json.candidates.slice(0, 2)).toMatchObject([
      { name: 'data-wash', success_rate: 1 },
      { name: 'data-scrub', success_rate: 0 },
    ]);
    const table = run().stdout;
    expect(table).toMatch(/^Best skill: data-wash \(confidence [\d.]+\)\./);
    expect(table).toMatch(/ success in use\n/);
    expect(table).toMatch(/\n2 +data-scrub .* 0%\n/);
  });
});
