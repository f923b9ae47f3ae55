/**
 * The stdio wire: one JSON-RPC message per line on stdin, answers on stdout (nothing else ever
 * goes to stdout). Unlike the SDK's stdio transport, a line that is not JSON gets a `-32700`
 * answer, a JSON value that is not a JSON-RPC message gets `-32600`, and an oversized line is
 * skipped and answered instead of closing the connection: malformed input never ends the session.
 */
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { errorMessage } from '../lib/errors.ts';

/** Longest line read; a longer one is skipped and answered with an error. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called after each message is written (the server uses it to start work once the client's first requests are answered). */
  onsent?: (message: JSONRPCMessage) => void;
  /** Resolves when stdin ends or the transport is closed. */
  readonly closed: Promise<void>;
  #resolveClosed!: () => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skipping = false;
  #isClosed = false;
  #stdin: NodeJS.ReadableStream;
  #stdout: NodeJS.WritableStream;

  constructor(stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdin.on('error', (err: Error) => this.onerror?.(err));
    this.#stdout.on('error', (err: Error) => {
      this.onerror?.(err);
      void this.close();
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const ok = this.#stdout.write(JSON.stringify(message) + '\n', (err) => (err ? reject(err) : undefined));
      this.onsent?.(message);
      if (ok) resolve();
      else this.#stdout.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    // Stop reading stdin for good: a stream left flowing keeps the process alive until the client closes it.
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    this.#stdin.pause();
    this.#chunks = [];
    this.onclose?.();
    this.#resolveClosed();
  }

  #onEnd = (): void => {
    void this.close();
  };

  #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let newline = data.indexOf(0x0a);
    while (newline >= 0) {
      const tail = data.subarray(0, newline);
      if (this.#skipping) this.#skipping = false;
      else this.#line(Buffer.concat([...this.#chunks, tail]));
      this.#chunks = [];
      this.#buffered = 0;
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    if (data.length === 0 || this.#skipping) return;
    this.#buffered += data.length;
    if (this.#buffered > MAX_LINE_BYTES) {
      this.#chunks = [];
      this.#buffered = 0;
      this.#skipping = true;
      this.#reply(null, -32600, `Invalid Request: a message is longer than ${MAX_LINE_BYTES} bytes; it was skipped`);
      return;
    }
    this.#chunks.push(data);
  };

  #line(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.#reply(null, -32700, `Parse error: ${errorMessage(err)}. Send one JSON-RPC message per line.`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = idOf(value);
      this.#reply(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(errorMessage(err)));
    }
  }

  #reply(id: string | number | null, code: number, message: string): void {
    // JSON-RPC answers errors it cannot attribute with id null; the SDK types do not allow that.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch((err) =>
      this.onerror?.(err),
    );
  }
}

function idOf(value: unknown): string | number | null {
  if (value && typeof value === 'object' && 'id' in value) {
    const id = value.id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return null;
}
