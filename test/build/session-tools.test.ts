/**
 * A BuildSession asks the configured MCP servers (`mcp_servers`) for their tools once: a write
 * through `skillpress mcp --skills` or a save under `skillpress dev` does not wait on every server
 * again (one that never answers costs its whole deadline each time). A skill's tools are still
 * checked on every build, against the tools the servers listed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, BuildSession, type BuildOptions } from '../../src/build.ts';
import { write } from '../feed/fixture.ts';

let tmp: string;
let skills: string;
let server: http.Server;
let requests = 0;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-session-tools-'));
  skills = path.join(tmp, 'skills');
  const md = (tool: string) =>
    `---\nname: notes\ndescription: Take notes with a tool.\nallowed-tools: mcp__notes__${tool}\n---\n# Notes\n`;
  write(skills, 'notes/SKILL.md', md('add_note'));
  // An MCP endpoint that fails every request: counted, and quick to report unreachable.
  server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

const options = (session?: BuildSession): BuildOptions => ({
  skills,
  out: path.join(tmp, 'out'),
  cwd: tmp,
  site: false,
  config: { mcp_servers: { notes: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` } } },
  ...(session ? { session } : {}),
});
const toolsStatus = () =>
  JSON.parse(readFileSync(path.join(tmp, 'out/feed/v1/skills/notes.json'), 'utf8')).summary.needs.tools_status;

describe('a BuildSession and mcp_servers', () => {
  it("asks the servers on the session's first build only, and checks the skills' tools on every build", async () => {
    const session = new BuildSession();
    await build(options(session));
    const asked = requests;
    expect(asked).toBeGreaterThan(0);
    expect(toolsStatus().tools[0]).toMatchObject({ tool: 'add_note', status: 'server_unreachable' });

    write(
      skills,
      'notes/SKILL.md',
      `---\nname: notes\ndescription: Take notes with a tool.\nallowed-tools: mcp__notes__list_notes\n---\n# Notes\n`,
    );
    const again = await build(options(session));
    expect(requests).toBe(asked);
    expect(again.toolsCheck?.servers[0]).toMatchObject({ name: 'notes', status: 'unreachable' });
    expect(toolsStatus().tools[0]).toMatchObject({ tool: 'list_notes', status: 'server_unreachable' });

    // A build of its own (no session) asks again.
    await build(options());
    expect(requests).toBeGreaterThan(asked);
  });
});
