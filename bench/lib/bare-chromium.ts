/**
 * Chromium driven over the DevTools protocol with nothing but `Target`, `Page.navigate` and
 * `Runtime.evaluate`: no `Network` domain. Playwright tracks every request of a page (several
 * protocol events each, sent to the driver), which on a 2-core machine adds about 40 ms to the
 * p95 of a search that fetches 20 files; a user's browser does none of that, so the search is
 * timed here, from inside the page, as a user's browser runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROMIUM, CHROMIUM_SWITCHES } from '../../test/site/helpers/browser.ts';

export interface BarePage {
  /** Navigates and waits for the page's `load`. */
  goto(url: string): Promise<void>;
  /** `fn(arg)` in the page, awaited there; its result comes back as JSON. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
}

export interface BareBrowser {
  /** A page in a context of its own (no cache or storage shared with another). */
  withPage<T>(run: (page: BarePage) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface Reply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

const SWITCHES = [
  ...CHROMIUM_SWITCHES,
  // A page the user looks at: its timers and rendering are never throttled as a background tab's.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/** Starts Chromium with a throwaway profile; `extraArgs` as for `launchChromium`. */
export async function launchBareChromium(extraArgs: readonly string[] = []): Promise<BareBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'skillpress-bare-chromium-'));
  const child = spawn(
    CHROMIUM,
    [...SWITCHES, ...extraArgs, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const forget = killWithProcess(child);
  try {
    const socket = await connect(await devtoolsUrl(child.stderr));
    const send = protocol(socket);
    return {
      withPage: (run) => withPage(send, run),
      close: async () => {
        forget();
        socket.close();
        child.kill();
        await exited;
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    forget();
    child.kill();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Chromium stops with the bench, however it ends: on exit, and on SIGINT or SIGTERM (whose
 * default ends Node without its exit handlers), the signal then raised again. Answers how to undo that.
 */
function killWithProcess(child: ChildProcess): () => void {
  const stop = () => child.kill();
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    forget();
    process.kill(process.pid, signal);
  };
  const forget = () => {
    process.off('exit', stop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', stop);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return forget;
}

type Send = (method: string, params?: object, sessionId?: string) => Promise<unknown>;

/** The browser's DevTools address, which Chromium prints on stderr once it listens (within 30 s). */
function devtoolsUrl(stderr: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools address: ${seen}`)), 30_000);
    stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /ws:\/\/\S+/.exec(seen);
      if (!found) return;
      clearTimeout(timer);
      resolve(found[0]);
    });
  });
}

function connect(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(socket), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
  });
}

/** Commands over `socket`, each answered by the reply with its id (events are ignored: none is enabled). */
function protocol(socket: WebSocket): Send {
  let last = 0;
  const waiting = new Map<number, (reply: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id!);
  });
  return (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = ++last;
      waiting.set(id, (reply) =>
        reply.error ? reject(new Error(`${method}: ${reply.error.message}`)) : resolve(reply.result),
      );
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
}

async function withPage<T>(send: Send, run: (page: BarePage) => Promise<T>): Promise<T> {
  const { browserContextId } = (await send('Target.createBrowserContext')) as { browserContextId: string };
  try {
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank', browserContextId })) as {
      targetId: string;
    };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const evaluate = async <R>(expression: string): Promise<R> => {
      const { result, exceptionDetails } = (await send(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      )) as { result: { value: R }; exceptionDetails?: { exception?: { description?: string }; text: string } };
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    };
    const page: BarePage = {
      goto: async (url) => {
        await send('Page.navigate', { url }, sessionId);
        // Until the new document commits, the old one (about:blank) answers, or its context is gone.
        const loaded = `location.href !== 'about:blank' && document.readyState === 'complete'`;
        while (!(await evaluate<boolean>(loaded).catch(() => false))) await sleep(10);
      },
      evaluate: (fn, arg) => evaluate(`(${fn.toString()})(${JSON.stringify(arg)})`),
    };
    return await run(page);
  } finally {
    await send('Target.disposeBrowserContext', { browserContextId });
  }
}
