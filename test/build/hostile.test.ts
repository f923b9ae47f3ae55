/**
 * build() (the library call behind `skillpress build`) on hostile skill folders made here
 * (issue 11): whatever a skill holds, nothing of a private skill reaches public output, a name
 * that cannot be published costs only that file, dotted names are published, thousands of files
 * build with no machine path in the output, archives past 65,535 entries are ZIP64, and the
 * output folder is guarded (not inside the skills folder; stale staging folders cleaned).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { build, type BuildResult } from '../../src/build.ts';
import { zip } from '../../src/emit/feed/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { FeedSkill } from '../../src/model/feed.ts';
import { UsageError } from '../../src/lib/errors.ts';
import { everyText, readTarGz, readZip } from '../feed/archive-reader.ts';
import { plainSkillMd as front, write as put } from '../feed/fixture.ts';

let tmp: string;
const config = SkillpressConfig.parse({ registry: { name: 'hostile', title: 'Hostile' } });

/** A skills folder made by `make`, built (feeds only) into a fresh output folder. */
async function buildSkills(make: (skills: string) => void): Promise<{ result: BuildResult; out: string; dir: string }> {
  const dir = mkdtempSync(path.join(tmp, 'case-'));
  const skills = path.join(dir, 'skills');
  mkdirSync(skills);
  make(skills);
  const out = path.join(dir, 'out');
  const result = await build({ skills, out, config, site: false });
  return { result, out, dir };
}

const skillJson = (out: string, id: string): FeedSkill =>
  FeedSkill.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/skills', `${id}.json`), 'utf8')));

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-hostile-build-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('private skills', () => {
  it('reach no public output by any route, even through links from a public skill they are nested in', async () => {
    const SECRET = 'zqxnestedsecret';
    const { result, out } = await buildSkills((skills) => {
      put(skills, 'outer/SKILL.md', front('outer'));
      put(
        skills,
        'outer/inner/SKILL.md',
        front('inner', `metadata:\n  visibility: private\n  tags: ${SECRET}\n`) + `${SECRET}\n`,
      );
      put(skills, 'outer/inner/notes.md', `${SECRET}\n`);
      put(skills, 'outer/inner/data/secret.bin', Buffer.concat([Buffer.from([0, 1]), Buffer.from(SECRET)]));
      symlinkSync('inner/notes.md', path.join(skills, 'outer/notes.md'));
      symlinkSync('inner/SKILL.md', path.join(skills, 'outer/inner-skill.md'));
      symlinkSync('inner/data/secret.bin', path.join(skills, 'outer/secret.bin'));
      symlinkSync('inner', path.join(skills, 'outer/inner-folder'));
      put(skills, 'public-one/SKILL.md', front('public-one'));
    });
    expect(result).toMatchObject({ skills: 1, withheld: 1 });
    expect(
      result.problems
        .filter((p) => p.rule === 'symlink-escape')
        .map((p) => p.file)
        .sort(),
    ).toEqual(['inner-folder', 'inner-skill.md', 'notes.md', 'secret.bin']);
    const texts = await everyText(out);
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(text.includes(SECRET)).toBe(false);
  });
});

describe('file names', () => {
  it('leaves out a file named "c:notes.txt", reports it, and builds the rest', async () => {
    const { result, out } = await buildSkills((skills) => {
      put(skills, 'notes/SKILL.md', front('notes'));
      put(skills, 'notes/c:notes.txt', 'drive letter\n');
      put(skills, 'notes/ok.txt', 'fine\n');
      put(skills, 'other/SKILL.md', front('other'));
    });
    expect(result).toMatchObject({ ok: true, skills: 2 });
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        skill: 'notes',
        file: 'c:notes.txt',
        rule: 'path-unpublishable',
        message: expect.stringContaining('drive letter'),
      }),
    );
    expect(skillJson(out, 'notes').files.map((f) => f.path)).toEqual(['SKILL.md', 'ok.txt']);
  });

  it('publishes "..notes.md", "..." and "..txt" in the feed, the skill JSON and both archives', async () => {
    const names = ['...', '..notes.md', '..txt', 'sub/..x'];
    const { result, out } = await buildSkills((skills) => {
      put(skills, 'dots/SKILL.md', front('dots'));
      for (const n of names) put(skills, `dots/${n}`, `${n}\n`);
    });
    expect(result).toMatchObject({ ok: true, skills: 1, problems: [] });
    expect(skillJson(out, 'dots').files.map((f) => [f.path, f.url])).toEqual([
      ['...', 'files/dots/...'],
      ['..notes.md', 'files/dots/..notes.md'],
      ['..txt', 'files/dots/..txt'],
      ['SKILL.md', 'files/dots/SKILL.md'],
      ['sub/..x', 'files/dots/sub/..x'],
    ]);
    for (const n of names) expect(readFileSync(path.join(out, 'feed/v1/files/dots', n), 'utf8')).toBe(`${n}\n`);
    const archive = path.join(out, '.well-known/agent-skills/dots');
    const tarNames = (await readTarGz(readFileSync(`${archive}.tar.gz`))).map((e) => e.path);
    const zipNames = readZip(readFileSync(`${archive}.zip`)).map((e) => e.path);
    for (const list of [tarNames, zipNames])
      expect(list.sort()).toEqual(['...', '..notes.md', '..txt', 'SKILL.md', 'sub/..x']);
  });
});

