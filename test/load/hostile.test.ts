/**
 * loadCatalog on hostile skill folders, each made here (issue 11): links into nested skills,
 * link loops and pipes, names that cannot be published or are not UTF-8, front matter too big
 * to parse, markdown lines that make regular expressions backtrack, and long runs of one
 * character for the tokenizer. Each must give a clear problem (rule, skill folder, reason) and
 * leave the rest of the catalog loading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- `mkfifo` makes the named pipe: Node has no API for one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCatalog } from '../../src/load/index.ts';
import type { Catalog } from '../../src/model/skill.ts';
import { plainSkillMd as front, write as put } from '../feed/fixture.ts';

let tmp: string;

/** A fresh skills folder holding what `make` puts there, loaded. */
async function load(make: (root: string) => void, options: Parameters<typeof loadCatalog>[1] = {}): Promise<Catalog> {
  const root = mkdtempSync(path.join(tmp, 'skills-'));
  make(root);
  return loadCatalog(root, options);
}

const rulesOf = (c: Catalog, skill: string): string[] =>
  c.problems.filter((p) => p.skill === skill).map((p) => `${p.severity}:${p.rule}:${p.file ?? ''}`);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-hostile-load-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('symlinks', () => {
  it('never follows a link into a skill nested in this one (a private skill stays private)', async () => {
    const c = await load((root) => {
      put(root, 'outer/SKILL.md', front('outer'));
      put(root, 'outer/inner/SKILL.md', front('inner', 'metadata:\n  visibility: private\n'));
      put(root, 'outer/inner/secret.md', 'zqxsecret\n');
      symlinkSync('inner/secret.md', path.join(root, 'outer/leak.md'));
      symlinkSync('inner/SKILL.md', path.join(root, 'outer/leak-skill.md'));
    });
    expect(c.skills.map((s) => s.id)).toEqual(['inner']);
    expect(rulesOf(c, 'outer')).toEqual(
      expect.arrayContaining(['error:symlink-escape:leak-skill.md', 'error:symlink-escape:leak.md']),
    );
    expect(c.problems.find((p) => p.file === 'leak.md')!.message).toContain(
      '"inner", a separate skill nested in this one',
    );
    expect(JSON.stringify(c.skills.filter((s) => s.id !== 'inner'))).not.toContain('zqxsecret');
  });

  it('names where a link leaving the skill points, as the link writes it', async () => {
    let target = '';
    const c = await load((root) => {
      target = path.join(root, 'sibling/SKILL.md');
      put(root, 'sibling/SKILL.md', front('sibling'));
      put(root, 'linky/SKILL.md', front('linky'));
      symlinkSync('../sibling/SKILL.md', path.join(root, 'linky/other.md'));
      symlinkSync(target, path.join(root, 'linky/absolute.md'));
    });
    const message = (file: string) => c.problems.find((p) => p.file === file)!.message;
    expect(message('other.md')).toBe(
      'symlink to "../sibling/SKILL.md" leaves the skill folder, so its target was not read: put a copy of the file inside the skill instead',
    );
    expect(message('absolute.md')).toContain(`symlink to "${target}" leaves`);
  });

  it('says a loop is a loop, a link to a pipe is not a folder, and an escaping SKILL.md is not a text problem', async () => {
    const c = await load((root) => {
      put(root, 'loops/SKILL.md', front('loops'));
      symlinkSync('b', path.join(root, 'loops/a'));
      symlinkSync('a', path.join(root, 'loops/b'));
      execFileSync('mkfifo', [path.join(root, 'loops/pipe')]);
      symlinkSync('pipe', path.join(root, 'loops/to-pipe'));
      put(root, 'outside/secret.md', '---\nname: escaped\ndescription: x\n---\n');
      mkdirSync(path.join(root, 'escaped'));
      symlinkSync('../outside/secret.md', path.join(root, 'escaped/SKILL.md'));
    });
    expect(rulesOf(c, 'loops')).toEqual([
      'warning:symlink-loop:a',
      'warning:symlink-loop:b',
      'warning:special-file:pipe',
      'warning:special-file:to-pipe',
    ]);
    expect(c.problems.find((p) => p.file === 'a')!.message).toMatch(/^symlink loop/);
    expect(c.problems.find((p) => p.file === 'to-pipe')!.message).toMatch(/device, socket or pipe/);
    expect(c.problems.find((p) => p.file === 'to-pipe')!.message).not.toMatch(/folder/);
    expect(c.skills.find((s) => s.id === 'loops')!.files.map((f) => [f.path, Boolean(f.skipped)])).toEqual([
      ['SKILL.md', false],
      ['a', true],
      ['b', true],
      ['pipe', true],
      ['to-pipe', true],
    ]);
    expect(rulesOf(c, 'escaped')).toEqual(['error:symlink-escape:SKILL.md']);
  });
});

