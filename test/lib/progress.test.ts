import { describe, expect, it } from 'vitest';
import { progress } from '../../src/lib/progress.ts';

/** A terminal stand-in: what was written, as a screen would end up showing the last line. */
function terminal() {
  const writes: string[] = [];
  const stream = { isTTY: true, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

describe('progress', () => {
  it('clear() wipes the bar before another line, and the next update draws it again', () => {
    const saved = process.env.CI;
    delete process.env.CI;
    try {
      const { stream, writes } = terminal();
      const bar = progress('indexing', 10, stream);
      bar.update(3);
      bar.clear();
      expect(writes.at(-1)).toBe('\r\x1b[2K');
      bar.update(4);
      expect(writes.at(-1)).toContain('indexing 4/10');
      bar.done();
      const before = writes.length;
      bar.clear(); // nothing drawn: nothing to wipe
      expect(writes.length).toBe(before);
    } finally {
      if (saved !== undefined) process.env.CI = saved;
    }
  });
});
