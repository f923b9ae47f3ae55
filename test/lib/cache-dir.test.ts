/**
 * Where a build keeps its work: `.cache` when it is a real folder that can be written, else a
 * temporary folder, said in one line and removed at close. The cache only saves time, so a
 * working folder that cannot hold it (read-only, odd) never fails a build.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheRoot } from '../../src/lib/cache-dir.ts';
import { ROOT_USER } from '../helpers/unwritable-folder.ts';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-dir-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Opens `dir`, expecting the temporary folder; returns the one line said. */
function expectFallback(dir: string, code: string): string {
  const lines: string[] = [];
  const root = openCacheRoot(dir, (line) => lines.push(line));
  expect(root.temporary).toBe(true);
  expect(root.dir).not.toBe(dir);
  expect(existsSync(root.dir)).toBe(true);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`cache: ${dir} cannot be made or written (${code})`);
  expect(lines[0]).toContain(`keeps its work in ${root.dir}`);
  root.close();
  expect(existsSync(root.dir)).toBe(false);
  return lines[0]!;
}

describe('openCacheRoot', () => {
  it('makes and uses .cache in a writable folder, saying nothing', () => {
    const lines: string[] = [];
    const root = openCacheRoot(path.join(tmp, '.cache'), (line) => lines.push(line));
    expect(root).toMatchObject({ dir: path.join(tmp, '.cache'), temporary: false });
    expect(existsSync(root.dir)).toBe(true);
    expect(lines).toEqual([]);
  });

  it('falls back to a temporary folder when .cache cannot be made (its folder is a file: ENOTDIR)', async () => {
    await writeFile(path.join(tmp, 'file'), 'not a folder\n');
    expectFallback(path.join(tmp, 'file', '.cache'), 'ENOTDIR');
  });

  it.skipIf(ROOT_USER)('falls back when the working folder is read-only (EACCES; skipped as root)', async () => {
    const ro = path.join(tmp, 'ro');
    await mkdir(ro, { mode: 0o555 });
    expectFallback(path.join(ro, '.cache'), 'EACCES');
  });

  it.skipIf(ROOT_USER)('falls back when .cache exists but cannot be written (EACCES; skipped as root)', async () => {
    const cache = path.join(tmp, '.cache');
    await mkdir(cache, { mode: 0o555 });
    expectFallback(cache, 'EACCES');
  });
});
