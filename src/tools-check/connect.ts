/**
 * List the tools of one MCP server, within a deadline. A stdio server is started in a process
 * group of its own and the whole group is killed afterwards, whatever happened (a server that
 * spawns helpers leaves none behind); an HTTP server is only asked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import {
  Client,
  StreamableHTTPClientTransport,
  deserializeMessage,
  serializeMessage,
} from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../model/config.ts';
import { errorMessage } from '../lib/errors.ts';

/** Most bytes of one stdio line (a JSON-RPC message) read from a server. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Most pages of tools/list followed: a server that pages forever is reported, not followed. */
const MAX_PAGES = 200;
/** How much of a stdio server's stderr is kept, from its end: the reason it gives when it exits (above its stack trace). */
const STDERR_TAIL_CHARS = 8000;
/** How long an exited server's last stderr lines are waited for. */
const STDERR_SETTLE_MS = 250;

export type ServerTools =
  | { ok: true; tools: string[]; truncated: boolean; ms: number }
  /** `stderr`: the line where the server said why (`reasonLine`); for the one who runs the check, never published. */
  | { ok: false; error: string; stderr?: string; ms: number };

/** Lines that carry no reason: Node's closing `Node.js v22.…` banner and stack frames (`    at …`). */
const NOT_A_REASON = /^(?:Node\.js v\d[\w.-]*|at .+)$/;
/** A line that reports an error: `Error: …`, `TypeError: …`, `Error [ERR_…]: …`, `error: …`, `…Exception: …`. */
const ERROR_LINE = /^[\w.$]*(?:error|exception)(?: \[[\w-]+\])?: \S/i;

/**
 * The line of a server's stderr that says why it failed: the last line that reads as an error,
 * else the last line that is not blank, a stack frame or a version banner. A crashing Node
 * server ends with its stack and `Node.js v…`, below the `Error: Cannot find module …` that matters.
 */
export function reasonLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !NOT_A_REASON.test(line));
  return (lines.findLast((line) => ERROR_LINE.test(line)) ?? lines.at(-1))?.slice(0, 200);
}

/** stdio to a child started in its own process group; a line that is not JSON-RPC ends the session. */
class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly child: ChildProcess;
  /** Set when the server wrote something that is not MCP: the check fails at once. */
  ongarbage?: (error: Error) => void;
  #pending = '';
  #stderr = '';

  constructor(spec: { command: string; args: string[]; env: Record<string, string> }, cwd: string | undefined) {
    this.child = spawn(spec.command, spec.args, {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...spec.env },
    });
  }

  async start(): Promise<void> {
    const fail = (err: Error): void => this.onerror?.(err);
    this.child.on('error', fail);
    this.child.on('exit', (code, signal) => {
      fail(new Error(`the server exited (${signal ?? `code ${code}`})`));
      this.onclose?.();
    });
    this.child.stdin!.on('error', fail);
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.#read(chunk));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
  }

  /** Once stderr has ended (or a moment has passed): an exited server's last words are in. */
  async stderrSettled(): Promise<void> {
    const stderr = this.child.stderr!;
    if (stderr.readableEnded) return;
    await new Promise((resolve) => {
      stderr.once('end', resolve);
      setTimeout(resolve, STDERR_SETTLE_MS).unref();
    });
  }

  /** The line of stderr where the server says what went wrong (see `reasonLine`). */
  stderrReason(): string | undefined {
    return reasonLine(this.#stderr);
  }

  /** Whole lines, each one JSON-RPC message; anything else (or a line over the bound) ends the check. */
  #read(chunk: string): void {
    this.#pending += chunk;
    let newline = this.#pending.indexOf('\n');
    while (newline >= 0) {
      const line = this.#pending.slice(0, newline).replace(/\r$/, '');
      this.#pending = this.#pending.slice(newline + 1);
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch {
        return this.#garbage(`the server wrote something that is not MCP: ${JSON.stringify(line.slice(0, 80))}`);
      }
      this.onmessage?.(message);
      newline = this.#pending.indexOf('\n');
    }
    if (this.#pending.length > MAX_MESSAGE_BYTES) this.#garbage(`a message over ${MAX_MESSAGE_BYTES} bytes`);
  }

  #garbage(message: string): void {
    this.#pending = '';
    this.child.stdout!.removeAllListeners('data');
    this.ongarbage?.(new Error(message));
    killGroup(this.child);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (!this.child.stdin?.writable) return resolve();
      this.child.stdin.write(serializeMessage(message), () => resolve());
    });
  }

  async close(): Promise<void> {
    killGroup(this.child);
  }
}

