/**
 * Public catalogs as they are written (issue 13): names written as titles (`Ahrefs
 * Automation`, `capsule_crm-automation`, `-2chat-automation`) and skills committed twice.
 * Lenient mode loads a title-style name under a valid id and keeps the written name as the
 * title; strict refuses it. A copy with the same files is one skill with a warning; the same
 * name with other content is an error naming both folders and both digests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCatalog } from '../../src/load/index.ts';
import { build } from '../../src/build.ts';
import { SkillSearch } from '../../src/search/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { Cards, FeedSkill } from '../../src/model/feed.ts';
import type { Catalog } from '../../src/model/skill.ts';
import { write as put } from '../feed/fixture.ts';

let tmp: string;
const skillMd = (name: string, body = '# Body\n'): string =>
  `---\nname: ${name}\ndescription: Automates things with the ${name} API.\n---\n${body}`;

function folder(make: (root: string) => void): string {
  const root = mkdtempSync(path.join(tmp, 'skills-'));
  make(root);
  return root;
}

const ids = (c: Catalog): string[] => c.skills.map((s) => s.id);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-names-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('names written as titles', () => {
  const titled = (): string =>
    folder((root) => {
      put(root, 'ahrefs-automation/SKILL.md', skillMd('Ahrefs Automation'));
      put(root, 'capsule_crm-automation/SKILL.md', skillMd('capsule_crm-automation'));
      put(root, '-2chat-automation/SKILL.md', skillMd('-2chat-automation'));
    });

  it('lenient: load under the folder name (when valid) or the normalized name, the written name kept as title', async () => {
    const c = await loadCatalog(titled());
    expect(c.skills.map((s) => [s.id, s.name, s.title, s.frontmatter.name])).toEqual([
      ['2chat-automation', '2chat-automation', '-2chat-automation', '-2chat-automation'],
      ['ahrefs-automation', 'ahrefs-automation', 'Ahrefs Automation', 'Ahrefs Automation'],
      ['capsule-crm-automation', 'capsule-crm-automation', 'capsule_crm-automation', 'capsule_crm-automation'],
    ]);
    expect(c.problems.map((p) => [p.skill, p.severity, p.rule, p.line])).toEqual([
      ['-2chat-automation', 'warning', 'name-normalized', 2],
      ['ahrefs-automation', 'warning', 'name-normalized', 2],
      ['capsule_crm-automation', 'warning', 'name-normalized', 2],
    ]);
    const ahrefs = c.problems.find((p) => p.skill === 'ahrefs-automation')!.message;
    expect(ahrefs).toContain('"Ahrefs Automation"');
    expect(ahrefs).toContain('"ahrefs-automation" (its folder\'s name)');
  });

  it('strict: each is an error, as before', async () => {
    const c = await loadCatalog(titled(), { mode: 'strict' });
    expect(c.skills).toEqual([]);
    expect(new Set(c.problems.filter((p) => p.severity === 'error').map((p) => p.skill))).toEqual(
      new Set(['ahrefs-automation', 'capsule_crm-automation', '-2chat-automation']),
    );
    expect(c.problems.some((p) => p.rule === 'name-normalized')).toBe(false);
  });

  it('a normalized id that another skill has is the usual name-unique error', async () => {
    const c = await loadCatalog(
      folder((root) => {
        put(root, 'a/capsule-crm-automation/SKILL.md', skillMd('capsule-crm-automation', 'The real one.\n'));
        put(root, 'b/capsule_crm-automation/SKILL.md', skillMd('capsule_crm-automation', 'Another one.\n'));
      }),
    );
    expect(ids(c)).toEqual(['capsule-crm-automation']);
    expect(c.problems).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        skill: 'b/capsule_crm-automation',
        rule: 'name-unique',
        message: expect.stringContaining(
          'name "capsule-crm-automation" (written "capsule_crm-automation", normalized) is already used',
        ),
      }),
    );
  });

  it('the title reaches the card and the skill JSON; the front matter is published as written', async () => {
    const dir = mkdtempSync(path.join(tmp, 'build-'));
    const out = path.join(dir, 'out');
    const result = await build({ skills: titled(), out, config: SkillpressConfig.parse({}), site: false });
    expect(result).toMatchObject({ ok: true, skills: 3 });
    const cards = Cards.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/cards.json'), 'utf8')));
    expect(cards.skills.find((c) => c.id === 'ahrefs-automation')).toMatchObject({
      name: 'ahrefs-automation',
      title: 'Ahrefs Automation',
    });
    const skill = FeedSkill.parse(
      JSON.parse(readFileSync(path.join(out, 'feed/v1/skills/ahrefs-automation.json'), 'utf8')),
    );
    expect(skill.card.title).toBe('Ahrefs Automation');
    expect(skill.frontmatter.name).toBe('Ahrefs Automation');
    expect(skill.skill_md).toContain('name: Ahrefs Automation');
    const schema = JSON.parse(readFileSync(path.join(out, 'feed/v1/schemas/Card.schema.json'), 'utf8')) as {
      $defs: { Card: { properties: Record<string, unknown>; required: string[] } };
    };
    expect(schema.$defs.Card.properties.title).toMatchObject({ type: 'string' });
    expect(schema.$defs.Card.required).not.toContain('title');
    // The site's search results show the title too: it is a stored field of search.json.
    const search = SkillSearch.load(readFileSync(path.join(out, 'feed/v1/search.json'), 'utf8'));
    expect(search.doc('ahrefs-automation')).toMatchObject({ name: 'ahrefs-automation', title: 'Ahrefs Automation' });
    expect(search.search('ahrefs')[0]?.id).toBe('ahrefs-automation');
  });
});

describe('skills committed twice', () => {
  it('the same name and the same files are one skill: the first in path order, a warning naming the copies', async () => {
    const c = await loadCatalog(
      folder((root) => {
        for (const at of ['skills/cloud/bigquery', 'plugins/x/skills/bigquery', 'plugins/y/bigquery']) {
          put(root, `${at}/SKILL.md`, skillMd('bigquery'));
          put(root, `${at}/references/sql.md`, '# SQL\n');
        }
      }),
    );
    expect(c.skills.map((s) => s.source)).toEqual([{ kind: 'local', dir: 'plugins/x/skills/bigquery' }]);
    expect(c.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        skill: 'plugins/x/skills/bigquery',
        rule: 'duplicate-copy',
        message: expect.stringContaining('"plugins/y/bigquery", "skills/cloud/bigquery" are copies of this one'),
      }),
    ]);
  });

  it('the same name with other content is an error naming both folders and both content digests', async () => {
    const c = await loadCatalog(
      folder((root) => {
        put(root, 'a/bigquery/SKILL.md', skillMd('bigquery'));
        put(root, 'b/bigquery/SKILL.md', skillMd('bigquery'));
        put(root, 'b/bigquery/extra.md', 'only in b\n');
      }),
    );
    expect(c.skills.map((s) => s.source)).toEqual([{ kind: 'local', dir: 'a/bigquery' }]);
    const error = c.problems.find((p) => p.rule === 'name-unique')!;
    expect(error).toMatchObject({ severity: 'error', skill: 'b/bigquery', file: 'SKILL.md', line: 2 });
    expect(error.message).toMatch(
      /used by the skill in "a\/bigquery" \(content sha256:[0-9a-f]{64}\); this one has different content \(sha256:[0-9a-f]{64}\)/,
    );
  });
});

describe('skills.precedence: a catalog gathering several sources', () => {
  /** Two sources with their own `pdf` (other content), a `docx` copied unchanged, and a skill of their own each. */
  const sources = (): string =>
    folder((root) => {
      put(root, 'Vendor+copies/pdf/SKILL.md', skillMd('pdf', '# Changed copy\n'));
      put(root, 'Vendor+copies/docx/SKILL.md', skillMd('docx'));
      put(root, 'Vendor+copies/gmail/SKILL.md', skillMd('gmail'));
      put(root, 'anthropics+skills/skills/pdf/SKILL.md', skillMd('pdf', '# The original\n'));
      put(root, 'anthropics+skills/skills/docx/SKILL.md', skillMd('docx'));
      put(root, 'anthropics+skills/skills/xlsx/SKILL.md', skillMd('xlsx'));
    });

  it('the listed folder keeps a shared name; the other skill is left out with a warning, not an error', async () => {
    const c = await loadCatalog(sources(), { precedence: ['anthropics+skills'] });
    // Path order stays the catalog's order; only who keeps "pdf" and "docx" changes.
    expect(c.skills.map((s) => s.source)).toEqual([
      { kind: 'local', dir: 'Vendor+copies/gmail' },
      { kind: 'local', dir: 'anthropics+skills/skills/docx' },
      { kind: 'local', dir: 'anthropics+skills/skills/pdf' },
      { kind: 'local', dir: 'anthropics+skills/skills/xlsx' },
    ]);
    expect(c.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const shadowed = c.problems.find((p) => p.rule === 'name-shadowed')!;
    expect(shadowed).toMatchObject({
      severity: 'warning',
      skill: 'Vendor+copies/pdf',
      file: 'SKILL.md',
      field: 'name',
    });
    expect(shadowed.message).toMatch(/also used by the skill in "anthropics\+skills\/skills\/pdf" \(content sha256:/);
    expect(c.problems).toContainEqual(
      expect.objectContaining({
        rule: 'duplicate-copy',
        skill: 'anthropics+skills/skills/docx',
        message: expect.stringContaining('"Vendor+copies/docx" is a copy of this one'),
      }),
    );
  });

  it('without it the first in path order keeps the name and the clash is an error that points at the setting', async () => {
    const c = await loadCatalog(sources());
    expect(ids(c)).toEqual(['docx', 'gmail', 'pdf', 'xlsx']);
    expect(c.skills.find((s) => s.id === 'pdf')!.source).toEqual({ kind: 'local', dir: 'Vendor+copies/pdf' });
    const error = c.problems.find((p) => p.rule === 'name-unique')!;
    expect(error).toMatchObject({ severity: 'error', skill: 'anthropics+skills/skills/pdf' });
    expect(error.message).toContain('skills.precedence');
  });

  it('two skills of the same name inside one listed folder are still an error', async () => {
    const root = folder((r) => {
      put(r, 'src/a/pdf/SKILL.md', skillMd('pdf', '# One\n'));
      put(r, 'src/b/pdf/SKILL.md', skillMd('pdf', '# Two\n'));
    });
    const c = await loadCatalog(root, { precedence: ['src'] });
    expect(c.problems).toContainEqual(expect.objectContaining({ rule: 'name-unique', skill: 'src/b/pdf' }));
  });

  it('a listed folder that holds no skill is reported, so a typo does not pass unnoticed', async () => {
    const c = await loadCatalog(sources(), { precedence: ['anthropics-skills', 'anthropics+skills/'] });
    expect(c.problems).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        rule: 'precedence-folder',
        field: 'skills.precedence',
        message: expect.stringContaining('"anthropics-skills"'),
      }),
    );
    expect(c.problems.some((p) => p.rule === 'name-shadowed')).toBe(true);
  });

  it("a build with the setting publishes the listed source's skill and succeeds", async () => {
    const out = path.join(mkdtempSync(path.join(tmp, 'build-')), 'out');
    const config = SkillpressConfig.parse({ skills: { precedence: ['anthropics+skills'] } });
    const result = await build({ skills: sources(), out, config, site: false });
    expect(result).toMatchObject({ ok: true, skills: 4 });
    const pdf = FeedSkill.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/skills/pdf.json'), 'utf8')));
    expect(pdf.skill_md).toContain('# The original');
  });

  it('the config refuses a folder outside the skills folder', () => {
    for (const bad of ['../elsewhere', '/abs/path', 'a/../../b']) {
      const parsed = SkillpressConfig.safeParse({ skills: { precedence: [bad] } });
      expect(parsed.success, bad).toBe(false);
    }
  });
});
