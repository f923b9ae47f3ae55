/**
 * A BuildSession (what `skillpress dev` and `skillpress mcp --skills` keep between builds) reads
 * again only the skill folders that changed, and its builds publish what builds without it do.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, BuildSession, type BuildOptions } from '../../src/build.ts';
import { plainSkillMd, write } from '../feed/fixture.ts';

let tmp: string;
let skills: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-session-'));
  skills = path.join(tmp, 'skills');
  for (const name of ['alpha', 'beta', 'gamma']) {
    write(skills, `${name}/SKILL.md`, plainSkillMd(name));
    write(skills, `${name}/notes.md`, `Notes of ${name}.\n`);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const options = (out: string, session?: BuildSession): BuildOptions => ({
  skills,
  out: path.join(tmp, out),
  cwd: tmp,
  site: false,
  sourceDateEpoch: 1_700_000_000,
  ...(session ? { session } : {}),
});
const skillJson = (out: string, id: string): string =>
  readFileSync(path.join(tmp, out, 'feed/v1/skills', `${id}.json`), 'utf8');

describe('BuildSession', () => {
  it('reads again only the skill folders that changed, and publishes what a build without it does', async () => {
    const session = new BuildSession();
    expect((await build(options('out', session))).reused.skills).toBe(0);
    expect((await build(options('out', session))).reused.skills).toBe(3);

    // Same size, same modification time: the change time still tells.
    const notes = path.join(skills, 'beta/notes.md');
    const { mtime } = statSync(notes);
    writeFileSync(notes, 'Notes of BETA.\n');
    utimesSync(notes, mtime, mtime);
    write(skills, 'delta/SKILL.md', plainSkillMd('delta'));
    const again = await build(options('out', session));
    expect([again.reused.skills, again.skills]).toEqual([2, 4]);

    await build(options('fresh'));
    for (const id of ['alpha', 'beta', 'delta']) expect(skillJson('out', id)).toBe(skillJson('fresh', id));
    expect(readFileSync(path.join(tmp, 'out/feed/v1/files/beta/notes.md'), 'utf8')).toBe('Notes of BETA.\n');
  });

  it('forgets a removed skill', async () => {
    const session = new BuildSession();
    await build(options('gone', session));
    rmSync(path.join(skills, 'delta'), { recursive: true });
    const result = await build(options('gone', session));
    expect([result.skills, result.reused.skills, result.changes.removed]).toEqual([3, 3, 1]);
  });
});
