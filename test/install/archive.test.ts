/**
 * The zip reader's bounds: an entry is inflated into at most one byte more than the size the
 * central directory declares, so an entry that lies about its size is refused without being
 * inflated in full, and the whole archive stays within `maxBytes`.
 */
import { describe, expect, it } from 'vitest';
import { unpack } from '../../src/install/archive.ts';
import { InvalidInputError } from '../../src/lib/errors.ts';
import { skillMdText, zip } from './helpers.ts';

/** Rewrites the uncompressed size the central directory declares for the entry `name`. */
function declareSize(archive: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(archive);
  for (
    let at = out.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    at >= 0;
    at = out.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), at + 4)
  ) {
    const nameLen = out.readUInt16LE(at + 28);
    if (out.subarray(at + 46, at + 46 + nameLen).toString('utf8') === name) {
      out.writeUInt32LE(size, at + 24);
      return out;
    }
  }
  throw new Error(`no central directory entry ${name}`);
}

describe('zip entries', () => {
  const entries = [
    { name: 'SKILL.md', data: skillMdText('zipped') },
    { name: 'zeros.bin', data: new Uint8Array(5_000_000) },
  ];

  it('unpacks deflated entries byte for byte', async () => {
    const { files } = await unpack(zip(entries), 10_000_000);
    expect(files.get('SKILL.md')?.bytes.toString('utf8')).toBe(skillMdText('zipped'));
    expect(files.get('zeros.bin')?.bytes.equals(Buffer.alloc(5_000_000))).toBe(true);
  });

  it('refuses an entry that inflates to more than it declares, naming it', async () => {
    const lying = declareSize(zip(entries), 'zeros.bin', 100);
    const refused = unpack(lying, 10_000_000);
    await expect(refused).rejects.toThrow(InvalidInputError);
    await expect(refused).rejects.toThrow('zip: entry "zeros.bin" unpacks to more than the 100 bytes it declares');
  });

  it('refuses an entry that inflates to less than it declares', async () => {
    const lying = declareSize(zip(entries), 'zeros.bin', 5_000_001);
    await expect(unpack(lying, 10_000_000)).rejects.toThrow('unpacks to 5000000 bytes, not the 5000001 it declares');
  });

  it('stops at maxBytes', async () => {
    await expect(unpack(zip(entries), 1_000_000)).rejects.toThrow('archive unpacks to more than 1000000 bytes');
  });
});
