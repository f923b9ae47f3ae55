/**
 * A tampered `.cache/` never reaches the output. Whoever can write to `.cache/` (a CI cache
 * restored from another run) tries every way the first cache allowed: a raw file's entry renamed
 * to the digest of evil bytes, an archive that gains a file, a rendered SKILL.md holding
 * `<script src>`, an entry that is a symbolic link, and `.cache` itself a link. Each build
 * publishes what a build from nothing publishes and names the entry it refused.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const sha = (b: string | Buffer): string => createHash('sha256').update(b).digest('hex');
const NOTES = 'honest notes\n';

let tmp: string;
let work: string;
const out = (): string => path.join(work, 'out');

async function build(cwd: string, extra: string[] = []): Promise<{ stderr: string }> {
  const args = [
    path.join(REPO, 'scripts/skillpress.mjs'),
    'build',
    '--skills',
    path.join(tmp, 'skills'),
    '--out',
    out(),
    ...extra,
  ];
  const { stderr } = await run(path.join(REPO, 'node_modules/.bin/node'), args, {
    cwd,
    env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: '1767225600' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stderr };
}

/** The names in a cache folder, links included. */
const entries = (dir: string): Promise<string[]> => readdir(path.join(work, '.cache', dir));

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-cache-tamper-'));
  work = path.join(tmp, 'work');
  const skill = path.join(tmp, 'skills', 'demo');
  await mkdir(path.join(skill, 'scripts'), { recursive: true });
  await writeFile(
    path.join(skill, 'SKILL.md'),
    '---\nname: demo\ndescription: A demo skill for the cache tests.\n---\n\n# Demo\n\nRead [the notes](notes.txt).\n',
  );
  await writeFile(path.join(skill, 'notes.txt'), NOTES);
  await writeFile(path.join(skill, 'scripts', 'x.js'), 'console.log("demo");\n');
  await mkdir(work);
  await build(work);
}, 180_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a tampered .cache/', () => {
  it('a raw file entry renamed to the digest of evil bytes is refused: the honest bytes are published', async () => {
    const honest = `${sha(NOTES)}.${sha(NOTES)}`;
    expect(await entries('feed/files')).toContain(honest);
    await rm(path.join(work, '.cache/feed/files', honest));
    await writeFile(path.join(work, '.cache/feed/files', `${sha(NOTES)}.${sha('evil\n')}`), 'evil\n');
    const { stderr } = await build(work, ['--no-site']);
    expect(await readFile(path.join(out(), 'feed/v1/files/demo/notes.txt'), 'utf8')).toBe(NOTES);
    expect(stderr).toContain(`${sha(NOTES)}.${sha('evil\n')}`);
  });

  it('an archive that gains a file (renamed to its new digest, old tag kept) is refused and made again', async () => {
    const archive = path.join(out(), '.well-known/agent-skills/demo.tar.gz');
    const honest = sha(await readFile(archive));
    const names = (await entries('feed/archives')).filter((n) => n.split('.')[1] === honest);
    expect(names).toHaveLength(1);
    const [key, , tag] = names[0]!.split('.');
    const evil = Buffer.concat([await readFile(archive), Buffer.from('a file the skill never had')]);
    await rm(path.join(work, '.cache/feed/archives', names[0]!));
    await writeFile(path.join(work, '.cache/feed/archives', `${key}.${sha(evil)}.${tag}`), evil);
    const { stderr } = await build(work, ['--no-site']);
    expect(sha(await readFile(archive))).toBe(honest);
    expect(stderr).toContain(`${key}.${sha(evil)}`);
  });

  it('a rendered SKILL.md holding <script src> is refused: the page is rendered again from the skill', async () => {
    const dir = path.join(work, '.cache/site/skill-html');
    const name = (await readdir(dir)).find((n) => !n.startsWith('.'));
    const [key] = name!.split('.');
    const evil = `${await readFile(path.join(dir, name!), 'utf8')}<script src="/feed/v1/files/demo/scripts/x.js"></script>`;
    await rm(path.join(dir, name!));
    // Unsigned, as an attacker without the machine's key can only write it.
    await writeFile(path.join(dir, `${key}.${sha(evil)}`), evil);
    const { stderr } = await build(work);
    const page = await readFile(path.join(out(), 'skills/demo/index.html'), 'utf8');
    expect(page).toContain('the notes');
    expect(page).not.toContain('scripts/x.js"></script>');
    expect(stderr).toContain(`${key}.${sha(evil)}`);
  });

  it('an entry that is a symbolic link never puts a link (or what it points to) into the output', async () => {
    const target = path.join(tmp, 'passwd');
    await writeFile(target, NOTES);
    const dir = path.join(work, '.cache/feed/files');
    await rm(dir, { recursive: true });
    await mkdir(dir);
    // Named right for its target's bytes: only being a link gives it away.
    await symlink(target, path.join(dir, `${sha(NOTES)}.${sha(NOTES)}`));
    const { stderr } = await build(work, ['--no-site']);
    const published = path.join(out(), 'feed/v1/files/demo/notes.txt');
    expect((await lstat(published)).isFile()).toBe(true);
    expect(stderr).toMatch(/symbolic link/);
  });

  it('a .cache that is a symbolic link is not written through: the build keeps its work elsewhere and says so', async () => {
    const other = path.join(tmp, 'other-work');
    const elsewhere = path.join(tmp, 'elsewhere');
    await mkdir(other);
    await mkdir(elsewhere);
    await symlink(elsewhere, path.join(other, '.cache'));
    const args = ['--out', path.join(other, 'out')];
    const cli = [path.join(REPO, 'scripts/skillpress.mjs'), 'build', '--skills', path.join(tmp, 'skills'), ...args];
    const { stderr } = await run(path.join(REPO, 'node_modules/.bin/node'), cli, {
      cwd: other,
      env: { ...process.env, CI: 'true' },
    });
    expect(await readdir(elsewhere)).toEqual([]);
    expect(stderr).toContain(`${path.join(other, '.cache')} is a symbolic link`);
    expect(await readFile(path.join(other, 'out/feed/v1/files/demo/notes.txt'), 'utf8')).toBe(NOTES);
    // Nor does Astro leave its prerender bundle's folder where the build ran.
    expect(await readdir(other)).toEqual(['.cache', 'out']);
  });
});
