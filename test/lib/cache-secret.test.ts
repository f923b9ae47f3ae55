/** The secret that signs `.cache/` entries: kept outside the cache, never inside it, from the environment in CI. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_KEY_ENV, cacheSecret, cacheSecretFile } from '../../src/lib/cache-secret.ts';
import { UsageError } from '../../src/lib/errors.ts';

let tmp: string;
const saved = { state: process.env.XDG_STATE_HOME, key: process.env[CACHE_KEY_ENV] };
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-secret-'));
  delete process.env[CACHE_KEY_ENV];
});
afterEach(async () => {
  for (const [name, value] of [
    ['XDG_STATE_HOME', saved.state],
    [CACHE_KEY_ENV, saved.key],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(tmp, { recursive: true, force: true });
});

describe('cacheSecret', () => {
  it('is made once outside the cache, readable by its owner only, and the same for every later build', async () => {
    process.env.XDG_STATE_HOME = path.join(tmp, 'state');
    const first = cacheSecret(path.join(tmp, 'project/.cache/feed'));
    expect(first.source).toBe(cacheSecretFile());
    expect((await stat(cacheSecretFile())).mode & 0o777).toBe(0o600);
    expect(cacheSecret(path.join(tmp, 'project/.cache/site')).secret.equals(first.secret)).toBe(true);
  });

  it('is never kept inside the cache it signs: then it lasts this process only', () => {
    process.env.XDG_STATE_HOME = path.join(tmp, 'project/.cache');
    expect(cacheSecret(path.join(tmp, 'project/.cache')).source).toBe('this process only');
  });

  it('comes from SKILLPRESS_CACHE_KEY when set, which must be long enough to be a secret', () => {
    process.env[CACHE_KEY_ENV] = 'x'.repeat(40);
    expect(cacheSecret(tmp)).toMatchObject({ source: CACHE_KEY_ENV });
    process.env[CACHE_KEY_ENV] = 'short';
    expect(() => cacheSecret(tmp)).toThrow(UsageError);
  });
});
