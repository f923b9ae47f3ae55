/**
 * A feed-only rebuild (what `skillpress mcp --skills` runs after each write) takes the file
 * folders of unchanged skills from the output it replaces instead of writing them again, and
 * still writes exactly what a build from nothing writes; a folder edited in place is written again.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../../src/build.ts';
import { plainSkillMd, write } from '../feed/fixture.ts';

let tmp: string;
let skills: string;
const EPOCH = 1_700_000_000;

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-kept-folders-'));
  skills = path.join(tmp, 'skills');
  for (const name of ['alpha', 'beta', 'gamma']) {
    write(skills, `${name}/SKILL.md`, plainSkillMd(name, '', `# ${name}\n\nSee [the guide](references/guide.md).\n`));
    write(skills, `${name}/references/guide.md`, `The ${name} guide.\n`);
    write(skills, `${name}/scripts/run.sh`, `echo ${name}\n`);
  }
  // Only its SKILL.md: the discovery index serves it as `.well-known/agent-skills/delta/SKILL.md`.
  write(skills, 'delta/SKILL.md', plainSkillMd('delta'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file below `dir`: relative path → its bytes. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      files.set(
        path.relative(dir, path.join(e.parentPath, e.name)),
        readFileSync(path.join(e.parentPath, e.name), 'hex'),
      );
  return files;
}

const feedOnly = (out: string): BuildOptions => ({
  skills,
  out: path.join(tmp, out),
  cwd: tmp,
  site: false,
  sourceDateEpoch: EPOCH,
  config: { registry: { name: 'acme' } },
});

describe('feed-only rebuilds', () => {
  it('take unchanged skills’ file folders from the output they replace, and write what a build from nothing writes', async () => {
    const first = await build(feedOnly('out'));
    expect(first.reused.fileFolders).toBe(0);
    write(skills, 'beta/references/guide.md', 'The beta guide, edited.\n');
    const again = await build(feedOnly('out'));
    expect(again.reused.fileFolders).toBe(3);
    expect(readFileSync(path.join(tmp, 'out/feed/v1/files/beta/references/guide.md'), 'utf8')).toContain('edited');

    rmSync(path.join(tmp, '.cache'), { recursive: true, force: true });
    await build(feedOnly('fresh'));
    const kept = tree(path.join(tmp, 'out'));
    const fresh = tree(path.join(tmp, 'fresh'));
    kept.delete('_build.json');
    fresh.delete('_build.json');
    expect([...kept.keys()].sort()).toEqual([...fresh.keys()].sort());
    // The change list (and the index, which holds its digest) says what changed since the last build.
    const history = new Set(['feed/v1/changes.json', 'feed/v1/index.json']);
    for (const [file, bytes] of fresh) if (!history.has(file)) expect(kept.get(file), file).toBe(bytes);
  });

  it('writes a folder again when the output being replaced was edited in place', async () => {
    const guide = path.join(tmp, 'out/feed/v1/files/alpha/references/guide.md');
    rmSync(guide);
    writeFileSync(guide, 'Not what the skill holds.\n');
    writeFileSync(path.join(tmp, 'out/feed/v1/files/gamma/stray.txt'), 'not ours\n');
    const result = await build(feedOnly('out'));
    expect(result.reused.fileFolders).toBe(2);
    expect(readFileSync(guide, 'utf8')).toBe('The alpha guide.\n');
    expect(readdirSync(path.join(tmp, 'out/feed/v1/files/gamma'))).not.toContain('stray.txt');
  });

  it('takes the discovery folder of a skill that is only its SKILL.md from the output it replaces, unless edited there', async () => {
    const folder = path.join(tmp, 'out/.well-known/agent-skills/delta');
    const md = path.join(folder, 'SKILL.md');
    await build(feedOnly('out'));
    const before = statSync(folder).ino;
    await build(feedOnly('out'));
    // The same folder (its inode): moved in, not made again.
    expect(statSync(folder).ino).toBe(before);
    const text = readFileSync(md, 'utf8');
    writeFileSync(path.join(tmp, 'out/.well-known/agent-skills/delta/stray.txt'), 'not ours\n');
    await build(feedOnly('out'));
    expect(readdirSync(path.join(tmp, 'out/.well-known/agent-skills/delta'))).toEqual(['SKILL.md']);
    rmSync(md);
    writeFileSync(md, text.toUpperCase());
    await build(feedOnly('out'));
    expect(readFileSync(md, 'utf8')).toBe(text);
  });

  it('links skill JSON that comes out the same from the output it replaces, and writes the rest', async () => {
    const json = (out: string, id: string): string => path.join(tmp, out, `feed/v1/skills/${id}.json`);
    await build(feedOnly('out'));
    const before = { alpha: statSync(json('out', 'alpha')).ino, beta: statSync(json('out', 'beta')).ino };
    write(skills, 'beta/SKILL.md', plainSkillMd('beta', '', '# beta\n\nEdited instructions.\n'));
    await build(feedOnly('out'));
    // The same inode: linked, not written again (the old name went with the output it replaced).
    expect(statSync(json('out', 'alpha')).ino).toBe(before.alpha);
    expect(statSync(json('out', 'beta')).ino).not.toBe(before.beta);
    expect(readFileSync(json('out', 'beta'), 'utf8')).toContain('Edited instructions.');

    // A file of the same size edited in place in the output being replaced is never linked.
    const alpha = readFileSync(json('out', 'alpha'), 'utf8');
    const altered = alpha.replace('"alpha"', '"alphA"');
    expect(altered.length).toBe(alpha.length);
    writeFileSync(json('out', 'alpha'), altered);
    await build(feedOnly('out'));
    expect(readFileSync(json('out', 'alpha'), 'utf8')).toBe(alpha);
  });
});
