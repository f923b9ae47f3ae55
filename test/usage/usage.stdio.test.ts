/**
 * `skillpress mcp --usage <file>` over stdio with the SDK client: loads and outcomes are
 * recorded (no request text), bad reports get clear tool errors, two servers appending to one
 * file lose nothing, and a server without --usage lists no report_skill_outcome.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, NODE, ROOT, fixtureFeed, type FixtureFeed } from '../mcp/helpers.ts';
import { parseEventLines, summarizeUsage } from '../../src/usage/index.ts';

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** `stderr`: collects what the server logs. */
async function spawnServer(feed: string, args: string[], cache: string, stderr?: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: NODE,
    args: [CLI, 'mcp', '--feed', feed, ...args],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache, SKILLPRESS_USAGE_USER: 'tester' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr?.push(chunk.toString()));
  const client = new Client({ name: 'usage-test-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('skillpress mcp --usage <file>', () => {
  let tmp: FixtureFeed;
  beforeAll(async () => void (tmp = await fixtureFeed()));
  afterAll(async () => tmp?.remove());

  test('records loads and outcomes, and reports bad input as tool errors', async () => {
    const file = path.join(tmp.dir, 'usage.jsonl');
    const client = await spawnServer(tmp.dist, ['--usage', file], path.join(tmp.dir, 'cache'));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('report_skill_outcome');
      await client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing' } });
      await client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing', detail: 'card' } });
      const best = await client.callTool({
        name: 'best_skill',
        arguments: { query: 'My Trino query is running slow' },
      });
      expect(best.structuredContent).toMatchObject({ skill: { name: 'trino-debug' } });
      await client.readResource({ uri: 'skill://expense-policy/SKILL.md' });
      await client.request(
        { method: 'skills/get', params: { uri: 'skill://expense-policy/SKILL.md' } },
        z.looseObject({ skill: z.looseObject({}) }),
      );
      const ok = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'trino-debug', outcome: 'success', stars: 4, note: 'worked' },
      });
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ recorded: true, skill: 'trino-debug' });

      const badStars = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'trino-debug', outcome: 'success', stars: 7 },
      });
      expect(badStars.isError).toBe(true);
      expect(text(badStars)).toMatch(/stars must be a whole number from 1 to 5/);
      const unknown = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'pdf-procesing', outcome: 'failure' },
      });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toMatch(/Skill "pdf-procesing" not found\. Did you mean "pdf-processing"/);
      const longNote = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'trino-debug', outcome: 'partial', note: 'x'.repeat(501) },
      });
      expect(longNote.isError).toBe(true);
      expect(text(longNote)).toMatch(/note is at most 500 characters/);
    } finally {
      await client.close();
    }

    const raw = await readFile(file, 'utf8');
    expect(raw).not.toContain('Trino query is running slow'); // no request text, ever
    const { events, skipped } = parseEventLines(raw);
    expect(skipped).toEqual([]);
    expect(events.map((e) => [e.type, e.skill, e.type === 'load' ? e.via : e.outcome])).toEqual([
      ['load', 'pdf-processing', 'view_skill'],
      ['load', 'trino-debug', 'best_skill'],
      ['load', 'expense-policy', 'resources/read'],
      ['load', 'expense-policy', 'skills/get'],
      ['outcome', 'trino-debug', 'success'],
    ]);
    const first = events[0]!;
    expect(first).toMatchObject({
      version: '1.2.0',
      client: 'usage-test-client',
      digest: expect.stringMatching(/^sha256:/),
    });
    expect(first.user).toMatch(/^[0-9a-f]{32}$/);
    expect(raw).not.toContain('tester');

    const summary = await summarizeUsage([file], { minReports: 1 });
    expect(summary.skills['trino-debug']).toMatchObject({
      usage_count: 1,
      success_rate: 1,
      rating: 4,
      rating_count: 1,
    });
  });

  test('two servers appending to one file at once lose no event', async () => {
    const file = path.join(tmp.dir, 'shared.jsonl');
    const cache = path.join(tmp.dir, 'cache');
    const clients = await Promise.all([0, 1].map(() => spawnServer(tmp.dist, ['--usage', file], cache)));
    const calls = 150;
    try {
      await Promise.all(
        clients.flatMap((client) =>
          Array.from({ length: calls }, () =>
            client.callTool({ name: 'view_skill', arguments: { name: 'expense-policy' } }),
          ),
        ),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const { events, skipped } = parseEventLines(await readFile(file, 'utf8'));
    expect(skipped).toEqual([]);
    expect(events).toHaveLength(2 * calls);
    expect(new Set(events.map((e) => e.id)).size).toBe(2 * calls);
  });

  test('--usage <folder> records into usage.jsonl there, as usage summarize reads a folder', async () => {
    const folder = path.join(tmp.dir, 'events');
    await mkdir(folder);
    const client = await spawnServer(tmp.dist, ['--usage', folder], path.join(tmp.dir, 'cache'));
    try {
      const ok = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'trino-debug', outcome: 'partial' },
      });
      expect(ok.structuredContent).toMatchObject({ recorded: true });
    } finally {
      await client.close();
    }
    const { events } = parseEventLines(await readFile(path.join(folder, 'usage.jsonl'), 'utf8'));
    expect(events).toMatchObject([{ type: 'outcome', skill: 'trino-debug', outcome: 'partial' }]);
  });

  test('a report the server cannot write is a tool error that says so, not "recorded"', async () => {
    // A path below a regular file: no one can create it, root included.
    const blocker = path.join(tmp.dir, 'not-a-folder');
    await writeFile(blocker, 'x');
    const stderr: string[] = [];
    const client = await spawnServer(
      tmp.dist,
      ['--usage', path.join(blocker, 'usage.jsonl')],
      path.join(tmp.dir, 'cache'),
      stderr,
    );
    try {
      const lost = await client.callTool({
        name: 'report_skill_outcome',
        arguments: { name: 'trino-debug', outcome: 'success' },
      });
      expect(lost.isError).toBe(true);
      expect(lost.structuredContent).toMatchObject({ recorded: false, skill: 'trino-debug' });
      expect(text(lost)).toMatch(
        /^Not recorded: the server could not keep the report \(cannot append to \S+not-a-folder\/usage\.jsonl: .*(ENOTDIR|EEXIST)/,
      );
      // The server said so when it started, before any report.
      expect(stderr.join('')).toMatch(/usage: cannot append to \S+not-a-folder\/usage\.jsonl: .*(ENOTDIR|EEXIST)/);
    } finally {
      await client.close();
    }
  });

  test('without --usage the server lists no report_skill_outcome', async () => {
    const client = await spawnServer(tmp.dist, [], path.join(tmp.dir, 'cache'));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).not.toContain('report_skill_outcome');
      expect(tools).toContain('view_skill');
    } finally {
      await client.close();
    }
  });
});
