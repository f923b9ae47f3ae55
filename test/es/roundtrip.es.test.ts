/**
 * Byte-exact round trip through the real CLI: `skillpress ingest` then `skillpress get --out`
 * rebuilds binary, invalid-UTF-8, empty, BOM, non-ASCII-named and same-named nested files
 * exactly; an over-limit file keeps its document with the reason. Paths read back from the
 * index are untrusted.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { fileDocumentId, writeSkillFolder, type FileDocument } from '../../src/emit/elasticsearch/index.ts';
import {
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  skillMd,
  tempDir,
  testClient,
  uniquePrefix,
  writeSkill,
} from './helpers.ts';

const SKILL = 'round-trip';
const LIMIT = 4096;

const FILES: Record<string, Uint8Array | string> = {
  'SKILL.md': skillMd(SKILL, 'Files of every awkward kind, for the byte-exact round trip.'),
  'assets/logo.png': Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
    randomBytes(2000),
  ]),
  'data/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'empty.txt': '',
  'bom.txt': '\ufeffhello\r\nworld\r\n',
  'données/résumé ✓.md': 'non-ASCII name: ünïcödé ✓ 日本語\n',
  'notes.md': 'top-level notes\n',
  'scripts/run.sh': '#!/bin/sh\necho run\n',
  'a/notes.md': 'notes of a\n',
  'b/notes.md': 'notes of b\n',
  'big.bin': randomBytes(LIMIT + 1),
  // Computed: a literal `'__proto__': …` would set the object's prototype, not add a file.
  ['__proto__']: "a file named like every object's prototype\n",
  constructor: "a file named like every object's constructor\n",
};

/** A hand-made file document at `filePath` holding the one byte "x", as if read from the index. */
function xFile(filePath: string): FileDocument {
  return {
    skill_id: 's',
    file_name: filePath.slice(filePath.lastIndexOf('/') + 1),
    file_path: filePath,
    file_type: 'txt',
    mime_type: 'text/plain',
    file_content: 'x',
    encoding: 'utf-8',
    sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881',
    file_size_bytes: 1,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

async function listFiles(dir: string, base = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

describe.skipIf(!ES_URL)('byte-exact round trip: ingest + get', () => {
  const prefix = uniquePrefix('roundtrip');
  const names = prefixedNames(prefix);
  let client: Client;
  let root: string;
  let configDir: string;
  let out: string;

  beforeAll(async () => {
    client = testClient();
    root = await tempDir('rt-skills');
    configDir = await tempDir('rt-config');
    out = await tempDir('rt-out');
    await writeSkill(root, SKILL, FILES);
    await chmod(path.join(root, SKILL, 'scripts/run.sh'), 0o755);
    await writeFile(path.join(configDir, 'skillpress.json'), JSON.stringify({ skills: { max_file_bytes: LIMIT } }));
    const ingest = await runCli([
      'ingest',
      '--skills',
      root,
      '--config',
      configDir,
      '--es',
      ES_URL,
      '--index-prefix',
      prefix,
    ]);
    expect(ingest.stderr).not.toMatch(/error/i);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain(`ingested 1 skill(s), ${Object.keys(FILES).length} file(s)`);
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
    await removeDirs(root, configDir, out);
  });

  it('rebuilds every stored file byte for byte, and warns about the skipped one', async () => {
    const target = path.join(out, SKILL);
    const get = await runCli(['get', SKILL, '--out', target, '--es', ES_URL, '--index-prefix', prefix]);
    expect(get.code).toBe(0);
    expect(get.stderr).toContain('big.bin not restored');
    const stored = Object.keys(FILES)
      .filter((f) => f !== 'big.bin')
      .sort();
    expect(await listFiles(target)).toEqual(stored);
    for (const rel of stored) {
      expect((await readFile(path.join(target, rel))).equals(Buffer.from(FILES[rel]!)), rel).toBe(true);
    }
    // The executable bit comes back too: a restored script runs.
    expect((await stat(path.join(target, 'scripts/run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(target, 'notes.md'))).mode & 0o111).toBe(0);
  });

  it('validate-index tells a script that lost its executable bit in the folder', async () => {
    const check = () =>
      runCli(['validate-index', '--skills', root, '--config', configDir, '--es', ES_URL, '--index-prefix', prefix]);
    expect((await check()).code).toBe(0);
    await chmod(path.join(root, SKILL, 'scripts/run.sh'), 0o644);
    try {
      const changed = await check();
      expect(changed.code).toBe(1);
      expect(changed.stdout + changed.stderr).toContain(
        'scripts/run.sh: not executable in the folder, not in the index',
      );
    } finally {
      await chmod(path.join(root, SKILL, 'scripts/run.sh'), 0o755);
    }
  });

  it('stores text as UTF-8 and everything else as base64, nested same-named files apart', async () => {
    const doc = async (rel: string) =>
      (await client.get<FileDocument>({ index: names.files, id: fileDocumentId(SKILL, rel) }))._source!;
    expect((await doc('assets/logo.png')).encoding).toBe('base64');
    expect((await doc('data/latin1.txt')).encoding).toBe('base64');
    expect(await doc('bom.txt')).toMatchObject({ encoding: 'utf-8', file_content: '\ufeffhello\r\nworld\r\n' });
    expect(await doc('empty.txt')).toMatchObject({ encoding: 'utf-8', file_content: '', file_size_bytes: 0 });
    expect(await doc('données/résumé ✓.md')).toMatchObject({ file_name: 'résumé ✓.md', file_type: 'md' });
    const notes = await Promise.all(['notes.md', 'a/notes.md', 'b/notes.md'].map(doc));
    expect(notes.map((n) => n.file_content)).toEqual(['top-level notes\n', 'notes of a\n', 'notes of b\n']);
    expect(notes.every((n) => n.file_name === 'notes.md')).toBe(true);
  });

  it('keeps a document for the over-limit file, with the reason and no content', async () => {
    const big = (await client.get<FileDocument>({ index: names.files, id: `${SKILL}_big.bin` }))._source!;
    expect(big.file_size_bytes).toBe(LIMIT + 1);
    expect(big.file_content).toBeUndefined();
    expect(big.skip_reason).toMatch(/4096|limit|large/i);
  });

  it('prints the skill as JSON without --out, and exits 1 for an unknown skill', async () => {
    const json = await runCli(['get', SKILL, '--es', ES_URL, '--index-prefix', prefix]);
    expect(json.code).toBe(0);
    const skill = JSON.parse(json.stdout);
    expect(skill.skill_id).toBe(SKILL);
    expect(JSON.stringify(skill)).not.toContain('purpose_vector');
    expect(skill.skill_markdown).toBe(FILES['SKILL.md']);
    expect(skill.files['__proto__']).toBe(FILES['__proto__']);
    expect(Object.keys(skill.files)).toHaveLength(Object.keys(FILES).length - 1);
    const missing = await runCli(['get', 'no-such-skill', '--es', ES_URL, '--index-prefix', prefix]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no skill "no-such-skill"');
  });

  it('refuses a path from the index that would leave the output folder, writing nothing', async () => {
    const evil: FileDocument = { ...xFile('../pwned'), skill_id: SKILL, file_type: 'unknown' };
    await client.index({ index: names.files, id: 'evil', document: evil, refresh: true });
    try {
      const target = path.join(out, 'evil');
      const get = await runCli(['get', SKILL, '--out', target, '--es', ES_URL, '--index-prefix', prefix]);
      expect(get.code).toBe(1);
      expect(get.stderr).toContain('refusing file path "../pwned"');
      await expect(readdir(target)).rejects.toThrow();
      await expect(readFile(path.join(out, 'pwned'))).rejects.toThrow();
    } finally {
      await client.delete({ index: names.files, id: 'evil', refresh: true });
    }
  });
});

describe('writeSkillFolder refuses unsafe paths and bad content', () => {
  it.each(['/etc/passwd', '../x', 'a/../../x', 'a//b', './x', 'C:/x', 'a\\..\\x'])('refuses %j', async (p) => {
    const dir = await tempDir('unsafe');
    try {
      await expect(writeSkillFolder([{ ...xFile(p), file_name: 'x' }], path.join(dir, 'out'))).rejects.toThrow(
        /refusing/,
      );
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await removeDirs(dir);
    }
  });
  it('refuses content that does not match its sha256', async () => {
    const dir = await tempDir('unsafe');
    try {
      await expect(writeSkillFolder([{ ...xFile('x.txt'), file_content: 'y' }], path.join(dir, 'out'))).rejects.toThrow(
        /sha256/,
      );
    } finally {
      await removeDirs(dir);
    }
  });
  it('refuses to write into a folder that is not empty', async () => {
    const dir = await tempDir('unsafe');
    try {
      await mkdir(path.join(dir, 'out'));
      await writeFile(path.join(dir, 'out', 'keep.txt'), 'mine');
      await expect(writeSkillFolder([xFile('x.txt')], path.join(dir, 'out'))).rejects.toThrow(/not empty/);
    } finally {
      await removeDirs(dir);
    }
  });
});