/** SIGKILL to the child's whole process group (it leads one: spawned detached). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

type CheckTransport = Transport & {
  child?: ChildProcess;
  ongarbage?: (error: Error) => void;
  stderrSettled?: () => Promise<void>;
  stderrReason?: () => string | undefined;
};

function transportFor(spec: McpServerConfig, cwd: string | undefined): CheckTransport {
  if ('url' in spec) return new StreamableHTTPClientTransport(new URL(spec.url));
  return new GroupStdioTransport(spec, cwd);
}

async function listAll(
  client: Client,
  maxTools: number,
  signal: AbortSignal,
): Promise<{ tools: string[]; truncated: boolean }> {
  const tools: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor ? { cursor } : {}, { signal, cacheMode: 'bypass' });
    for (const t of result.tools) {
      if (tools.length >= maxTools) return { tools, truncated: true };
      tools.push(t.name);
    }
    cursor = result.nextCursor;
    if (!cursor) return { tools, truncated: false };
  }
  return { tools, truncated: true };
}

/**
 * Connect to one server, list its tools (every page, at most `maxTools`), and disconnect, all
 * within `timeoutMs`; a stdio server started here is killed (its process group) in every case.
 *
 * @example
 * ```ts
 * import { listServerTools } from 'skillpress/internal';
 * const r = await listServerTools({ command: 'node', args: ['server.mjs'], env: {} }, { timeoutMs: 5000, maxTools: 1000 });
 * console.log(r.ok ? r.tools : r.error);
 * ```
 */
export async function listServerTools(
  spec: McpServerConfig,
  opts: { timeoutMs: number; maxTools: number; cwd?: string },
): Promise<ServerTools> {
  const started = Date.now();
  const ms = (): number => Date.now() - started;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
  });
  let transport: CheckTransport | undefined;
  // Set when the server exits by itself: that, not the SDK's "Connection closed", is the reason.
  let exited: Error | undefined;
  // The SDK reads every page of tools/list itself (up to listMaxPages); the deadline bounds the time.
  const client = new Client({ name: 'skillpress-check-tools', version: '1' }, { listMaxPages: MAX_PAGES });
  try {
    transport = transportFor(spec, opts.cwd);
    const failed = new Promise<never>((_, reject) => {
      transport!.ongarbage = reject;
      transport!.child?.on('error', (err) => reject(new Error(`could not start the server: ${err.message}`)));
      transport!.child?.on('exit', (code, signal) => {
        exited ??= new Error(`the server exited (${signal ?? `code ${code}`})`);
        void transport!.stderrSettled!().then(() => reject(exited));
      });
    });
    const work = (async () => {
      await client.connect(transport, { timeout: opts.timeoutMs, signal: abort.signal });
      return listAll(client, opts.maxTools, abort.signal);
    })();
    const listed = await Promise.race([work, deadline, failed]);
    return { ok: true, ...listed, ms: ms() };
  } catch (err) {
    // The client may see the pipe close before the exit event: the exit and its last words win.
    if (err instanceof Error && /Connection closed/.test(err.message) && transport?.child) {
      if (!exited) await Promise.race([once(transport.child, 'exit'), delay(STDERR_SETTLE_MS)]);
      if (exited) await transport.stderrSettled!();
    }
    const stderr = transport?.stderrReason?.();
    return {
      ok: false,
      error: withCause(exited ?? err)
        .replace(/\s+/g, ' ')
        .slice(0, 300),
      ...(stderr ? { stderr } : {}),
      ms: ms(),
    };
  } finally {
    clearTimeout(timer);
    abort.abort();
    if (transport?.child) killGroup(transport.child);
    // close() of an HTTP transport may wait on the network: never past a second.
    await Promise.race([client.close().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}

/**
 * An error's message with the reason it wraps: fetch says only `fetch failed`, and the refused
 * connection or unknown host that says what to fix is its `cause`.
 */
function withCause(err: unknown): string {
  const message = errorMessage(err);
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why = typeof cause?.message === 'string' ? cause.message : typeof cause?.code === 'string' ? cause.code : '';
  return why && !message.includes(why) ? `${message} (${why})` : message;
}
