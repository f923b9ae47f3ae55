/**
 * The tools check against real MCP servers: a stdio server and a Streamable HTTP server (on
 * 127.0.0.1) built with the MCP SDK, plus servers that hang, crash, answer garbage or list
 * 100,000 tools. Every server the check starts is stopped after it, its process group included.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { loadCatalog } from '../../src/load/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { checkTools } from '../../src/tools-check/index.ts';
import { CLI, NODE } from '../mcp/helpers.ts';

const SERVER = path.join(import.meta.dirname, 'fixtures/mcp-server.mjs');
const stdio = (...args: string[]) => ({ command: NODE, args: [SERVER, ...args] });

/** A Streamable HTTP MCP server on 127.0.0.1 with tools `fetch_page` and `search_web` (stateless, JSON answers). */
async function startHttpServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const mcp = new McpServer({ name: 'http-fixture', version: '1' }, { capabilities: { tools: {} } });
    for (const name of ['fetch_page', 'search_web'])
      mcp.registerTool(name, { description: name }, async () => ({ content: [] }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
    await mcp.close();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function writeSkill(root: string, name: string, frontmatter: string): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(
    path.join(root, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Test skill ${name}.\n${frontmatter}\n---\n# ${name}\n`,
  );
}

let dir: string;
let skillsDir: string;
let httpServer: Awaited<ReturnType<typeof startHttpServer>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillpress-tools-'));
  skillsDir = path.join(dir, 'skills');
  writeSkill(
    skillsDir,
    'issues',
    'allowed-tools: Read Bash(git:*) mcp__gh__create_issue mcp__gh__creat_isue mcp__nope__x\nrequires:\n  mcp: [gh]',
  );
  writeSkill(skillsDir, 'web', 'allowed-tools: mcp__web__fetch_page mcp__web__crawl');
  writeSkill(
    skillsDir,
    'broken',
    'allowed-tools: mcp__hangs__a mcp__crashes__b mcp__garbage__c\nrequires:\n  mcp: [many]',
  );
  writeSkill(skillsDir, 'plain', '');
  httpServer = await startHttpServer();
});

afterAll(async () => {
  await httpServer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = (servers: Record<string, unknown>, timeout_ms = 4000) =>
  SkillpressConfig.parse({ mcp_servers: servers, tools_check: { timeout_ms } });

describe('checkTools', () => {
  it('reports available, missing (with the closest names), not checked, over stdio and HTTP', async () => {
    const { skills } = await loadCatalog(skillsDir);
    const report = await checkTools(
      skills,
      config({ gh: stdio('tools', 'create_issue,list_issues,close_issue'), web: { url: httpServer.url } }),
    );
    expect(report.servers.map((s) => [s.name, s.transport, s.status, s.tools])).toEqual([
      ['gh', 'stdio', 'up', 3],
      ['web', 'http', 'up', 2],
    ]);
    const byId = Object.fromEntries(report.skills.map((s) => [s.id, s.tools]));
    expect(byId.issues!.map((t) => [t.raw, t.status])).toEqual([
      ['Read', 'not_checked'],
      ['Bash(git:*)', 'not_checked'],
      ['mcp__gh__create_issue', 'available'],
      ['mcp__gh__creat_isue', 'missing'],
      ['mcp__nope__x', 'not_checked'],
    ]);
    expect(byId.issues![3]!.closest![0]).toBe('create_issue');
    expect(byId.issues![4]!.detail).toContain('no server "nope"');
    expect(byId.web!.map((t) => [t.raw, t.status])).toEqual([
      ['mcp__web__fetch_page', 'available'],
      ['mcp__web__crawl', 'missing'],
    ]);
    expect(byId.plain).toEqual([]);
  });

  it('reports a hanging, crashing, garbage-writing or 100,000-tool server within its deadline, and goes on', async () => {
    const DEADLINE_MS = 8000;
    const { skills } = await loadCatalog(skillsDir);
    const started = Date.now();
    const report = await checkTools(
      skills,
      config(
        {
          hangs: stdio('hang'),
          crashes: stdio('crash'),
          garbage: stdio('garbage'),
          many: stdio('many', '100000'),
          missing: { command: '/nonexistent/server' },
        },
        // Long enough for a Node server to start and list 10,000 tools on a loaded 2-core machine
        // (3 s was not, once, in CI); the hanging one is cut off at it all the same.
        DEADLINE_MS,
      ),
    );
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2500);
    const servers = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(servers.hangs!.status).toBe('unreachable');
    expect(servers.hangs!.error).toBe(`no answer within ${DEADLINE_MS} ms`);
    expect(servers.crashes!.error).toBe('the server exited (code 3)');
    // The reason the server gave, its last line on stderr, is for the one who runs the check...
    expect(servers.crashes!.stderr).toBe('fixture: cannot open the tools database');
    // ...and not for the skills' published tools_status (a server may print a secret there).
    const crashed = report.skills.find((s) => s.id === 'broken')!.tools[1]!;
    expect([crashed.status, crashed.detail]).toEqual(['server_unreachable', 'the server exited (code 3)']);
    expect(servers.garbage!.error).toMatch(/not MCP/);
    expect(servers.missing!.error).toMatch(/could not start/);
    expect(servers.many).toMatchObject({ status: 'up', tools: 10_000, truncated: true });
    const broken = report.skills.find((s) => s.id === 'broken')!.tools;
    expect(broken.map((t) => t.status)).toEqual([
      'server_unreachable',
      'server_unreachable',
      'server_unreachable',
      'available',
    ]);
  });

  it('stops the whole process group of a server it started', async () => {
    const pidFile = path.join(dir, 'child.pid');
    const report = await checkTools([], config({ spawner: stdio('spawn-hang', pidFile) }, 1500));
    expect(report.servers[0]!.status).toBe('unreachable');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 300));
    // Gone, or a zombie waiting for a reaper (a container's pid 1 may not reap): not running either way.
    const state = existsSync(`/proc/${pid}/stat`)
      ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0]
      : 'gone';
    expect(['gone', 'Z', 'X']).toContain(state);
  });
});

