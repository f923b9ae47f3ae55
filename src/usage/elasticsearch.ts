/**
 * Usage events to Elasticsearch (`agent_skill_usage`), in the background: `record` only queues;
 * a timer sends the queue in bulk, one request at a time. While the cluster cannot take them
 * (down, slow, refusing), events go to a spool file of this process, and once it answers again
 * the spool is sent before anything newer. A full queue spills to the spool too, so memory stays
 * bounded whatever the cluster does. Each event is created under its own id, so one sent twice
 * (an answer lost after the cluster stored it) is stored once.
 *
 * Spool files are `spool-<pid>-<random>.jsonl` in the spool folder; before sending one, its
 * process renames it (`sending-…`), so what it appends later starts a new file. A server that
 * was killed leaves its files; the next one to start (or to retry) adopts them.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { UsageEvent } from '../model/usage.ts';
import { eventLine, FileRecorder, type UsageRecorder } from './recorder.ts';
import { parseEventLines } from './read.ts';

export interface ElasticsearchRecorderOptions {
  /** The usage index (default `agent_skill_usage`). */
  index?: string;
  /** Folder of the spool files. */
  spoolDir: string;
  log?: (message: string) => void;
  /** How long an event may wait in the queue before it is sent (default 1000 ms). */
  flushMs?: number;
  /** Events per bulk request (default 500). */
  batch?: number;
  /** Events held in memory at most; more go to the spool (default 10,000). */
  queueLimit?: number;
  /** How often a cluster that did not answer is tried again (default 5000 ms). */
  retryMs?: number;
  /** Per request (default 10 s). */
  requestTimeoutMs?: number;
  /** Folder of the index's mappings and settings (default the package's `config/`). */
  configDir?: string;
}

export interface RecorderStats {
  queued: number;
  /** Events written to the spool since start. */
  spooled: number;
  /** Events the cluster confirmed (stored now, or already). */
  sent: number;
  /** Whether the last request reached the cluster. */
  up: boolean;
}

export class ElasticsearchRecorder implements UsageRecorder {
  readonly target: string;
  readonly #url: string;
  readonly #index: string;
  readonly #opts: Required<Omit<ElasticsearchRecorderOptions, 'index' | 'configDir' | 'log'>>;
  readonly #log: (message: string) => void;
  readonly #configDir: string | undefined;
  #queue: UsageEvent[] = [];
  #spool: FileRecorder;
  #spoolFile: string;
  #client: Promise<Client> | undefined;
  #indexReady = false;
  #busy: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #down = false;
  #closed = false;
  /** Something may be in a spool file: this process's, or one a killed server left. */
  #spoolPending: boolean;
  readonly stats: RecorderStats = { queued: 0, spooled: 0, sent: 0, up: true };

  constructor(url: string, options: ElasticsearchRecorderOptions) {
    this.#url = url;
    this.#index = options.index ?? 'agent_skill_usage';
    this.#log = options.log ?? (() => {});
    this.#configDir = options.configDir;
    this.#opts = {
      spoolDir: options.spoolDir,
      flushMs: options.flushMs ?? 1000,
      batch: options.batch ?? 500,
      queueLimit: options.queueLimit ?? 10_000,
      retryMs: options.retryMs ?? 5000,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    };
    this.target = redact(url);
    mkdirSync(this.#opts.spoolDir, { recursive: true });
    this.#spoolFile = path.join(this.#opts.spoolDir, `spool-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);
    this.#spool = new FileRecorder(this.#spoolFile, this.#log);
    // Spool files a killed server left: sent with the first batch.
    this.#spoolPending = this.#orphans().length > 0;
    // Connect (load the client, make the index) soon after start, not on the first event and not
    // during the handshake; spool files a killed server left go with it.
    this.#schedule(this.#opts.flushMs);
  }

