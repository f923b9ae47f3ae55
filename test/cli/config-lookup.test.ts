/**
 * Where the configuration comes from, and the mistakes that must not pass silently: the config
 * belongs to the skills folder's repository (never the working directory by accident), and a
 * wrong `--config`, a folder named skillpress.json or a misspelt key stop the command (exit 2).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findConfig, findSkillsAndConfig } from '../../src/config/load.ts';
import { UsageError } from '../../src/lib/errors.ts';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'sp-config-'));
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

async function put(rel: string, content: unknown): Promise<string> {
  const file = path.join(tmp, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('config lookup from the skills folder', () => {
  it('finds skillpress.json at the repository root from a skills folder below it', async () => {
    const file = await put('repo/skillpress.json', { registry: { title: 'Mine' } });
    await mkdir(path.join(tmp, 'repo/.git'));
    await mkdir(path.join(tmp, 'repo/skills/a'), { recursive: true });
    const found = await findConfig({ from: path.join(tmp, 'repo/skills') });
    expect(found.file).toBe(file);
    expect(found.config.registry.title).toBe('Mine');
  });

  it('finds config/skillpress.json too, and resolves skills.root against the folder holding config/', async () => {
    await put('repo/config/skillpress.json', { skills: { root: 'catalog' } });
    const found = await findSkillsAndConfig({ config: path.join(tmp, 'repo/config') });
    expect(path.resolve(found.skills)).toBe(path.join(tmp, 'repo/catalog'));
  });

  it('stops at the repository root: a config above it (another project) is not taken', async () => {
    await put('skillpress.json', { registry: { title: 'Someone else' } });
    await mkdir(path.join(tmp, 'theirs/.git'), { recursive: true });
    await mkdir(path.join(tmp, 'theirs/skills'), { recursive: true });
    const found = await findConfig({ from: path.join(tmp, 'theirs/skills') });
    expect(found.file).toBeUndefined();
    expect(found.config.registry.title).toBe('Skills catalog');
  });

  it('both skillpress.json and config/skillpress.json in one folder is an error, not a silent choice', async () => {
    await put('repo/skillpress.json', {});
    await put('repo/config/skillpress.json', {});
    await expect(findConfig({ from: path.join(tmp, 'repo') })).rejects.toThrow(/both exist/);
  });

  it('a folder named skillpress.json is an error, not "no config"', async () => {
    await mkdir(path.join(tmp, 'repo/skillpress.json'), { recursive: true });
    await expect(findConfig({ from: path.join(tmp, 'repo') })).rejects.toThrow(/is a folder, not a file/);
  });
});

describe('--config', () => {
  it('takes the file itself or the folder holding it', async () => {
    const file = await put('c/skillpress.json', { registry: { name: 'mine' } });
    expect((await findConfig({ config: file })).config.registry.name).toBe('mine');
    expect((await findConfig({ config: path.dirname(file) })).config.registry.name).toBe('mine');
  });

  it('a missing path, or a folder without skillpress.json, is a usage error naming it', async () => {
    await mkdir(path.join(tmp, 'empty'));
    const missing = findConfig({ config: path.join(tmp, 'nope') });
    await expect(missing).rejects.toThrow(UsageError);
    await expect(missing).rejects.toThrow(/nope: no such file or folder/);
    await expect(findConfig({ config: path.join(tmp, 'empty') })).rejects.toThrow(/no skillpress.json in this folder/);
  });
});

describe('unknown keys', () => {
  it('names the misspelt key and the closest known one', async () => {
    const file = await put('c/skillpress.json', { registry: { titel: 'Mine' } });
    const err = await findConfig({ config: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`${file}: registry.titel: unknown key (did you mean "title"?)`);
  });

  it('checks nested objects in arrays (peers) and allows $schema', async () => {
    const file = await put('c/skillpress.json', {
      $schema: './skillpress.schema.json',
      federation: { peers: [{ name: 'p', url: 'https://p.example/', mod: 'all' }] },
    });
    await expect(findConfig({ config: file })).rejects.toThrow(
      /federation\.peers\.0\.mod: unknown key \(did you mean "mode"\?\)/,
    );
  });

  it('names the wrong values in the same message, so one run lists every mistake', async () => {
    const file = await put('c/skillpress.json', { registry: { titel: 'Mine' }, analytics: { min_reports: 0 } });
    const err = await findConfig({ config: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: registry\\.titel: unknown key \\(did you mean "title"\\?\\); analytics\\.min_reports: `,
      ),
    );
  });

  it('a key nothing is near gets no suggestion', async () => {
    const file = await put('c/skillpress.json', { zzzzzz: 1 });
    await expect(findConfig({ config: file })).rejects.toThrow(/zzzzzz: unknown key$/);
  });
});

describe('federation.peers: rules across fields', () => {
  const peer = (name: string, extra: object = {}) => ({ name, url: `https://${name}.example/`, ...extra });
  /** The error `findConfig` stops with for this config file, and the file. */
  async function refusal(config: object): Promise<{ file: string; message: string }> {
    const file = await put('c/skillpress.json', config);
    const err = await findConfig({ config: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    return { file, message: (err as Error).message };
  }

  it('two peers of one name: an error on the second, naming the first', async () => {
    const { file, message } = await refusal({
      registry: { name: 'regb' },
      federation: { peers: [peer('rega'), peer('other'), peer('rega')] },
    });
    expect(message).toBe(
      `${file}: federation.peers.2.name: "rega" is federation.peers.0.name too: each peer needs a name of its own (its registry's name), since its skills are attributed to that name; rename one, or remove the duplicate entry`,
    );
  });

  it('a peer named as this registry is: one error, not a cycle warning per skill', async () => {
    const { file, message } = await refusal({ registry: { name: 'regb' }, federation: { peers: [peer('regb')] } });
    expect(message).toBe(
      `${file}: federation.peers.0.name: "regb" is this registry's own name (registry.name): name a peer by its registry's name (the one its feed's index.json gives); under ours, every skill it sends would be refused as one of ours coming back (an import cycle). Rename the peer, or give this registry a name of its own`,
    );
    const unnamed = await refusal({ federation: { peers: [peer('local')] } });
    expect(unnamed.message).toContain('"local" is this registry\'s own name (registry.name, "local" when not set)');
  });

  it('mode "allowlist" without skills imports nothing: an error saying what to list', async () => {
    const { file, message } = await refusal({ federation: { peers: [peer('rega', { mode: 'allowlist' })] } });
    expect(message).toBe(
      `${file}: federation.peers.0.skills: mode "allowlist" needs a non-empty skills list, or nothing is imported: list them, e.g. "skills": ["pdf-tools"], or use "mode": "all" to import every skill`,
    );
  });

  it('mode "tags" given skills instead of tags: both fields named, with the mode', async () => {
    const { file, message } = await refusal({
      federation: { peers: [peer('rega', { mode: 'tags', skills: ['brainstorming'] })] },
    });
    expect(message).toBe(
      `${file}: federation.peers.0.skills: only mode "allowlist" reads skills, and this peer's mode is "tags": put them in tags (what mode "tags" reads), or set "mode": "allowlist"; ` +
        `federation.peers.0.tags: mode "tags" needs a non-empty tags list, or nothing is imported: list them, e.g. "tags": ["pdf"], or use "mode": "all" to import every skill`,
    );
  });

  it('a list under mode "all" (the default) would be ignored: an error', async () => {
    const { message } = await refusal({ federation: { peers: [peer('rega', { tags: ['pdf'] })] } });
    expect(message).toContain(
      'federation.peers.0.tags: only mode "tags" reads tags, and this peer\'s mode is "all" (the default), which imports every skill: set "mode": "tags" to import only these, or remove tags',
    );
  });

  it('lists every mistake of the file at once, not three and a count', async () => {
    const peers = ['a', 'b', 'c', 'd', 'e'].map((name) => peer(name, { mode: 'allowlist' }));
    const { message } = await refusal({ federation: { peers } });
    for (let i = 0; i < peers.length; i++)
      expect(message).toContain(`federation.peers.${i}.skills: mode "allowlist" needs`);
    expect(message).not.toMatch(/and \d+ more/);
  });

  it('each mode with its own list passes', async () => {
    const file = await put('c/skillpress.json', {
      registry: { name: 'home' },
      federation: {
        peers: [peer('a'), peer('b', { mode: 'allowlist', skills: ['x'] }), peer('c', { mode: 'tags', tags: ['pdf'] })],
      },
    });
    expect((await findConfig({ config: file })).config.federation.peers.map((p) => p.mode)).toEqual([
      'all',
      'allowlist',
      'tags',
    ]);
  });
});