describe('skillpress check-tools and build', () => {
  const writeConfig = (servers: Record<string, unknown>): string => {
    const configDir = path.join(dir, 'config');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      path.join(configDir, 'skillpress.json'),
      JSON.stringify({ mcp_servers: servers, tools_check: { timeout_ms: 5000 } }),
    );
    return configDir;
  };

  it('prints JSON and exits 1 with --strict when a tool is missing', () => {
    const configDir = writeConfig({ gh: stdio('tools', 'create_issue'), web: { url: httpServer.url } });
    // The HTTP fixture runs in this process: spawn (not spawnSync) so it can answer.
    return new Promise<void>((resolve, reject) => {
      const child = spawn(NODE, [
        CLI,
        'check-tools',
        '--skills',
        skillsDir,
        '--config',
        configDir,
        '--json',
        '--strict',
      ]);
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.on('close', (code) => {
        try {
          expect(code).toBe(1);
          const report = JSON.parse(out);
          expect(report.counts.missing).toBe(2);
          expect(report.servers.map((s: { status: string }) => s.status)).toEqual(['up', 'up']);
          resolve();
        } catch (err) {
          reject(err);
        }
      });
    });
  });

  it('prints what needs attention first, and one line for the built-in tools unless --all', () => {
    const configDir = writeConfig({
      gh: stdio('tools', 'create_issue,list_issues,close_issue'),
      crashes: stdio('crash'),
    });
    const run = (...args: string[]) =>
      spawnSync(NODE, [CLI, 'check-tools', '--skills', skillsDir, '--config', configDir, ...args], {
        encoding: 'utf8',
      });
    const r = run();
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2).map((l) => l.replace(/ in \d+ ms$/, ''))).toEqual([
      'server gh (stdio): up, 3 tools',
      'server crashes (stdio): unreachable: the server exited (code 3); it said: fixture: cannot open the tools database',
    ]);
    expect(lines.slice(2)).toEqual([
      'issues: mcp__gh__creat_isue MISSING (closest: create_issue, close_issue, list_issues)',
      'broken: mcp__crashes__b UNREACHABLE (the server exited (code 3))',
      'broken: mcp__hangs__a not configured (no server "hangs" in mcp_servers)',
      'broken: mcp__garbage__c not configured (no server "garbage" in mcp_servers)',
      'broken: mcp:many not configured (no server "many" in mcp_servers)',
      'issues: mcp__nope__x not configured (no server "nope" in mcp_servers)',
      'web: mcp__web__fetch_page not configured (no server "web" in mcp_servers)',
      'web: mcp__web__crawl not configured (no server "web" in mcp_servers)',
      'issues: mcp__gh__create_issue available',
      "not checked: 2 uses of an agent's built-in tools (Read, Bash) in 1 skill; --all lists them",
      'tools: 1 available, 1 missing, 1 unreachable, 6 not configured, 2 built-in (not checked)',
    ]);
    const all = run('--all').stdout.trimEnd().split('\n');
    expect(all.slice(-4)).toEqual([
      'issues: mcp__gh__create_issue available',
      "issues: Read not checked (an agent's built-in tool)",
      "issues: Bash(git:*) not checked (an agent's built-in tool)",
      'tools: 1 available, 1 missing, 1 unreachable, 6 not configured, 2 built-in (not checked)',
    ]);
    // --json keeps every use, built-in ones included.
    const report = JSON.parse(run('--json').stdout);
    expect(
      report.skills.find((s: { id: string }) => s.id === 'issues').tools.map((t: { raw: string }) => t.raw),
    ).toContain('Read');
  });

  it('without mcp_servers, reports what the skills name and says whether anything was left unchecked', () => {
    const configDir = writeConfig({});
    const run = (skills: string) =>
      spawnSync(NODE, [CLI, 'check-tools', '--skills', skills, '--config', configDir], { encoding: 'utf8' });
    const r = run(skillsDir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('issues: mcp__gh__create_issue not configured (no server "gh" in mcp_servers)');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      'no mcp_servers in the config: list the servers these tools come from to check them (docs/requirements.md)',
    );
    // A catalog whose skills name built-in tools only (K-Dense-AI's: Read, Write, Edit, Bash).
    const builtIn = path.join(dir, 'built-in-only');
    writeSkill(builtIn, 'notes', 'allowed-tools: Read Write');
    const plain = run(builtIn);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout.trimEnd().split('\n')).toEqual([
      "not checked: 2 uses of an agent's built-in tools (Read, Write) in 1 skill; --all lists them",
      'tools: 0 available, 0 missing, 0 unreachable, 0 not configured, 2 built-in (not checked)',
      "no mcp_servers in the config, and no skill names an MCP server's tool: nothing to check",
    ]);
  });

  it("gives a crashing Node server's reason, not the `Node.js v…` line its crash output ends with", () => {
    const configDir = writeConfig({ gone: { command: NODE, args: ['tools/does-not-exist.mjs'] } });
    const run = (...args: string[]) =>
      spawnSync(NODE, [CLI, 'check-tools', '--skills', skillsDir, '--config', configDir, ...args], {
        encoding: 'utf8',
      });
    const text = run();
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^server gone \(stdio\): unreachable: the server exited \(code 1\); it said: Error: Cannot find module '.*tools\/does-not-exist\.mjs' in \d+ ms$/m,
    );
    const report = JSON.parse(run('--json').stdout);
    expect(report.servers[0].stderr).toMatch(/^Error: Cannot find module '.*does-not-exist\.mjs'$/);
  });

  it("starts a stdio server in the config's folder: a relative path in mcp_servers works from any folder", () => {
    const repo = path.join(dir, 'relative-repo');
    writeSkill(path.join(repo, 'skills'), 'rel', 'allowed-tools: mcp__rel__create_issue');
    const server = { command: NODE, args: [path.relative(repo, SERVER), 'tools', 'create_issue'] };
    writeFileSync(path.join(repo, 'skillpress.json'), JSON.stringify({ mcp_servers: { rel: server } }));
    // Run from a folder below the repository's root, as someone working in the skills folder does.
    const r = spawnSync(NODE, [CLI, 'check-tools', '--json'], {
      cwd: path.join(repo, 'skills', 'rel'),
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.servers.map((s: { status: string }) => s.status)).toEqual(['up']);
    expect(report.counts.available).toBe(1);
  });

  it('build puts tools_status into the skill JSON when servers are configured, and goes on when one fails', () => {
    const configDir = writeConfig({
      gh: stdio('tools', 'create_issue,list_issues'),
      crashes: stdio('crash'),
      gone: { command: NODE, args: ['tools/does-not-exist.mjs'] },
    });
    const out = path.join(dir, 'dist');
    const r = spawnSync(NODE, [CLI, 'build', '--skills', skillsDir, '--config', configDir, '--out', out], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('tools check: gh up, 2 tools');
    // A server that fails is reported; the build goes on.
    expect(r.stderr).toContain(
      'tools check: crashes unreachable (the server exited (code 3); it said: fixture: cannot open the tools database)',
    );
    expect(r.stderr).toMatch(
      /tools check: gone unreachable \(the server exited \(code 1\); it said: Error: Cannot find module '.*does-not-exist\.mjs'\)/,
    );
    // Then what the check found, the missing tools named: a CI log says so without the site.
    expect(r.stderr).toContain(
      'tools check: 1 available, 1 missing (issues: mcp__gh__creat_isue, closest: create_issue), 1 unreachable, 8 not checked (built-in, or no server in mcp_servers); skillpress check-tools lists each\n',
    );
    const skill = JSON.parse(readFileSync(path.join(out, 'feed/v1/skills/issues.json'), 'utf8'));
    expect(skill.summary.needs.mcp_servers).toEqual(['gh', 'nope']);
    expect(skill.summary.needs.tools_status.checked_at).toMatch(/^\d{4}-/);
    expect(
      skill.summary.needs.tools_status.tools.find((t: { raw: string }) => t.raw === 'mcp__gh__create_issue').status,
    ).toBe('available');
    expect(existsSync(path.join(out, 'feed/v1/skills/plain.json'))).toBe(true);
    // The skill page says what the skill needs, with a badge per checked tool, before how to install it.
    const page = readFileSync(path.join(out, 'skills/issues/index.html'), 'utf8');
    const needs = page.indexOf('What this skill needs');
    expect(needs).toBeGreaterThan(0);
    expect(needs).toBeLessThan(page.indexOf('Use it'));
    expect(page).toMatch(
      /data-tool="mcp__gh__create_issue"><code>mcp__gh__create_issue<\/code><span class="badge tool-available"/,
    );
    expect(page).toMatch(
      /data-tool="mcp__gh__creat_isue"><code>mcp__gh__creat_isue<\/code><span class="badge tool-missing" title="closest: create_issue/,
    );
    expect(readFileSync(path.join(out, 'skills/plain/index.html'), 'utf8')).not.toContain('What this skill needs');
  });
});