  record(event: UsageEvent): boolean {
    if (this.#closed) return false;
    if (this.#queue.length >= this.#opts.queueLimit) return this.#toSpool([event]);
    this.#queue.push(event);
    this.stats.queued = this.#queue.length;
    if (this.#queue.length >= this.#opts.batch) this.#schedule(0);
    else this.#schedule(this.#down ? this.#opts.retryMs : this.#opts.flushMs);
    return true;
  }

  /** Why events could not be kept: the spool file could not be written while the queue was full. */
  get problem(): string | undefined {
    return this.#spool.problem;
  }

  /** Sends what can be sent now; what cannot stays in the spool for the next server. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#busy;
    await this.#work().catch(() => undefined);
    if (this.#queue.length > 0) this.#toSpool(this.#queue.splice(0));
    await this.#spool.close();
    if (this.#client) await (await this.#client).close().catch(() => undefined);
  }

  closeSync(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#queue.length > 0) this.#toSpool(this.#queue.splice(0));
    this.#spool.closeSync();
  }

  /** Waits until everything recorded so far was sent or spooled (tests, benchmarks). */
  async flush(): Promise<void> {
    await this.#busy;
    this.#busy = this.#work().finally(() => (this.#busy = undefined));
    await this.#busy;
  }

  #schedule(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#busy) return this.#schedule(ms);
      this.#busy = this.#work().finally(() => {
        this.#busy = undefined;
        if (this.#queue.length > 0 || this.#down || this.#spoolPending)
          this.#schedule(this.#down ? this.#opts.retryMs : this.#opts.flushMs);
      });
    }, ms);
    // A pending send never keeps the process alive: close() sends or spools what is left.
    this.#timer.unref();
  }

  /** The spool first (older events), then the queue. Never throws. */
  async #work(): Promise<void> {
    try {
      if (!this.#indexReady) await this.#ensureIndex(await this.#connect());
      if (this.#spoolPending) await this.#sendSpool();
      while (this.#queue.length > 0) {
        const batch = this.#queue.slice(0, this.#opts.batch);
        await this.#send(batch);
        this.#queue.splice(0, batch.length);
        this.stats.queued = this.#queue.length;
      }
      this.#markUp();
    } catch (err) {
      this.#markDown(err as Error);
      if (this.#queue.length > 0) this.#toSpool(this.#queue.splice(0));
      this.stats.queued = 0;
    }
  }

  /** Renames this process's spool (and adopts orphans), then sends each renamed file and removes it. */
  async #sendSpool(): Promise<void> {
    const dir = this.#opts.spoolDir;
    await this.#spool.close();
    const mine = `sending-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;
    try {
      renameSync(this.#spoolFile, path.join(dir, mine));
    } catch {
      // nothing spooled since the last send
    }
    for (const orphan of this.#orphans()) {
      try {
        renameSync(
          path.join(dir, orphan),
          path.join(dir, `sending-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`),
        );
      } catch {
        // another server adopted it first
      }
    }
    const own = readdirSync(dir).filter((f) => f.startsWith(`sending-${process.pid}-`));
    for (const file of own) {
      const { events } = parseEventLines(readFileSync(path.join(dir, file), 'utf8'));
      for (let i = 0; i < events.length; i += this.#opts.batch) await this.#send(events.slice(i, i + this.#opts.batch));
      rmSync(path.join(dir, file), { force: true });
    }
    this.#spoolPending = false;
  }

  /** Spool and sending files of servers that are no longer running. */
  #orphans(): string[] {
    let files: string[];
    try {
      files = readdirSync(this.#opts.spoolDir);
    } catch {
      return [];
    }
    return files.filter((f) => {
      const m = /^(?:spool|sending)-(\d+)-[0-9a-f]+\.jsonl$/.exec(f);
      return m !== null && Number(m[1]) !== process.pid && !isRunning(Number(m[1]));
    });
  }

  async #send(events: UsageEvent[]): Promise<void> {
    if (events.length === 0) return;
    const client = await this.#connect();
    if (!this.#indexReady) await this.#ensureIndex(client);
    const operations = events.flatMap((e) => [{ create: { _index: this.#index, _id: e.id } }, e]);
    const res = await client.bulk({ operations, refresh: false });
    if (res.errors) {
      // 409: stored already (sent before, its answer lost). Anything else is a refusal worth a line.
      const refused = res.items.filter((i) => i.create?.error && i.create.status !== 409);
      if (refused.some((i) => (i.create?.status ?? 0) >= 500 || i.create?.status === 429))
        throw new Error(`the cluster refused ${refused.length} event(s) for now`);
      for (const item of refused.slice(0, 3))
        this.#log(`usage: event ${item.create?._id} refused: ${item.create?.error?.reason ?? 'unknown reason'}`);
    }
    this.stats.sent += events.length;
  }

  #connect(): Promise<Client> {
    this.#client ??= import('../emit/elasticsearch/client.ts').then(({ createClient }) => {
      const client = createClient({ url: this.#url });
      return client.child({ requestTimeout: this.#opts.requestTimeoutMs, maxRetries: 0 });
    });
    return this.#client;
  }

  async #ensureIndex(client: Client): Promise<void> {
    const { loadUsageIndexDefinition } = await import('../emit/elasticsearch/definitions.ts');
    const def = await loadUsageIndexDefinition(this.#configDir);
    if (!(await client.indices.exists({ index: this.#index }))) {
      await client.indices.create(
        { index: this.#index, mappings: def.mappings as never, settings: def.settings },
        { ignore: [400] }, // made meanwhile by another server (resource_already_exists_exception)
      );
    }
    this.#indexReady = true;
  }

  #toSpool(events: UsageEvent[]): boolean {
    const kept = this.#spool.append(events.map(eventLine).join(''));
    if (kept) this.stats.spooled += events.length;
    this.#spoolPending = true;
    return kept;
  }

  #markDown(err: Error): void {
    if (!this.#down)
      this.#log(
        `usage: ${this.target} does not answer (${err.message.split('\n')[0]}); events are kept in ${this.#opts.spoolDir} and sent when it is back`,
      );
    this.#down = true;
    this.stats.up = false;
  }

  #markUp(): void {
    if (this.#down) this.#log(`usage: ${this.target} answers again; spooled events sent`);
    this.#down = false;
    this.stats.up = true;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) [u.username, u.password] = ['***', ''];
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