describe('file names', () => {
  it('reports names that cannot be published (drive letter, control characters) and loads the rest', async () => {
    const names = ['c:notes.txt', 'new\nline.md', 'esc\u001b[31m.md', 'tab\there.md', 'del\u007f.md'];
    const c = await load((root) => {
      put(root, 'odd/SKILL.md', front('odd'));
      put(root, 'odd/ok.md', 'fine\n');
      for (const n of names) put(root, `odd/${n}`, 'x\n');
      put(root, 'odd/bad\ndir/inside.md', 'x\n');
    });
    const skill = c.skills.find((s) => s.id === 'odd')!;
    expect(skill.files.map((f) => f.path)).toEqual(['SKILL.md', 'ok.md']);
    const reported = c.problems.filter((p) => p.rule === 'path-unpublishable');
    expect(reported.map((p) => p.file).sort()).toEqual([...names, 'bad\ndir'].sort());
    for (const p of reported) expect(p).toMatchObject({ severity: 'warning', skill: 'odd' });
    expect(reported.find((p) => p.file === 'c:notes.txt')!.message).toBe(
      'file path "c:notes.txt" starts with a drive letter (like "c:"), so it cannot be published: rename it',
    );
    expect(reported.find((p) => p.file === 'bad\ndir')!.message).toContain(
      'folder path "bad\\ndir" contains a control character',
    );
  });

  it('keeps names that only start with dots: "..notes.md", "...", "..txt"', async () => {
    const c = await load((root) => {
      put(root, 'dots/SKILL.md', front('dots'));
      for (const n of ['..notes.md', '...', '..txt', 'sub/..hidden']) put(root, `dots/${n}`, `${n}\n`);
    });
    expect(c.problems).toEqual([]);
    expect(c.skills[0]!.files.map((f) => [f.path, f.content])).toEqual([
      ['...', '...\n'],
      ['..notes.md', '..notes.md\n'],
      ['..txt', '..txt\n'],
      ['SKILL.md', expect.any(String)],
      ['sub/..hidden', 'sub/..hidden\n'],
    ]);
  });

  it('treats "__proto__" and "constructor" as names like any other: files with a type, fields with their line', async () => {
    const c = await load((root) => {
      put(
        root,
        'members/SKILL.md',
        '---\nname: members\ndescription: Names of object members.\n__proto__: a\nconstructor: b\n---\nBody\n',
      );
      for (const n of ['__proto__', 'constructor', 'a.constructor', 'b.__proto__', 'c.tostring'])
        put(root, `members/${n}`, `${n}\n`);
    });
    const files = c.skills.find((s) => s.id === 'members')!.files.filter((f) => f.path !== 'SKILL.md');
    expect(files.map((f) => [f.path, f.mime, f.content])).toEqual(
      ['__proto__', 'a.constructor', 'b.__proto__', 'c.tostring', 'constructor'].map((n) => [
        n,
        'text/plain',
        `${n}\n`,
      ]),
    );
    const unknown = c.problems.filter((p) => p.rule === 'unknown-field').map((p) => [p.field, p.line]);
    expect(unknown).toEqual([
      ['__proto__', 4],
      ['constructor', 5],
    ]);
  });

  it('reports each name that is not UTF-8 once, and never lists it', async () => {
    const c = await load((root) => {
      put(root, 'latin/SKILL.md', front('latin'));
      put(root, 'latin/ok.md', 'fine\n');
      const dir = Buffer.from(path.join(root, 'latin/'));
      for (const bytes of [[0xff], [0xfe], [0xe9, 0x2f]]) {
        const name = Buffer.concat([
          Buffer.from('bad-'),
          Buffer.from(bytes.filter((b) => b !== 0x2f)),
          Buffer.from('-utf8.txt'),
        ]);
        if (bytes.includes(0x2f)) {
          mkdirSync(Buffer.concat([dir, name]));
          writeFileSync(Buffer.concat([dir, name, Buffer.from('/inside.txt')]), 'x');
        } else writeFileSync(Buffer.concat([dir, name]), 'x');
      }
    });
    expect(c.skills[0]!.files.map((f) => f.path)).toEqual(['SKILL.md', 'ok.md']);
    expect(c.problems.map((p) => [p.rule, p.file])).toEqual([
      ['name-not-utf8', 'bad-\\xe9-utf8.txt'],
      ['name-not-utf8', 'bad-\\xfe-utf8.txt'],
      ['name-not-utf8', 'bad-\\xff-utf8.txt'],
    ]);
    expect(c.problems[0]!.message).toMatch(/not valid UTF-8/);
  });
});

