/**
 * Ranking by use: best_skill gives a close call to the skill that works when the other keeps
 * failing (and blends its success rate into the confidence); skills_search breaks near ties by
 * use; a catalog without figures ranks exactly as before.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { build } from '../../src/build.ts';
import { breakTiesByUse, withOutcomes, type Retrieval } from '../../src/route/index.ts';
import { connectInProcess, tempDir, writeSkills, type SkillFiles } from '../mcp/helpers.ts';
import { FileRecorder, makeEvent } from '../../src/usage/index.ts';

const DESCRIPTION = 'Clean messy CSV files: fix delimiters, trim whitespace and remove duplicate rows.';
const SKILLS: Record<string, SkillFiles> = {
  'data-scrub': { 'SKILL.md': `---\nname: data-scrub\ndescription: ${DESCRIPTION}\n---\nFollow the steps.\n` },
  'data-wash': { 'SKILL.md': `---\nname: data-wash\ndescription: ${DESCRIPTION}\n---\nFollow the steps.\n` },
  'pdf-forms': {
    'SKILL.md': `---\nname: pdf-forms\ndescription: Fill PDF forms and merge PDF documents.\n---\nFill the form.\n`,
  },
};
const QUERY = 'clean up my messy CSV files and remove duplicate rows';

const structured = (r: CallToolResult) => r.structuredContent as Record<string, any>;

describe('ranking with usage figures', () => {
  let tmp: { dir: string; remove: () => Promise<void> };
  let plain: string;
  let measured: string;
  beforeAll(async () => {
    tmp = await tempDir();
    const skills = path.join(tmp.dir, 'skills');
    await writeSkills(skills, SKILLS);
    const events = path.join(tmp.dir, 'events.jsonl');
    const recorder = new FileRecorder(events);
    for (let i = 0; i < 10; i++) {
      recorder.record(makeEvent({ type: 'outcome', skill: 'data-scrub', outcome: 'failure' }, { user: `u${i}` }));
      recorder.record(makeEvent({ type: 'outcome', skill: 'data-wash', outcome: 'success' }, { user: `u${i}` }));
    }
    for (let i = 0; i < 5; i++)
      recorder.record(makeEvent({ type: 'load', skill: 'data-wash', via: 'view_skill' }, { user: 'u' }));
    await recorder.close();
    const configs = { plain: {}, measured: { analytics: { source: events } } };
    for (const [name, config] of Object.entries(configs)) {
      const dir = path.join(tmp.dir, `config-${name}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'skillpress.json'), JSON.stringify(config));
      await build({ skills, out: path.join(tmp.dir, name), config: dir, site: false });
    }
    plain = path.join(tmp.dir, 'plain');
    measured = path.join(tmp.dir, 'measured');
  });
  afterAll(async () => tmp?.remove());

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
