/**
 * loadCatalog on a real folder: every file comes back byte-exact (compared with disk by bytes
 * and sha256), ignored names stay out, big files are listed but not stored, a symlink leaving
 * the skill is an error whose target is never read, and the result is the same on every load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileBytes, loadCatalog } from '../../src/load/index.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';

const MIB = 1024 * 1024;
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

let tmp: string;
let root: string;
const secret = `TOP-SECRET-${randomBytes(12).toString('hex')}`;

const SKILL = 'finance/refund-approval';
const NESTED = 'finance/refund-approval/nested/inner-skill';
const ESCAPING = 'escaping';

/** Files of the main skill, by path, as raw bytes. */
const FILES: Record<string, Uint8Array> = {
  // UTF-8 BOM and CRLF line endings, as a Windows editor writes them.
  'SKILL.md': Buffer.from(
    '\ufeff---\r\nname: refund-approval\r\ndescription: Approve or reject refunds. Use for refund requests.\r\n---\r\n# Refunds\r\n\r\nSee [the policy](a/notes.md).\r\n',
  ),
  'assets/logo.png': Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0xff,
  ]),
  'data/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x80]), // "café" in Latin-1: invalid UTF-8
  'empty.txt': Buffer.alloc(0),
  'crlf.txt': Buffer.from('line one\r\nline two\r\n'),
  '日本語 ファイル.md': Buffer.from('# 日本語\n'),
  '#hash ?q%20.txt': Buffer.from('url-unsafe name\n'),
  'with space.txt': Buffer.from('spaces\n'),
  'a/notes.md': Buffer.from('notes of a\n'),
  'b/notes.md': Buffer.from('notes of b\n'),
  'big/exact.bin': Buffer.alloc(MIB, 0x61),
};
const OVER = 'big/over.bin';
const IGNORED = [
  '__pycache__/x.pyc',
  'scripts/__pycache__/y.cpython-312.pyc',
  'stray.pyc',
  '.DS_Store',
  'a/.DS_Store',
  'node_modules/pkg/index.js',
  '.git/HEAD',
];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-loader-'));
  root = path.join(tmp, 'skills');
  const put = async (rel: string, bytes: Uint8Array | string): Promise<void> => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), bytes);
  };
  for (const [rel, bytes] of Object.entries(FILES)) await put(`${SKILL}/${rel}`, bytes);
  await put(`${SKILL}/${OVER}`, Buffer.alloc(MIB + 1, 0x62));
  for (const rel of IGNORED) await put(`${SKILL}/${rel}`, 'ignored');
  await symlink('crlf.txt', path.join(root, SKILL, 'link-inside.txt'));
  await symlink('no-such-file.txt', path.join(root, SKILL, 'dangling'));
  await mkdir(path.join(tmp, 'elsewhere', 'linked-skill'), { recursive: true });
  await writeFile(
    path.join(tmp, 'elsewhere', 'linked-skill', 'SKILL.md'),
    '---\nname: linked-skill\ndescription: Lives outside the root.\n---\n',
  );
  await symlink(path.join(tmp, 'elsewhere', 'linked-skill'), path.join(root, 'linked-skill'));
  // Outside any skill, a link to a file (as AGENTS.md -> CLAUDE.md in several public catalogs).
  await writeFile(path.join(root, 'CLAUDE.md'), 'Notes for agents.\n');
  await symlink('CLAUDE.md', path.join(root, 'AGENTS.md'));
  await put(
    `${NESTED}/SKILL.md`,
    '---\nname: inner-skill\ndescription: A skill inside another skill folder.\n---\nInner.\n',
  );
  await put(`${NESTED}/inner.txt`, 'belongs to the inner skill\n');

  // A skill whose symlink points outside it, at a file that must never be read.
  await writeFile(path.join(tmp, 'secret.txt'), secret);
  await put(
    `${ESCAPING}/SKILL.md`,
    '---\nname: escaping\ndescription: Has a link that leaves the folder.\n---\nBody\n',
  );
  await symlink(path.join(tmp, 'secret.txt'), path.join(root, ESCAPING, 'secret-link'));
  await symlink('../../secret.txt', path.join(root, ESCAPING, 'relative-link'));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const skillAt = (catalog: Catalog, dir: string): Skill => {
  const skill = catalog.skills.find((s) => s.source.kind === 'local' && s.source.dir === dir);
  expect(skill, `skill at ${dir}`).toBeDefined();
  return skill!;
};

