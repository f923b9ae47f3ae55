/**
 * Start-up of stdio MCP servers as a client sees it: spawn → the answer to `tools/list`, sent
 * with `initialize` and `notifications/initialized` at once, as clients do. Starts are taken in
 * rounds (each round starts every server once, so all share the machine's load of the moment);
 * a bare `node` answering the same lines (bare-server.mjs) is the floor every ratio is taken to.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Server {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string | undefined>;
}

export interface StartupRow {
  label: string;
  median: number;
  min: number;
  /** median / the bare node's median. */
  ratio: number;
}

const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
]
  .map((m) => JSON.stringify(m) + '\n')
  .join('');

export const BARE_NODE: Server = {
  label: 'bare `node` answering JSON',
  command: process.execPath,
  args: [fileURLToPath(new URL('bare-server.mjs', import.meta.url))],
};

/** Milliseconds from spawn to the `tools/list` answer; the server is stopped afterwards. */
export function startOnce(server: Server, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(server.command, server.args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, ...server.env },
    });
    const timer = setTimeout(
      () => finish(new Error(`${server.label}: no tools/list answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let buffer = '';
    let result: number | Error | undefined;
    let exited = false;
    const settle = (): void => (typeof result === 'number' ? resolve(result) : reject(result));
    // The result is given once the server has exited, so the next start never overlaps it.
    function finish(outcome: number | Error): void {
      if (result !== undefined) return;
      result = outcome;
      clearTimeout(timer);
      if (exited) settle();
      else child.kill();
    }
    child.on('error', reject);
    child.on('exit', (code) => {
      exited = true;
      if (result === undefined) finish(new Error(`${server.label} exited (${code}) before answering tools/list`));
      else settle();
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if ((JSON.parse(line) as { id?: number }).id === 2) finish(performance.now() - started);
      }
    });
    child.stdin.on('error', () => {}); // a server that exits early closes its stdin; 'exit' reports it
    child.stdin.write(OPENING);
  });
}

/** `rounds` starts of every server (after one unmeasured start each, which fills the compile cache), as rows beside the bare node. */
export async function measureStartups(servers: Server[], rounds: number): Promise<StartupRow[]> {
  const all = [BARE_NODE, ...servers];
  const times = all.map(() => [] as number[]);
  for (const server of all) await startOnce(server);
  for (let r = 0; r < rounds; r++) {
    for (const [i, server] of all.entries()) times[i]!.push(await startOnce(server));
  }
  const medians = times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
  return all.map((server, i) => ({
    label: server.label,
    median: medians[i]!,
    min: times[i]![0]!,
    ratio: medians[i]! / medians[0]!,
  }));
}

export const SKILLJACK = { name: '@skilljack/mcp', version: '0.5.1' };

/**
 * skilljack-mcp 0.5.1's bin: from `explicit` (its package folder or its bin file), else installed
 * from npm into `cacheDir` — never a dependency of skillpress. What it does when started, read in
 * its source first: MCP on stdio only; skills folders from its arguments and SKILLS_DIR (cleared
 * by the caller, as is MAX_FILE_SIZE_MB); the folders watched with chokidar; no network.
 * Returns why it is unavailable instead when it cannot be found or installed.
 */
export function findSkilljack(explicit: string | undefined, cacheDir: string): { bin: string } | { missing: string } {
  if (explicit) return binOf(path.resolve(explicit));
  const dir = path.join(cacheDir, `skilljack-${SKILLJACK.version}`);
  const installed = path.join(dir, 'node_modules', ...SKILLJACK.name.split('/'));
  if (!existsSync(installed)) {
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          dir,
          '--no-save',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          `${SKILLJACK.name}@${SKILLJACK.version}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
    } catch (err) {
      const why = String((err as { stderr?: Buffer }).stderr ?? err)
        .split('\n')
        .find((l) => /error/i.test(l) && !/A complete log/.test(l));
      return {
        missing: `npm install ${SKILLJACK.name}@${SKILLJACK.version} failed (${why?.replace(/^npm error\s*/, '').trim() ?? 'no reason given'}); pass --skilljack <its package folder>`,
      };
    }
  }
  return binOf(installed);
}

function binOf(location: string): { bin: string } | { missing: string } {
  if (location.endsWith('.js') && existsSync(location)) return { bin: location };
  const manifest = path.join(location, 'package.json');
  if (!existsSync(manifest)) return { missing: `${location}: no package.json` };
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string; bin?: string | Record<string, string> };
  if (pkg.version !== SKILLJACK.version)
    return { missing: `${location} holds version ${pkg.version}, not ${SKILLJACK.version}` };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  const file = bin ? path.join(location, bin) : undefined;
  return file && existsSync(file) ? { bin: file } : { missing: `${location}: its bin is missing (build it first)` };
}
