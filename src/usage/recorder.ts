/**
 * Where usage events go. A recorder's `record` returns at once and never throws: recording must
 * never slow or fail the tool call it describes. Problems (a full disk, a cluster down) are
 * logged once, and the events kept where they can be.
 */
import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { UsageEvent } from '../model/usage.ts';
import { errorMessage } from '../lib/errors.ts';

export interface UsageRecorder {
  /** Where the events go, for the log (a file path or a redacted URL). */
  readonly target: string;
  /** Whether the event was written, or kept to be sent; false when it was lost (the log says why, `problem` too). */
  record(event: UsageEvent): boolean;
  /** Why the last event could not be kept, while that lasts. */
  readonly problem?: string | undefined;
  /** Opens where events go now, so a server says at start, not at the first event, that it cannot write there. */
  probe?(): boolean;
  /** Sends or writes what is pending, then releases the file or connection. */
  close(): Promise<void>;
  /** On a signal, with no time to send: writes what is pending where the next run finds it. */
  closeSync(): void;
}

/** One event as one JSON line. */
export const eventLine = (event: UsageEvent): string => `${JSON.stringify(event)}\n`;

/**
 * JSON Lines, append-only. The file is opened with O_APPEND and each event is one write() of
 * its whole line (a few hundred bytes; notes are capped at 500 characters): the kernel places
 * each write at the end of the file as one piece, so servers appending to one file at once
 * interleave whole lines and lose none. A reader skips a torn last line (a process killed
 * mid-write, or a line still being written).
 */
export class FileRecorder implements UsageRecorder {
  readonly target: string;
  #fd: number | undefined;
  problem: string | undefined;
  readonly #log: (message: string) => void;

  /** `file`: a JSON Lines file; a folder (one that exists, or a path ending in /) gets `usage.jsonl` in it. */
  constructor(file: string, log: (message: string) => void = () => {}) {
    this.target = path.resolve(isFolder(file) ? path.join(file, FOLDER_FILE) : file);
    this.#log = log;
  }

  record(event: UsageEvent): boolean {
    return this.append(eventLine(event));
  }

  /** Opens (creates) the file now. */
  probe(): boolean {
    return this.append('');
  }

  /** Appends text made of whole lines; false when it could not be written. */
  append(lines: string): boolean {
    try {
      if (this.#fd === undefined) {
        mkdirSync(path.dirname(this.target), { recursive: true });
        this.#fd = openSync(this.target, 'a', 0o600);
      }
      const bytes = Buffer.from(lines);
      // One write for the whole text; a short write (a full disk) is reported, not retried into a torn line.
      const written = writeSync(this.#fd, bytes);
      if (written !== bytes.length) throw new Error(`only ${written} of ${bytes.length} bytes written`);
      this.problem = undefined;
      return true;
    } catch (err) {
      const problem = `cannot append to ${this.target}: ${errorMessage(err)}`;
      if (this.problem === undefined) this.#log(`usage: ${problem}`);
      this.problem = problem;
      return false;
    }
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  closeSync(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** The file a recorder given a folder writes (`usage summarize` reads every `.jsonl` of a folder). */
export const FOLDER_FILE = 'usage.jsonl';

function isFolder(file: string): boolean {
  if (/[\\/]$/.test(file)) return true;
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** `--usage`: an http(s) URL is an Elasticsearch cluster, anything else a file. */
export function isElasticsearchTarget(target: string): boolean {
  return /^https?:\/\//i.test(target);
}
