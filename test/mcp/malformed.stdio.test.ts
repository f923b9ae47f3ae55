/**
 * Malformed input never kills the server: raw lines on stdin (invalid JSON, non-JSON-RPC values,
 * unknown methods, wrong argument types, huge strings, `..` paths) each get an answer, and the
 * server keeps serving afterwards.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, fixtureFeed, NODE, ROOT, type FixtureFeed } from './helpers.ts';

interface Answer {
  id: string | number | null;
  result?: any;
  error?: { code: number; message: string };
}

/** A raw line-oriented session with the server process. */
class RawSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers: Answer[] = [];
  stderr = '';
  #buffer = '';
  #nextId = 1;

  constructor(feed: string) {
    this.child = spawn(NODE, [CLI, 'mcp', '--feed', feed], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.child.stdout.on('data', (d: Buffer) => {
      this.#buffer += d.toString();
      let nl: number;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        // stdout carries only JSON-RPC: every line must parse.
        this.answers.push(JSON.parse(line) as Answer);
      }
    });
  }

  writeLine(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** Sends a request and waits for the answer with its id. */
  async request(method: string, params?: unknown): Promise<Answer> {
    const id = this.#nextId++;
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }));
    return this.waitFor((a) => a.id === id);
  }

  async waitFor(match: (a: Answer) => boolean): Promise<Answer> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const i = this.answers.findIndex(match);
      if (i >= 0) return this.answers.splice(i, 1)[0]!;
      if (this.child.exitCode !== null) throw new Error(`server exited (${this.child.exitCode}): ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`no answer within 15 s; stderr: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Waits for the next answer with id null (errors JSON-RPC cannot attribute to a request). */
  nextAnonymous(): Promise<Answer> {
    return this.waitFor((a) => a.id === null);
  }
}

describe('malformed input', () => {
  let tmp: FixtureFeed;
  let s: RawSession;

  beforeAll(async () => {
    tmp = await fixtureFeed();
    s = new RawSession(tmp.dist);
    const init = await s.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(init.result.serverInfo.name).toBe('skillpress');
    s.writeLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });

  afterAll(async () => {
    if (s && s.child.exitCode === null) {
      const exited = new Promise((resolve) => s.child.once('exit', resolve));
      s.child.stdin.end(); // closing stdin ends the server
      await exited;
    }
    await tmp?.remove();
  });

  test('invalid JSON gets -32700 (parse error)', async () => {
    s.writeLine('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect((await s.nextAnonymous()).error?.code).toBe(-32700);
    s.writeLine('this is not json at all');
    expect((await s.nextAnonymous()).error).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/Parse error/),
    });
  });

  test('JSON that is not a JSON-RPC message gets -32600 (invalid request)', async () => {
    s.writeLine('[1, 2, 3]');
    expect((await s.nextAnonymous()).error?.code).toBe(-32600);
    s.writeLine(JSON.stringify({ jsonrpc: '1.0', id: 77, method: 'tools/list' }));
    expect((await s.waitFor((a) => a.id === 77)).error?.code).toBe(-32600);
  });

  test('unknown methods get -32601 (method not found)', async () => {
    expect((await s.request('frobnicate/everything', {})).error?.code).toBe(-32601);
    expect((await s.request('skills.search', {})).error?.code).toBe(-32601);
  });

  test('wrong argument types and huge strings get answers that name the constraint', async () => {
    const wrongType = await s.request('tools/call', { name: 'skills_search', arguments: { query: 123 } });
    expect(wrongType.result.isError).toBe(true);
    expect(wrongType.result.content[0].text).toMatch(/query/);

    const huge = 'x'.repeat(2 * 1024 * 1024);
    const hugeQuery = await s.request('tools/call', { name: 'skills_search', arguments: { query: huge } });
    expect(hugeQuery.result.isError).toBe(true);
    expect(hugeQuery.result.content[0].text).toMatch(/at most 500 characters/);
    const hugeName = await s.request('tools/call', { name: 'view_skill', arguments: { name: huge } });
    expect(hugeName.result.isError).toBe(true);

    const notObject = await s.request('tools/call', { name: 'view_skill', arguments: 'trino-debug' });
    expect(notObject.error).toMatchObject({ code: -32602, message: expect.stringMatching(/arguments/) });
    const badCursorType = await s.request('skills/list', { cursor: 5 });
    expect(badCursorType.error).toMatchObject({ code: -32602, message: expect.stringMatching(/cursor/) });
    // The SDK answers a resources/read params type error with -32603 (not -32602); it still names the field.
    const badUri = await s.request('resources/read', { uri: 12 });
    expect(badUri.error?.message).toMatch(/uri/);
  });

  test('a line longer than the 16 MiB limit is skipped and answered, not fatal', async () => {
    s.writeLine(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'big',
        method: 'tools/call',
        params: { name: 'skills_search', arguments: { query: 'y'.repeat(17 * 1024 * 1024) } },
      }),
    );
    expect((await s.nextAnonymous()).error?.code).toBe(-32600);
  });

  test('paths with .. never leave the feed', async () => {
    for (const p of [
      '../../../../etc/passwd',
      '../trino-debug/SKILL.md',
      '..',
      'scripts/%2e%2e/%2e%2e/index.json',
      '/etc/passwd',
      'C:\\Windows\\win.ini',
    ]) {
      const r = await s.request('tools/call', {
        name: 'read_skill_file',
        arguments: { name: 'pdf-processing', path: p },
      });
      expect(r.result.isError, p).toBe(true);
    }
    const traversal = await s.request('tools/call', { name: 'view_skill', arguments: { name: '../../index' } });
    expect(traversal.result.content[0].text).toBe(
      'Skill "../../index" not found. Use skills_search to find the correct name.',
    );
    for (const uri of [
      'skill://pdf-processing/../../../etc/passwd',
      'skill://pdf-processing/%2e%2e/%2e%2e/index.json',
      'skill://pdf-processing/a%2f..%2f..%2fx',
      'skill://../etc/passwd',
      'file:///etc/passwd',
    ]) {
      const r = await s.request('resources/read', { uri });
      expect(r.error, uri).toBeDefined();
      expect(JSON.stringify(r)).not.toContain('root:');
    }
    const dir = await s.request('resources/directory/read', { uri: 'skill://pdf-processing/..' });
    expect(dir.error?.code).toBe(-32602);
  });

  test('after all of that the server still serves', async () => {
    const tools = await s.request('tools/list', {});
    expect(tools.result.tools).toHaveLength(5);
    const r = await s.request('tools/call', { name: 'skills_search', arguments: { query: 'trino' } });
    expect(r.result.structuredContent.results[0].name).toBe('trino-debug');
    expect(s.child.exitCode).toBeNull();
  });
});
