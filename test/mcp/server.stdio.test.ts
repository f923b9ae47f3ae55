/**
 * End to end: `skillpress mcp` spawned over stdio, driven by the real SDK client, once per
 * protocol era (2025-11-25 `initialize`, 2026-07-28 `server/discover`): the handshake, a
 * rebuilt feed reloaded without a restart. The tools themselves: server.test.ts (in process).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  buildFeed,
  connect,
  ERAS,
  fixtureFeed,
  MODERN_REVISION,
  writeSkills,
  type Connected,
  type FixtureFeed,
} from './helpers.ts';

const structured = <T = Record<string, any>>(r: CallToolResult) => r.structuredContent as T;

describe.each(ERAS)('skillpress mcp over stdio (%s era)', (era) => {
  let tmp: FixtureFeed;
  let dist: string;
  let server: Connected;
  const changed = { tools: 0, prompts: 0, resources: 0 };

  beforeAll(async () => {
    tmp = await fixtureFeed();
    dist = tmp.dist;
    const count = (kind: keyof typeof changed) => ({
      autoRefresh: false,
      debounceMs: 0,
      onChanged: () => void changed[kind]++,
    });
    server = await connect(dist, era, ['--page-size', '2', '--watch-ms', '100'], {
      listChanged: { tools: count('tools'), prompts: count('prompts'), resources: count('resources') },
    });
  });

  afterAll(async () => {
    await server?.close();
    await tmp?.remove();
  });

  test('handshake: the era, the skills extension capability and instructions that say to search first', async () => {
    const { client } = server;
    if (era === 'modern') expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
    else expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    const caps = client.getServerCapabilities()!;
    expect(caps.tools?.listChanged).toBe(true);
    expect(caps.prompts?.listChanged).toBe(true);
    expect(caps.resources?.listChanged).toBe(true);
    expect((caps as { extensions?: Record<string, unknown> }).extensions?.['io.modelcontextprotocol/skills']).toEqual({
      directoryRead: true,
    });
    expect(client.getInstructions()).toMatch(/skills_search/);
    expect(client.getInstructions()).toMatch(/view_skill/);
  });

  test('a rebuilt feed is reloaded without a restart and clients are told its resources changed (its tools and prompts did not)', async () => {
    expect(structured(await server.client.callTool({ name: 'skills_list', arguments: {} })).total).toBe(3);
    await writeSkills(path.join(tmp.dir, 'skills'), {
      'csv-cleaner': {
        'SKILL.md':
          '---\nname: csv-cleaner\ndescription: Clean and normalise messy CSV exports.\n---\nNormalise headers, trim cells, drop empty rows.\n',
      },
    });
    await buildFeed(path.join(tmp.dir, 'skills'), dist);
    await expect.poll(() => changed.resources, { timeout: 15_000, interval: 100 }).toBeGreaterThan(0);
    expect({ tools: changed.tools, prompts: changed.prompts }).toEqual({ tools: 0, prompts: 0 });
    const all = structured(await server.client.callTool({ name: 'skills_list', arguments: {} }));
    expect(all.total).toBe(4);
    const hit = structured(await server.client.callTool({ name: 'skills_search', arguments: { query: 'csv' } }));
    expect(hit.results[0].name).toBe('csv-cleaner');
    expect(server.stderr()).toMatch(/feed changed: now 4 skill/);
  });
});
