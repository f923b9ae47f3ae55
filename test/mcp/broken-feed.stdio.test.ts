/**
 * A feed that cannot load ends `skillpress mcp`: with `cards.json` one byte off, the requests
 * waiting for the feed get an error answer, and the server exits 1 with the reason on stderr
 * while the client still holds stdin open (it used to stay alive, answering nothing).
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CLI, connect, fixtureFeed, NODE, ROOT, type FixtureFeed } from './helpers.ts';

let tmp: FixtureFeed;

beforeAll(async () => {
  tmp = await fixtureFeed();
  const cards = path.join(tmp.feed, 'cards.json');
  const bytes = await readFile(cards);
  const at = bytes.indexOf('Extract');
  bytes[at] = 'e'.charCodeAt(0); // one byte off: the digest in index.json no longer matches
  await writeFile(cards, bytes);
}, 60_000);

afterAll(async () => {
  await tmp?.remove();
});

test('the SDK client gets an error answer, then the server closes the connection itself', async () => {
  const server = await connect(tmp.dist, 'legacy');
  const closed = new Promise<void>((resolve) => (server.client.transport!.onclose = resolve));
  try {
    const result = await server.client.callTool({ name: 'skills_search', arguments: { query: 'pdf' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(
      /cards\.json: sha256 .* does not match the sha256 the feed lists for it/,
    );
    // The client never closes stdin: the server must end on its own, promptly.
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 10_000));
    expect(await Promise.race([closed.then(() => 'ended'), timeout])).toBe('ended');
    expect(server.stderr()).toMatch(/cannot load the feed at .*: cards\.json: sha256/);
  } finally {
    await server.close();
  }
}, 30_000);

test('the process exits 1 with the reason while its stdin stays open', async () => {
  const child = spawn(NODE, [CLI, 'mcp', '--feed', tmp.dist], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) + '\n',
    );
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 10_000));
    expect(await Promise.race([exited, timeout])).toBe(1);
    expect(stderr).toMatch(
      /cannot load the feed at .*cards\.json: sha256 .* does not match the sha256 the feed lists for it/,
    );
  } finally {
    child.kill();
  }
}, 30_000);
