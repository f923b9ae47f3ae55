/**
 * A skill removed from the feed since an agent last saw it: the MCP server answers from the
 * feed's tombstone (changes.json) that it was removed and when, instead of "not found", so an
 * agent that remembered the name stops looking for it under another spelling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { buildFeed, connectInProcess, tempDir, writeSkills, type Connected } from './helpers.ts';

const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Use when the task needs ${name}.\n---\n\n# ${name}\n`;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('a skill the feed removed', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let server: Connected;
  let removedAt: string;

  beforeAll(async () => {
    tmp = await tempDir();
    const skills = path.join(tmp.dir, 'skills');
    const dist = path.join(tmp.dir, 'dist');
    await writeSkills(skills, { kept: { 'SKILL.md': skillMd('kept') }, retired: { 'SKILL.md': skillMd('retired') } });
    await buildFeed(skills, dist);
    await rm(path.join(skills, 'retired'), { recursive: true });
    const feed = await buildFeed(skills, dist); // the build in --out is the previous one: retired gets a tombstone
    const changes = JSON.parse(await readFile(path.join(feed, 'changes.json'), 'utf8')) as {
      changes: Array<{ id: string; change: string; at: string }>;
    };
    removedAt = changes.changes.find((c) => c.id === 'retired' && c.change === 'removed')!.at;
    server = await connectInProcess(dist, 'modern');
  });

  afterAll(async () => {
    await server?.close();
    await tmp?.remove();
  });

  it('view_skill and read_skill_file say it was removed, and when', async () => {
    const expected = `Skill "retired" was removed from this catalog at ${removedAt}. Use skills_search to find another skill for the task.`;
    const view = await server.client.callTool({ name: 'view_skill', arguments: { name: 'retired' } });
    expect(view.isError).toBe(true);
    expect(text(view)).toBe(expected);
    const file = await server.client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'retired', path: 'SKILL.md' },
    });
    expect(text(file)).toBe(expected);
  });

  it('a name never in the feed is still "not found"', async () => {
    const view = await server.client.callTool({ name: 'view_skill', arguments: { name: 'never-here' } });
    expect(text(view)).toMatch(/^Skill "never-here" not found\./);
  });
});
