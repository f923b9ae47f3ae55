/** Bundles: published in the feed index with their members, installed as one, disabled as one. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDirs, runCli, skillMd, tempDir, writeSkill } from '../es/helpers.ts';

describe('bundles', () => {
  let dir: string;
  let out: string;

  beforeAll(async () => {
    dir = await tempDir('bundles');
    const root = path.join(dir, 'skills');
    await writeSkill(root, 'pdf-fill', { 'SKILL.md': skillMd('pdf-fill', 'Fill PDF forms.') });
    await writeSkill(root, 'pdf-merge', { 'SKILL.md': skillMd('pdf-merge', 'Merge PDFs.') });
    await writeSkill(root, 'ocr', {
      'SKILL.md': skillMd('ocr', 'Read scanned text.', 'metadata:\n  tags: documents\n'),
    });
    await writeSkill(root, 'old-a', { 'SKILL.md': skillMd('old-a', 'Old thing.') });
    await writeSkill(root, 'other', { 'SKILL.md': skillMd('other', 'Something else.') });
    const configDir = path.join(dir, 'config');
    await mkdir(configDir, { recursive: true });
    await writeFile(
      path.join(configDir, 'skillpress.json'),
      JSON.stringify({
        bundles: {
          'pdf-kit': { description: 'Everything for PDFs', skills: ['pdf-*'], tags: ['documents'] },
          legacy: { skills: ['old-*'], enabled: false },
        },
      }),
    );
    out = path.join(dir, 'dist');
    const r = await runCli(['build', '--skills', root, '--config', configDir, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ skills: 4, disabled: 1 });
  });

  afterAll(async () => {
    await removeDirs(dir);
  });

  it('publishes enabled bundles with their members; a disabled bundle disables its members', () => {
    const index = JSON.parse(readFileSync(path.join(out, 'feed/v1/index.json'), 'utf8'));
    expect(index.bundles).toEqual([
      { name: 'pdf-kit', description: 'Everything for PDFs', skills: ['ocr', 'pdf-fill', 'pdf-merge'] },
    ]);
    expect(existsSync(path.join(out, 'feed/v1/skills/old-a.json'))).toBe(false);
    expect(existsSync(path.join(out, 'skills/old-a'))).toBe(false);
  });

  it("shows a member's bundles on its page, with the command that installs the bundle", () => {
    const page = readFileSync(path.join(out, 'skills/ocr/index.html'), 'utf8');
    expect(page).toMatch(/data-bundles><li title="Everything for PDFs"><code>pdf-kit<\/code>/);
    // The command as it reads (its options are elements of their own, kept whole when it wraps).
    expect(page.replace(/<[^>]+>/g, '')).toMatch(/skillpress install \S+ --bundle pdf-kit/);
    expect(readFileSync(path.join(out, 'skills/other/index.html'), 'utf8')).not.toContain('pdf-kit');
  });

  it('skillpress install <source> --bundle installs every member', async () => {
    const to = path.join(dir, 'installed');
    const r = await runCli(['install', out, '--bundle', 'pdf-kit', '--to', to]);
    expect(r.code, r.stderr).toBe(0);
    for (const id of ['ocr', 'pdf-fill', 'pdf-merge']) expect(existsSync(path.join(to, id, 'SKILL.md'))).toBe(true);
    expect(existsSync(path.join(to, 'other'))).toBe(false);
    const missing = await runCli(['install', out, '--bundle', 'nope', '--to', to]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no bundle "nope"');
  });
});
