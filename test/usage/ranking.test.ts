/**
 * Ranking by use: best_skill gives a close call to the skill that works when the other keeps
 * failing (and blends its success rate into the confidence); skills_search breaks near ties by
 * use; a catalog without figures ranks exactly as before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { breakTiesByUse, withOutcomes, type Retrieval } from '../../src/route/index.ts';
import { connectInProcess } from '../mcp/helpers.ts';
import { QUERY, usageFeeds, type UsageFeeds } from './usage-feeds.ts';

const structured = (r: CallToolResult) => r.structuredContent as Record<string, any>;

describe('ranking with usage figures', () => {
  let feeds: UsageFeeds;
  let plain: string;
  let measured: string;
  beforeAll(async () => {
    feeds = await usageFeeds();
    ({ plain, measured } = feeds);
  });
  afterAll(async () => feeds?.remove());

  const ask = async (feed: string, name: string, args: Record<string, unknown>) => {
    const server = await connectInProcess(feed, 'legacy');
    try {
      return structured(await server.client.callTool({ name, arguments: args }));
    } finally {
      await server.close();
    }
  };

  test('best_skill: the skill that keeps failing loses the close call', async () => {
    const before = await ask(plain, 'best_skill', { query: QUERY, judge: 'rule' });
    expect(before.candidates.slice(0, 2).map((c: { name: string }) => c.name)).toEqual(['data-scrub', 'data-wash']);
    const after = await ask(measured, 'best_skill', { query: QUERY, judge: 'rule' });
    expect(after.candidates[0].name).toBe('data-wash');
    expect(after.skill?.name).toBe('data-wash');
    expect(after.reason).toMatch(/success rate in use, 100%/);
  });

  test('skills_search: a near tie goes to the skill used most', async () => {
    const before = await ask(plain, 'skills_search', { query: QUERY });
    expect(before.results.slice(0, 2).map((r: { name: string }) => r.name)).toEqual(['data-scrub', 'data-wash']);
    const after = await ask(measured, 'skills_search', { query: QUERY });
    expect(after.results.slice(0, 2).map((r: { name: string }) => r.name)).toEqual(['data-wash', 'data-scrub']);
  });

  test('without figures both steps change nothing', () => {
    const retrieval = {
      request: 'x',
      words: [],
      catalogSize: 2,
      candidates: [
        { id: 'a', score: 2 },
        { id: 'b', score: 1.99 },
      ],
    };
    expect(withOutcomes(retrieval as unknown as Retrieval, () => undefined)).toBe(retrieval);
    const items = [{ s: 3 }, { s: 2.99 }, { s: 1 }];
    expect(
      breakTiesByUse(
        items,
        (i) => i.s,
        () => 0,
      ),
    ).toEqual(items);
    // A clear lead is kept whatever the use.
    expect(
      breakTiesByUse(
        items,
        (i) => i.s,
        (i) => (i.s === 1 ? 100 : 0),
      ),
    ).toEqual(items);
  });
});
