/**
 * Progress for long work: a single rewritten line on an interactive terminal, nothing in CI
 * or when stderr is piped (logs stay clean). Always on stderr, so stdout stays machine-readable.
 */
export interface Progress {
  update(done: number, label?: string): void;
  done(message?: string): void;
  /** Wipe the line before another line is written (the next update draws it again). */
  clear(): void;
}

function isInteractive(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY) && !process.env.CI;
}

export function progress(title: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!isInteractive(stream)) return { update() {}, done() {}, clear() {} };
  let last = 0;
  let drawn = false;
  return {
    clear() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
      last = 0;
    },
    update(done, label) {
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
      stream.write(`\r\x1b[2K${title} ${done}/${total} (${pct}%)${label ? ` ${label}` : ''}`);
      drawn = true;
    },
    done(message) {
      stream.write(`\r\x1b[2K${message ? `${message}\n` : ''}`);
      drawn = false;
    },
  };
}
