/** Sizes in messages and on the site: readable, and exact where a limit written in bytes is compared. */
import { describe, expect, it } from 'vitest';
import { formatBytes, limitText, sizeText } from '../../src/lib/size-text.ts';

describe('sizeText', () => {
  it('gives the exact bytes beside a rounded size, and only a unit for a whole one', () => {
    expect(sizeText(81052632)).toBe('77.3 MiB (81052632 bytes)');
    expect(sizeText(1048576)).toBe('1 MiB');
    expect(sizeText(16 * 1024 * 1024)).toBe('16 MiB');
    expect(sizeText(100000)).toBe('97.7 KiB (100000 bytes)');
    expect(sizeText(3 * 1024 ** 3 + 1)).toBe('3.0 GiB (3221225473 bytes)');
  });

  it('counts bytes below a kilobyte', () => {
    expect(sizeText(1)).toBe('1 byte');
    expect(sizeText(1023)).toBe('1023 bytes');
    expect(sizeText(0)).toBe('0 bytes');
  });
});

describe('limitText', () => {
  it('names the limit and the setting that holds it', () => {
    expect(limitText(1048576, 'skills.max_file_bytes')).toBe('the 1 MiB limit (skills.max_file_bytes)');
    expect(limitText(1000)).toBe('the 1000-byte limit');
    expect(limitText(64 * 1024 * 1024, 'federation.max_peer_bytes', 'total')).toBe(
      'the 64 MiB total (federation.max_peer_bytes)',
    );
  });
});

describe('formatBytes (the site)', () => {
  it('rounds for lists and totals', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(81052632)).toBe('77 MB');
  });
});