describe('size', () => {
  it('builds a skill of 3,000 files and a 1 MiB run of one character, with no machine path in the output', async () => {
    const MIB = 1024 * 1024;
    const { result, out, dir } = await buildSkills((skills) => {
      put(skills, 'many/SKILL.md', front('many'));
      for (let i = 0; i < 3000; i++) put(skills, `many/f/${String(i).padStart(4, '0')}.md`, `file ${i}\n`);
      put(skills, 'runs/SKILL.md', `---\nname: runs\ndescription: Long runs.\n---\n${'a'.repeat(MIB - 60)}`);
      put(skills, 'runs/run.txt', 'x'.repeat(MIB));
    });
    expect(result).toMatchObject({ ok: true, skills: 2, files: 3003 });
    const many = skillJson(out, 'many');
    expect(many.files.filter((f) => f.url)).toHaveLength(3001);
    expect(readZip(readFileSync(path.join(out, '.well-known/agent-skills/many.zip')))).toHaveLength(3001);
    expect(skillJson(out, 'runs').files.find((f) => f.path === 'run.txt')!.tokens).toBeGreaterThan(1000);
    for (const text of await everyText(out)) {
      expect(text.includes(dir)).toBe(false);
      expect(text.includes('.staging-')).toBe(false);
    }
  });

  it('writes a ZIP64 archive past 65,535 entries, readable entry by entry', async () => {
    const entries = Array.from({ length: 66_000 }, (_, i) => ({
      path: i === 0 ? 'SKILL.md' : `f/${i}.txt`,
      bytes: Buffer.from(`file ${i}\n`),
    }));
    const archive = await zip(entries, 0);
    // The plain end record says 0xFFFF entries; the ZIP64 end record before it holds the count.
    expect(archive.readUInt16LE(archive.byteLength - 22 + 10)).toBe(0xffff);
    expect(archive.readUInt32LE(archive.byteLength - 22 - 20)).toBe(0x07064b50);
    const back = readZip(archive);
    expect(back).toHaveLength(66_000);
    expect(back.find((e) => e.path === 'f/65999.txt')!.bytes.toString()).toBe('file 65999\n');
  });
});

describe('the output folder', () => {
  it('may sit inside the skills folder (skills at a repository top): the next build loads no copy of its output', async () => {
    const dir = mkdtempSync(path.join(tmp, 'top-'));
    put(dir, 'a/SKILL.md', front('a'));
    put(dir, 'b/SKILL.md', front('b'));
    const out = path.join(dir, 'dist');
    const first = await build({ skills: dir, out, config, site: false });
    expect(first.ok).toBe(true);
    // The output holds each skill again (feed files, discovery index): none is a skill of the folder.
    expect(existsSync(path.join(out, 'feed/v1/files/a/SKILL.md'))).toBe(true);
    const again = await build({ skills: dir, out, config, site: false });
    expect(again.ok).toBe(true);
    expect(again.skills).toBe(2);
    expect(again.problems).toEqual(first.problems);
    expect(again.problems.map((p) => p.rule)).not.toContain('duplicate-copy');
  });

  it("is refused inside a skill folder (usage error): its files would be the skill's", async () => {
    const dir = mkdtempSync(path.join(tmp, 'inside-'));
    put(dir, 'skills/a/SKILL.md', front('a'));
    const refusal = await build({
      skills: path.join(dir, 'skills'),
      out: path.join(dir, 'skills/a/dist'),
      config,
      site: false,
    }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toMatch(/inside the skill folder .*skills[/\\]a:/);
    expect(existsSync(path.join(dir, 'skills/a/dist'))).toBe(false);
  });

  it('loses the staging folders a killed build left, and keeps those of running builds and folders that are not ours', async () => {
    const dir = mkdtempSync(path.join(tmp, 'staging-'));
    put(dir, 'skills/a/SKILL.md', front('a'));
    const mark = (pid: number): string =>
      JSON.stringify({ host: hostname(), pid, started: '2020-01-01T00:00:00.000Z' });
    // A pid that is not running: above the kernel's pid_max (2^22).
    put(dir, '.out.staging-killed/.skillpress-staging.json', mark(2 ** 22 + 17));
    put(dir, '.out.staging-killed/data/feed/v1/index.json', '{}');
    put(dir, '.out.staging-running/.skillpress-staging.json', mark(process.pid));
    put(dir, '.out.staging-unmarked/keep.txt', 'not ours');
    put(
      dir,
      '.out.staging-other-host/.skillpress-staging.json',
      JSON.stringify({ host: `not-${hostname()}`, pid: 2 ** 22 + 17 }),
    );
    const lines: string[] = [];
    const result = await build({
      skills: path.join(dir, 'skills'),
      out: path.join(dir, 'out'),
      config,
      site: false,
      log: (l) => lines.push(l),
    });
    expect(result.ok).toBe(true);
    expect(existsSync(path.join(dir, '.out.staging-killed'))).toBe(false);
    for (const kept of ['running', 'unmarked', 'other-host'])
      expect(existsSync(path.join(dir, `.out.staging-${kept}`)), kept).toBe(true);
    expect(lines).toContainEqual(expect.stringContaining('.out.staging-killed, left by a build that stopped'));
  });
});