describe('the search for skills', () => {
  it('warns about a skill deeper than skills.max_depth, with its path', async () => {
    const c = await load(
      (root) => {
        put(root, 'a/b/shallow/SKILL.md', front('shallow'));
        put(root, 'a/b/c/deep/SKILL.md', front('deep'));
      },
      { maxDepth: 3 },
    );
    expect(c.skills.map((s) => s.id)).toEqual(['shallow']);
    expect(c.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        skill: 'a/b/c/deep',
        rule: 'max-depth',
        message: expect.stringContaining('skills.max_depth (3)'),
      }),
    ]);
  });
});

describe('front matter and body', () => {
  it('refuses front matter over its size limit before parsing it (80,000 keys under metadata)', async () => {
    const keys = Array.from({ length: 80_000 }, (_, i) => `  k${i}: v`).join('\n');
    const c = await load((root) => put(root, 'many-keys/SKILL.md', front('many-keys', `metadata:\n${keys}\n`)));
    expect(c.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        skill: 'many-keys',
        rule: 'frontmatter-size',
        line: 2,
        message: expect.stringContaining('the limit is 65536'),
      }),
    ]);
  });

  it('still rejects a key repeated in a nested mapping, with its line', async () => {
    const c = await load((root) =>
      put(root, 'dup/SKILL.md', front('dup', 'metadata:\n  a: "1"\n  b: "2"\n  a: "3"\n')),
    );
    expect(c.problems).toEqual([
      expect.objectContaining({
        rule: 'frontmatter-yaml',
        line: 7,
        message: expect.stringContaining('"a" appears twice'),
      }),
    ]);
  });

  it('reports front matter nested too deeply for the YAML parser as such', async () => {
    const c = await load((root) =>
      put(root, 'deep/SKILL.md', front('deep', `m: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)),
    );
    expect(c.problems).toEqual([
      expect.objectContaining({
        rule: 'frontmatter-yaml',
        message: 'front matter is not valid YAML: lists or mappings are nested too deeply',
      }),
    ]);
  });

  it('checks links on lines that make regular expressions backtrack, and long runs of one character', async () => {
    const MIB = 1024 * 1024;
    const lines = [
      '['.repeat(MIB / 8),
      `x${'`'.repeat(MIB / 8)}`,
      '[](a'.repeat(MIB / 32),
      '\\['.repeat(MIB / 16),
      `key:${' '.repeat(MIB / 8)}x`,
    ];
    const c = await load((root) => {
      put(root, 'brackets/SKILL.md', front('brackets', '', `${lines.join('\n')}\n[real](missing.md)\n`));
      put(root, 'run/SKILL.md', front('run', '', 'a'.repeat(MIB - 100)));
      put(root, 'run/big.txt', 'é'.repeat(MIB / 2));
    });
    expect(rulesOf(c, 'brackets')).toContain('warning:link-target-exists:SKILL.md');
    expect(c.skills.map((s) => s.id)).toEqual(['brackets', 'run']);
    expect(c.problems.find((p) => p.skill === 'run' && p.rule === 'body-tokens')!.message).toMatch(/about \d+ tokens/);
  });
});