describe('loadCatalog', () => {
  it('finds skills at any depth: in a category folder and nested inside another skill', async () => {
    const catalog = await loadCatalog(root);
    expect(catalog.skills.map((s) => s.source.kind === 'local' && s.source.dir)).toEqual([SKILL, NESTED]);
    const outer = skillAt(catalog, SKILL);
    // The nested skill's files are its own, not the outer skill's.
    expect(outer.files.some((f) => f.path.startsWith('nested/'))).toBe(false);
    expect(skillAt(catalog, NESTED).files.map((f) => f.path)).toEqual(['SKILL.md', 'inner.txt']);
    expect(catalog.problems).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        skill: SKILL,
        rule: 'nested-skill',
        file: 'nested/inner-skill/SKILL.md',
      }),
    );
  });

  it('loads every file byte-exact: bytes and sha256 equal to disk', async () => {
    const skill = skillAt(await loadCatalog(root), SKILL);
    const stored = skill.files.filter((f) => !f.skipped);
    expect(stored.map((f) => f.path).sort()).toEqual([...Object.keys(FILES), 'link-inside.txt'].sort());
    for (const file of stored) {
      const disk = await readFile(path.join(root, SKILL, file.path));
      expect(fileBytes(file).equals(disk), file.path).toBe(true);
      expect(file.sha256, file.path).toBe(sha256(disk));
      expect(file.size, file.path).toBe(disk.byteLength);
    }
  });

  it('stores text as UTF-8 and everything else as base64', async () => {
    const skill = skillAt(await loadCatalog(root), SKILL);
    const file = (p: string) => skill.files.find((f) => f.path === p)!;
    expect(file('assets/logo.png')).toMatchObject({ encoding: 'base64', name: 'logo.png', type: 'png' });
    expect(file('data/latin1.txt').encoding).toBe('base64');
    expect(file('empty.txt')).toMatchObject({
      encoding: 'utf-8',
      content: '',
      size: 0,
      sha256: sha256(Buffer.alloc(0)),
    });
    expect(file('crlf.txt').content).toBe('line one\r\nline two\r\n');
    expect(file('SKILL.md').content!.startsWith('\ufeff---\r\n')).toBe(true);
    expect(file('日本語 ファイル.md')).toMatchObject({
      name: '日本語 ファイル.md',
      encoding: 'utf-8',
      content: '# 日本語\n',
    });
    expect(file('#hash ?q%20.txt').name).toBe('#hash ?q%20.txt');
    expect(file('a/notes.md').content).toBe('notes of a\n');
    expect(file('b/notes.md').content).toBe('notes of b\n');
  });

  it('reads SKILL.md with a BOM and CRLF line endings', async () => {
    const catalog = await loadCatalog(root, { mode: 'strict' });
    const skill = skillAt(catalog, SKILL);
    expect(skill.name).toBe('refund-approval');
    expect(skill.description).toBe('Approve or reject refunds. Use for refund requests.');
    expect(skill.body_line).toBe(5);
    expect(skill.body).toContain('# Refunds');
    expect(catalog.problems.filter((p) => p.skill === SKILL && p.severity === 'error')).toEqual([]);
  });

  it('leaves out ignored names', async () => {
    const paths = skillAt(await loadCatalog(root), SKILL).files.map((f) => f.path);
    for (const ignored of IGNORED) expect(paths).not.toContain(ignored);
    expect(paths.some((p) => p.includes('__pycache__') || p.endsWith('.pyc') || p.endsWith('.DS_Store'))).toBe(false);
  });

  it('keeps a file of exactly the size limit and lists a bigger one with a skip reason and a warning', async () => {
    const catalog = await loadCatalog(root);
    const skill = skillAt(catalog, SKILL);
    const exact = skill.files.find((f) => f.path === 'big/exact.bin')!;
    expect(exact.size).toBe(MIB);
    expect(exact.skipped).toBeUndefined();
    const over = skill.files.find((f) => f.path === OVER)!;
    expect(over).toMatchObject({
      size: MIB + 1,
      skipped: { reason: 'file is 1.0 MiB (1048577 bytes), over the 1 MiB limit (skills.max_file_bytes)' },
    });
    expect(over.content).toBeUndefined();
    expect(over.sha256).toBe(sha256(await readFile(path.join(root, SKILL, OVER))));
    expect(catalog.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', skill: SKILL, file: OVER, rule: 'file-too-large' }),
    );
  });

  it('publishes a Git LFS pointer as it is, as text, with a warning that the real file is missing', async () => {
    const lfsRoot = path.join(tmp, 'lfs');
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'4d'.repeat(32)}\nsize 1234567\n`;
    await mkdir(path.join(lfsRoot, 'charts'), { recursive: true });
    await writeFile(
      path.join(lfsRoot, 'charts', 'SKILL.md'),
      '---\nname: charts\ndescription: Draws charts. Use for plots.\n---\nSee chart.png.\n',
    );
    await writeFile(path.join(lfsRoot, 'charts', 'chart.png'), pointer);
    await writeFile(
      path.join(lfsRoot, 'charts', 'notes.txt'),
      'version https://git-lfs.github.com/spec/v1 is mentioned, but this is prose\n',
    );
    const catalog = await loadCatalog(lfsRoot);
    const files = skillAt(catalog, 'charts').files;
    // Byte-exact, typed as what its bytes are (a browser would show a broken image/png).
    expect(files.find((f) => f.path === 'chart.png')).toMatchObject({ content: pointer, mime: 'text/plain' });
    expect(files.find((f) => f.path === 'notes.txt')?.mime).toBe('text/plain');
    const warned = catalog.problems.filter((p) => p.rule === 'git-lfs-pointer');
    expect(warned).toEqual([
      expect.objectContaining({
        severity: 'warning',
        skill: 'charts',
        file: 'chart.png',
        message: expect.stringContaining('git lfs pull'),
      }),
    ]);
  });

  it('stores a symlink inside the skill as the file it points to', async () => {
    const skill = skillAt(await loadCatalog(root), SKILL);
    const link = skill.files.find((f) => f.path === 'link-inside.txt')!;
    expect(link.content).toBe('line one\r\nline two\r\n');
  });

  it('reports a symlink leaving the skill as an error and never reads its target', async () => {
    for (const mode of ['lenient', 'strict'] as const) {
      const catalog = await loadCatalog(root, { mode });
      expect(catalog.skills.some((s) => s.name === 'escaping')).toBe(false);
      for (const file of ['relative-link', 'secret-link']) {
        expect(catalog.problems).toContainEqual(
          expect.objectContaining({ severity: 'error', skill: ESCAPING, file, rule: 'symlink-escape' }),
        );
      }
      const json = JSON.stringify(catalog);
      expect(json).not.toContain(secret);
      expect(json).not.toContain(Buffer.from(secret).toString('base64').slice(0, 16));
      expect(json).not.toContain(sha256(Buffer.from(secret)));
    }
  });

  it('lists a broken symlink with a warning and does not follow links outside any skill', async () => {
    const catalog = await loadCatalog(root);
    const dangling = skillAt(catalog, SKILL).files.find((f) => f.path === 'dangling');
    expect(dangling?.skipped?.reason).toContain('broken');
    expect(catalog.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', skill: SKILL, file: 'dangling', rule: 'symlink-broken' }),
    );
    expect(catalog.skills.some((s) => s.name === 'linked-skill')).toBe(false);
    expect(catalog.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', skill: 'linked-skill', rule: 'symlink-not-followed' }),
    );
    // A link to a file outside any skill is no skill: nothing to say about it.
    expect(catalog.problems.filter((p) => p.skill === 'AGENTS.md')).toEqual([]);
  });

  it('gives the same catalog on every load', async () => {
    const [a, b] = [await loadCatalog(root), await loadCatalog(root)];
    expect(b).toEqual(a);
    expect(a.skills[0]!.files.map((f) => f.path)).toEqual([...a.skills[0]!.files.map((f) => f.path)].sort());
  });

  it('honours a custom size limit and ignore list', async () => {
    const catalog = await loadCatalog(root, { maxFileBytes: 10, ignore: ['*.png', 'b/'] });
    const skill = catalog.skills.find((s) => s.name === 'refund-approval');
    // SKILL.md itself is over 10 bytes, so the skill cannot load: reported, not dropped.
    expect(skill).toBeUndefined();
    expect(catalog.problems).toContainEqual(
      expect.objectContaining({ skill: SKILL, file: 'SKILL.md', rule: 'skill-md-readable', severity: 'error' }),
    );
    const relaxed = skillAt(await loadCatalog(root, { maxFileBytes: 2 * MIB, ignore: ['*.png', 'b/'] }), SKILL);
    const paths = relaxed.files.map((f) => f.path);
    expect(paths).not.toContain('assets/logo.png');
    expect(paths).not.toContain('b/notes.md');
    expect(paths).toContain('__pycache__/x.pyc'); // the default list no longer applies
    expect(relaxed.files.find((f) => f.path === OVER)?.skipped).toBeUndefined();
  });
});
