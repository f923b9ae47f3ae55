/**
 * The authoring library on real folders: create, update, versions, rollback, duplicates, the
 * loader's rules, hostile paths, concurrent writers, and one commit per write in a git work tree.
 * (A *.cli test: recording a version runs `git`.)
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  createSkill,
  rollbackSkill,
  scaffoldSkill,
  skillVersions,
  updateSkill,
  VersionConflictError,
} from '../../src/author/index.ts';
import { versionFiles } from '../../src/author/history.ts';
import { loadCatalog } from '../../src/load/index.ts';
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { FeedSkill } from '../../src/model/feed.ts';

let tmp: string;
let skills: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-author-'));
  skills = path.join(tmp, 'skills');
  await mkdir(skills);
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

const BODY = '# Refund a duplicate charge\n\n## Steps\n\n1. Find both charges.\n2. Refund the later one.\n';
const refund = (extra: object = {}) => ({
  skills,
  name: 'refund-duplicate-charge',
  description: 'Refund a customer who was charged twice for the same order.',
  body: BODY,
  duplicates: false as const,
  ...extra,
});

/** Every path under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  return out.sort();
}

describe('createSkill', () => {
  test('writes a skill that passes validate --strict, as version 1, recorded', async () => {
    const r = await createSkill(refund({ files: [{ path: 'references/policy.md', content: '# Policy\n' }] }));
    expect(r).toMatchObject({ name: 'refund-duplicate-charge', created: true, version: '1' });
    const c = await loadCatalog(skills, { mode: 'strict' });
    expect(c.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(c.skills[0]!.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/policy.md']);
    expect(c.skills[0]!.registry_fields.version).toBe('1');
    const versions = await skillVersions(skills, 'refund-duplicate-charge');
    expect(versions.map((v) => [v.version, v.changes])).toEqual([['1', ['created']]]);
    expect(versions[0]!.digest).toBe(c.skills[0]!.digest);
  });

  test('a duplicate of an existing skill is not created: the answer names the existing one', async () => {
    await createSkill(refund());
    const { DuplicateIndex } = await import('../../src/author/index.ts');
    const index = new DuplicateIndex((await loadCatalog(skills)).skills, { nearThreshold: 0.85 });
    const again = await createSkill(refund({ name: 'double-charge-refund', duplicates: index }));
    expect(again).toMatchObject({ created: false, name: 'refund-duplicate-charge', duplicate: { kind: 'identical' } });
    expect(await readdir(skills)).toEqual(['refund-duplicate-charge']);
  });

  test("invalid input is refused with the loader's rule, and nothing is written", async () => {
    await expect(createSkill(refund({ name: 'Refund Charge' }))).rejects.toThrow(
      /\[name-lowercase\] name "Refund Charge" must be lowercase: use "refund-charge"/,
    );
    await expect(createSkill(refund({ description: 'x'.repeat(1100) }))).rejects.toThrow(/\[description-length\]/);
    await expect(createSkill(refund({ description: '' }))).rejects.toThrow(/^description is required$/);
    await expect(createSkill(refund())).resolves.toMatchObject({ created: true });
    await expect(createSkill(refund())).rejects.toThrow(
      /already exists \("skills\/refund-duplicate-charge"\)\. Use update_skill/,
    );
    expect(await readdir(skills)).toEqual(['refund-duplicate-charge']);
  });

  test('a name a skill in a group folder holds is refused too: the build would publish only one of the two', async () => {
    // mattpocock/skills keeps grill-me in productivity/; a second grill-me at the top failed the build's name-unique rule.
    const nested = path.join(skills, 'productivity');
    await mkdir(nested);
    await createSkill(refund({ skills: nested }));
    await expect(createSkill(refund({ description: 'Refund a charge twice over.' }))).rejects.toThrow(
      /already exists \("skills\/productivity\/refund-duplicate-charge"\)\. Use update_skill/,
    );
    // …and so is a name held by a skill whose folder is called otherwise (found by loading the catalog).
    await mkdir(path.join(skills, 'billing'));
    await writeFile(
      path.join(skills, 'billing', 'SKILL.md'),
      '---\nname: refund-late-fee\ndescription: Refund a late fee charged by mistake.\n---\n\n# Late fees\n',
    );
    await expect(
      createSkill(refund({ name: 'refund-late-fee', description: 'Waive a fee.', duplicates: undefined })),
    ).rejects.toThrow(/already exists \("skills\/billing"\)/);
    // (.skillpress: the state folder of the skills folder `productivity/`, the first skill's.)
    expect(await readdir(skills)).toEqual(['.skillpress', 'billing', 'productivity']);
  });

  test('a folder the loader never walks into is refused by its rule, before anything is written', async () => {
    // A build's output inside the skills folder: the loader takes it for copies, never skills.
    await mkdir(path.join(skills, 'dist', 'feed', 'v1'), { recursive: true });
    await writeFile(path.join(skills, 'dist', 'feed', 'v1', 'index.json'), '{}');
    const before = await tree(tmp);
    const refused = {
      '.skillpress':
        /^folder: path "\.skillpress" has "\.skillpress", skillpress's state folder .* a skill there would never be served; nothing was written$/,
      'foo/.skillpress': /^folder: path "foo\/\.skillpress" has "\.skillpress", skillpress's state folder/,
      'foo/node_modules':
        /^folder: path "foo\/node_modules" has "node_modules", a name the loader ignores \(skills\.ignore\)/,
      dist: /^folder: path "dist" has "dist", a build's output folder/,
      'a/b/c': /^folder: path "a\/b\/c" would put the skill 4 levels deep, deeper than skills\.max_depth \(3\)/,
    };
    const config = SkillpressConfig.parse({ skills: { max_depth: 3 } });
    for (const [folder, message] of Object.entries(refused))
      await expect(createSkill(refund({ folder, config })), folder).rejects.toThrow(message);
    expect(await tree(tmp)).toEqual(before);
    await expect(createSkill(refund({ folder: 'a/b', config }))).resolves.toMatchObject({ created: true });
  });

  test('a folder inside a skill is refused naming that skill by its name, and by its path', async () => {
    // trailofbits/skills: plugins/<plugin>/skills/<skill>/SKILL.md, the skill named in its front matter.
    const inner = path.join(skills, 'plugins', 'semgrep', 'skills', 'rule-creator');
    await mkdir(inner, { recursive: true });
    await writeFile(
      path.join(inner, 'SKILL.md'),
      '---\nname: semgrep-rule-creator\ndescription: Write Semgrep rules.\n---\n# Rules\n',
    );
    await expect(createSkill(refund({ folder: 'plugins/semgrep/skills/rule-creator/refs' }))).rejects.toThrow(
      /^folder "plugins\/semgrep\/skills\/rule-creator\/refs" is inside the skill "semgrep-rule-creator" \("plugins\/semgrep\/skills\/rule-creator"\): choose a group folder/,
    );
  });

  test('hostile paths, names, sizes and YAML never write outside the skills folder', async () => {
    const before = await tree(tmp);
    const paths = [
      '../x',
      '/etc/passwd',
      'a/../../x',
      'c:evil',
      'a\\b',
      'new\nline.md',
      'esc\u001b.md',
      '.git/config',
      'node_modules/x.js',
      'SKILL.md',
      'skill.md',
      'con.txt',
      'a//b',
      'dot/./x',
      `${'l'.repeat(300)}.md`,
      '',
    ];
    for (const p of paths)
      await expect(createSkill(refund({ files: [{ path: p, content: 'x' }] })), JSON.stringify(p)).rejects.toThrow();
    await expect(
      createSkill(refund({ files: [{ path: 'big.bin', content: 'x'.repeat(1024 * 1024 + 1) }] })),
    ).rejects.toThrow(/over the 1 MiB limit/);
    await expect(
      createSkill(
        refund({
          files: [
            { path: 'a', content: '1' },
            { path: 'a/b', content: '2' },
          ],
        }),
      ),
    ).rejects.toThrow(/is a file and also the folder/);
    for (const name of ['../escape', '/abs', 'a/b', '.', '..', 'x'.repeat(65)])
      await expect(createSkill(refund({ name }))).rejects.toThrow();
    expect(await tree(tmp)).toEqual(before);
    // YAML in the description stays a value: no field is injected.
    const r = await createSkill(
      refund({
        description: 'Refunds.\n---\nname: other\nvisibility: private',
        metadata: { __proto__: 'x', tags: 'billing' } as Record<string, string>,
      }),
    );
    const [skill] = (await loadCatalog(skills, { mode: 'strict' })).skills;
    expect(skill!.id).toBe(r.name);
    expect(skill!.registry_fields.visibility).toBe('public');
    expect(skill!.description).toContain('name: other');
  });
});

describe('updateSkill', () => {
  test('raises the version, lists the changes; the previous version is retrievable and restored by rollback', async () => {
    await createSkill(refund());
    const r = await updateSkill({
      skills,
      name: 'refund-duplicate-charge',
      body: `${BODY}\n## Escalation\n\nOver 500 EUR: ask a supervisor.\n`,
      files: [{ path: 'scripts/find.py', content: 'print(1)\n' }],
      feedback: 'large refunds need approval',
    });
    expect(r.version).toBe('2');
    expect(r.changes).toEqual([
      'section "Escalation" added',
      'file added: scripts/find.py',
      'feedback: large refunds need approval',
    ]);
    expect((await skillVersions(skills, r.name)).map((v) => v.version)).toEqual(['2', '1']);
    const back = await rollbackSkill({ skills, name: r.name, version: '1' });
    expect(back.version).toBe('3');
    expect(back.changes).toEqual([
      'section "Escalation" removed',
      'file removed: scripts/find.py',
      'feedback: rolled back to version 1',
    ]);
    const md = await readFile(path.join(skills, r.name, 'SKILL.md'), 'utf8');
    expect(md).not.toContain('Escalation');
    expect(md).toContain('version: "3"');
  });

  test('semver counts its patch part; a hand-written skill keeps its first state', async () => {
    await mkdir(path.join(skills, 'sem'));
    await writeFile(
      path.join(skills, 'sem', 'SKILL.md'),
      '---\nname: sem\ndescription: A skill.\n# a comment\nmetadata:\n  version: "1.4.2"\n---\nBody.\n',
    );
    const r = await updateSkill({ skills, name: 'sem', description: 'A better skill.' });
    expect(r).toMatchObject({ version: '1.4.3', previous_version: '1.4.2', changes: ['description changed'] });
    expect(await readFile(path.join(skills, 'sem', 'SKILL.md'), 'utf8')).toContain('# a comment');
    expect((await skillVersions(skills, 'sem')).map((v) => v.version)).toEqual(['1.4.3', '1.4.2']);
  });

  test('a hand-written skill without a version is updated from version 1, which is kept and named as the previous one', async () => {
    await mkdir(path.join(skills, 'plain'));
    await writeFile(path.join(skills, 'plain', 'SKILL.md'), '---\nname: plain\ndescription: A skill.\n---\nBody.\n');
    const r = await updateSkill({ skills, name: 'plain', description: 'A better skill.' });
    expect(r).toMatchObject({ version: '2', previous_version: '1' });
    expect((await skillVersions(skills, 'plain')).map((v) => v.version)).toEqual(['2', '1']);
    await rollbackSkill({ skills, name: 'plain', version: r.previous_version! });
    expect(await readFile(path.join(skills, 'plain', 'SKILL.md'), 'utf8')).toContain('description: A skill.');
  });

  test('an edit by hand under a recorded version is kept as the next version before an update replaces it', async () => {
    const created = await createSkill(refund());
    const skillMd = path.join(skills, created.name, 'SKILL.md');
    await writeFile(
      skillMd,
      (await readFile(skillMd, 'utf8')).replace('Refund the later one.', 'Refund the later one, by hand.'),
    );
    const r = await updateSkill({ skills, name: created.name, description: 'Refund a customer charged twice.' });
    expect(r).toMatchObject({ version: '3', previous_version: '2', changes: ['description changed'] });
    const versions = await skillVersions(skills, created.name);
    expect(versions.map((v) => v.version)).toEqual(['3', '2', '1']);
    await rollbackSkill({ skills, name: created.name, version: '1' });
    expect(await readFile(skillMd, 'utf8')).not.toContain('by hand');
    await rollbackSkill({ skills, name: created.name, version: '2' });
    expect(await readFile(skillMd, 'utf8')).toContain('Refund the later one, by hand.');
  });

  test('a skill the loader refuses for a missing description is repaired by an update that gives one; its first state is kept', async () => {
    await mkdir(path.join(skills, 'no-desc', 'notes'), { recursive: true });
    const original = '---\nname: no-desc\nlicense: MIT\n---\n# No desc\n';
    await writeFile(path.join(skills, 'no-desc', 'SKILL.md'), original);
    await writeFile(path.join(skills, 'no-desc', 'notes', 'a.md'), 'a\n');
    await expect(updateSkill({ skills, name: 'no-desc', body: '# Still none\n' })).rejects.toThrow(
      /\[description-required\].*nothing was written$/,
    );
    const r = await updateSkill({ skills, name: 'no-desc', description: 'Says what it does, now.' });
    expect(r).toMatchObject({ version: '2', previous_version: '1', changes: ['description changed'] });
    expect(await readFile(path.join(skills, 'no-desc', 'SKILL.md'), 'utf8')).toBe(
      '---\nname: no-desc\ndescription: Says what it does, now.\nlicense: MIT\nmetadata:\n  version: "2"\n---\n# No desc\n',
    );
    expect((await loadCatalog(skills, { mode: 'lenient' })).skills.map((s) => s.id)).toContain('no-desc');
    const versions = await skillVersions(skills, 'no-desc');
    expect(versions.map((v) => [v.version, v.changes])).toEqual([
      ['2', ['description changed']],
      ['1', ['as written before the first update']],
    ]);
    const first = await versionFiles(skills, 'no-desc', path.join(skills, 'no-desc'), '1');
    expect(first.get('SKILL.md')!.toString()).toBe(original);
    // Version 1 is kept as written; restoring it is a write, which the loader's rules refuse as they did.
    await expect(rollbackSkill({ skills, name: 'no-desc', version: '1' })).rejects.toThrow(/\[description-required\]/);
  });

  test('a skill whose folder is named otherwise than its SKILL.md says is refused by either name, saying how to make them match', async () => {
    await mkdir(path.join(skills, 'deploy-checklist'));
    const skillMd = '---\nname: deploy-check-list\ndescription: Check a deploy.\n---\nBody.\n';
    await writeFile(path.join(skills, 'deploy-checklist', 'SKILL.md'), skillMd);
    await expect(updateSkill({ skills, name: 'deploy-check-list', body: 'New.\n' })).rejects.toThrow(
      'Skill "deploy-check-list" is in the folder "deploy-checklist", whose name differs (rule name-matches-folder): rename the folder to "deploy-check-list", or set name: deploy-checklist in "skills/deploy-checklist/SKILL.md", then update it; nothing was written',
    );
    await expect(updateSkill({ skills, name: 'deploy-checklist', body: 'New.\n' })).rejects.toThrow(
      'the SKILL.md in the folder "deploy-checklist" names the skill "deploy-check-list" (rule name-matches-folder): rename the folder to "deploy-check-list", or set name: deploy-checklist in its SKILL.md, then update it; nothing was written',
    );
    expect(await readFile(path.join(skills, 'deploy-checklist', 'SKILL.md'), 'utf8')).toBe(skillMd);
  });

  test('an unknown skill, an empty change and a link on the way are refused in words a model can act on', async () => {
    await expect(updateSkill({ skills, name: 'nope', body: 'x' })).rejects.toThrow(
      'Skill "nope" not found. Use skills_search to find the correct name.',
    );
    await createSkill(refund());
    await expect(updateSkill({ skills, name: 'refund-duplicate-charg', body: 'x' })).rejects.toThrow(
      'Skill "refund-duplicate-charg" not found. Did you mean "refund-duplicate-charge"? Use skills_search to find the correct name.',
    );
    await expect(updateSkill({ skills, name: 'refund-duplicate-charge' })).rejects.toThrow(/nothing to change/);
    await expect(updateSkill({ skills, name: 'refund-duplicate-charge', body: '' })).rejects.toThrow(
      /^body is empty: pass the new body, or leave body out to keep it as it is$/,
    );
    const outside = path.join(tmp, 'outside');
    await mkdir(outside);
    await symlink(outside, path.join(skills, 'refund-duplicate-charge', 'refs'));
    await expect(
      updateSkill({ skills, name: 'refund-duplicate-charge', files: [{ path: 'refs/x.md', content: 'x' }] }),
    ).rejects.toThrow(/goes through a link|symlink/);
    expect(await readdir(outside)).toEqual([]);
  });

  test('concurrent updates lose nothing; a stale base_version is a conflict naming the current version, one never written is named as such', async () => {
    await createSkill(refund());
    const name = 'refund-duplicate-charge';
    const results = await Promise.all(
      ['a', 'b', 'c'].map((n) => updateSkill({ skills, name, files: [{ path: `notes/${n}.md`, content: n }] })),
    );
    expect(results.map((r) => r.version).sort()).toEqual(['2', '3', '4']);
    expect((await readdir(path.join(skills, name, 'notes'))).sort()).toEqual(['a.md', 'b.md', 'c.md']);
    const stale = updateSkill({ skills, name, body: 'Changed.\n', base_version: '2' });
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    await expect(stale).rejects.toThrow(/is at version 4, not 2/);
    // Versions compare as numbers (10 comes after 4); one never written is no conflict.
    for (const base_version of ['10', 'latest']) {
      const unknown = updateSkill({ skills, name, body: 'Changed.\n', base_version });
      await expect(unknown).rejects.toMatchObject({ rule: 'unknown-version' });
      await expect(unknown).rejects.toThrow(
        `base_version "${base_version}": skill "${name}" has no such version; its current version is 4.`,
      );
    }
    await expect(updateSkill({ skills, name, body: 'Changed.\n', base_version: '4' })).resolves.toMatchObject({
      version: '5',
    });
  });

  test('a misspelled name is named, with the near one, before anything else the call lacks', async () => {
    await createSkill(refund());
    await expect(updateSkill({ skills, name: 'refund-duplicate-charg', feedback: 'x' })).rejects.toThrow(
      'Skill "refund-duplicate-charg" not found. Did you mean "refund-duplicate-charge"?',
    );
  });
});

describe('in a git work tree', () => {
  const git = (...args: string[]) => execFileSync('git', ['-C', tmp, ...args], { encoding: 'utf8' });

  test('each write is one commit of the skill folder only, its message listing the changes', async () => {
    git('init', '--quiet');
    await writeFile(path.join(tmp, 'unrelated.txt'), 'not mine\n');
    git('add', 'unrelated.txt');
    const created = await createSkill(refund());
    const updated = await updateSkill({ skills, name: created.name, files: [{ path: 'a.md', content: 'a' }] });
    const log = git('log', '--format=%s|%(trailers:key=Skillpress-Version,valueonly,separator=)').trim().split('\n');
    expect(log).toEqual(['skill refund-duplicate-charge: version 2|2', 'skill refund-duplicate-charge: version 1|1']);
    expect(git('show', '--stat', '--format=%B', 'HEAD')).toMatch(
      /- file added: a\.md[\s\S]*skills\/refund-duplicate-charge\/a\.md/,
    );
    // The unrelated staged file was left staged, not committed.
    expect(git('status', '--porcelain')).toBe('A  unrelated.txt\n');
    expect(updated.recorded.commit).toBe(git('rev-parse', 'HEAD').trim());
    const versions = await skillVersions(skills, created.name);
    expect(versions.map((v) => v.version)).toEqual(['2', '1']);
    const back = await rollbackSkill({ skills, name: created.name, version: '1' });
    expect(back.changes).toContain('file removed: a.md');
    expect(git('log', '--format=%s').split('\n')[0]).toBe('skill refund-duplicate-charge: version 3');
  });
  test('a folder git ignores is refused before anything is written, naming the .gitignore rule', async () => {
    git('init', '--quiet');
    await writeFile(path.join(tmp, '.gitignore'), '.cache/\n');
    const before = await tree(tmp);
    await expect(createSkill(refund({ folder: 'foo/.cache' }))).rejects.toThrow(
      /^folder "foo\/\.cache" is ignored by git \(\.gitignore:1: \.cache\/\): a skill there would never be committed; nothing was written$/,
    );
    expect(await tree(tmp)).toEqual(before);
  });

  test('a commit that fails undoes the write: a new skill is removed, an update restores the previous files', async () => {
    git('init', '--quiet');
    const created = await createSkill(refund());
    const before = await tree(tmp);
    // Another git process holds the index: git add fails.
    await writeFile(path.join(tmp, '.git', 'index.lock'), '');
    const failed = createSkill(refund({ name: 'second-skill', description: 'Another one.', folder: 'billing/new' }));
    await expect(failed).rejects.toThrow(
      /^version 1 of "second-skill" could not be recorded \(git could not commit skills\/billing\/new\/second-skill: Unable to create '.*index\.lock': File exists\.\); nothing was written$/,
    );
    const update = updateSkill({ skills, name: created.name, files: [{ path: 'a.md', content: 'a' }] });
    await expect(update).rejects.toThrow(
      /^version 2 of "refund-duplicate-charge" could not be recorded \(.*\); nothing was written$/,
    );
    await rm(path.join(tmp, '.git', 'index.lock'));
    expect(await tree(tmp)).toEqual(before);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect((await skillVersions(skills, created.name)).map((v) => v.version)).toEqual(['1']);
  });

  test('a build in a shallow clone says its history is cut short (CI checks out one commit by default)', async () => {
    git('init', '--quiet');
    const created = await createSkill(refund());
    await updateSkill({ skills, name: created.name, files: [{ path: 'a.md', content: 'a' }] });
    const published = async (root: string): Promise<{ versions: string[]; said: string[] }> => {
      const said: string[] = [];
      const out = path.join(root, 'dist');
      await build({
        skills: path.join(root, 'skills'),
        out,
        config: SkillpressConfig.parse({}),
        site: false,
        log: (l) => said.push(l),
      });
      const json = FeedSkill.parse(
        JSON.parse(await readFile(path.join(out, 'feed/v1/skills', `${created.name}.json`), 'utf8')),
      );
      return { versions: json.versions!.history.map((h) => h.version), said };
    };
    const clone = path.join(tmp, 'ci-checkout');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${tmp}`, clone]);
    const shallow = await published(clone);
    expect(shallow.versions).toEqual(['2']);
    expect(shallow.said.join('\n')).toMatch(/is a shallow git checkout: .*dated by it.*fetch-depth: 0/);
    const whole = await published(tmp);
    expect(whole.versions).toEqual(['2', '1']);
    expect(whole.said.join('\n')).not.toMatch(/shallow/);
  });

  test('an edit by hand not committed is kept as a version of its own; an update made against the version before conflicts', async () => {
    git('init', '--quiet');
    const created = await createSkill(refund());
    const skillMd = path.join(skills, created.name, 'SKILL.md');
    await writeFile(skillMd, (await readFile(skillMd, 'utf8')) + '\n## Hand-written note\n\nCall Dana in finance.\n');
    await expect(updateSkill({ skills, name: created.name, body: BODY, base_version: '1' })).rejects.toThrow(
      VersionConflictError,
    );
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    const versions = await skillVersions(skills, created.name);
    expect(versions.map((v) => [v.version, v.changes])).toEqual([
      ['2', ['edited outside skillpress after version 1']],
      ['1', ['created']],
    ]);
    const r = await updateSkill({ skills, name: created.name, body: BODY, base_version: '2' });
    expect(r).toMatchObject({ version: '3', previous_version: '2', changes: ['section "Hand-written note" removed'] });
    await rollbackSkill({ skills, name: created.name, version: '2' });
    expect(await readFile(skillMd, 'utf8')).toContain('Call Dana in finance.');
  });

  test('a skill written and committed by hand: its first update answers version 1, which versions lists and rollback restores', async () => {
    git('init', '--quiet');
    await mkdir(path.join(skills, 'differential-review'));
    const original = '---\nname: differential-review\ndescription: Review a diff.\n---\nThe first text.\n';
    await writeFile(path.join(skills, 'differential-review', 'SKILL.md'), original);
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'add a skill by hand');
    const r = await updateSkill({ skills, name: 'differential-review', description: 'Review a diff for security.' });
    expect(r).toMatchObject({ version: '2', previous_version: '1' });
    const versions = await skillVersions(skills, 'differential-review');
    expect(versions.map((v) => [v.version, v.changes, v.committedByHand ?? false])).toEqual([
      ['2', ['description changed'], false],
      ['1', ['as committed before skillpress recorded it'], true],
    ]);
    await rollbackSkill({ skills, name: 'differential-review', version: '1' });
    expect(await readFile(path.join(skills, 'differential-review', 'SKILL.md'), 'utf8')).toContain('The first text.');
    expect(await readFile(path.join(skills, 'differential-review', 'SKILL.md'), 'utf8')).toContain(
      'description: Review a diff.\n',
    );
    // The feed publishes what skillpress recorded: versions 3 and 2, not the commit before them.
    const out = path.join(tmp, 'dist');
    await build({ skills, out, config: SkillpressConfig.parse({}), site: false, log: () => {} });
    const json = FeedSkill.parse(
      JSON.parse(await readFile(path.join(out, 'feed/v1/skills/differential-review.json'), 'utf8')),
    );
    expect(json.versions!.history.map((h) => h.version)).toEqual(['3', '2']);
  });

  test('a skill written by hand and never committed is recorded before its first update, and restorable', async () => {
    git('init', '--quiet');
    await mkdir(path.join(skills, 'meta-number'));
    const original =
      '---\nname: meta-number\ndescription: A skill.\nmetadata:\n  version: "3"\n---\nThe original text.\n';
    await writeFile(path.join(skills, 'meta-number', 'SKILL.md'), original);
    const r = await updateSkill({ skills, name: 'meta-number', body: 'Replaced.\n' });
    expect(r).toMatchObject({ version: '4', previous_version: '3' });
    expect((await skillVersions(skills, 'meta-number')).map((v) => v.version)).toEqual(['4', '3']);
    await rollbackSkill({ skills, name: 'meta-number', version: '3' });
    expect(await readFile(path.join(skills, 'meta-number', 'SKILL.md'), 'utf8')).toContain('The original text.');
  });

  test('versions written before the folder was put under git are still listed and restorable', async () => {
    const created = await createSkill(refund());
    await updateSkill({ skills, name: created.name, files: [{ path: 'a.md', content: 'a' }] });
    git('init', '--quiet');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'start tracking the skills');
    await updateSkill({ skills, name: created.name, files: [{ path: 'b.md', content: 'b' }] });
    const versions = await skillVersions(skills, created.name);
    expect(versions.map((v) => [v.version, Boolean(v.commit)])).toEqual([
      ['3', true],
      ['2', false],
      ['1', false],
    ]);
    const back = await rollbackSkill({ skills, name: created.name, version: '1' });
    expect(back).toMatchObject({
      version: '4',
      changes: expect.arrayContaining(['file removed: a.md', 'file removed: b.md']),
    });
    expect(git('log', '--format=%s').split('\n')[0]).toBe('skill refund-duplicate-charge: version 4');
  });
});

describe('scaffoldSkill', () => {
  test('both templates pass validate --strict once their TODOs are filled in; an existing folder and an invalid name are refused with a suggestion', async () => {
    await scaffoldSkill({ skills, name: 'basic-one' });
    await scaffoldSkill({ skills, name: 'reset-password', template: 'playbook', description: 'Reset a password.' });
    // Every TODO line the templates write is known for a placeholder: none slips through --strict.
    const unfilled = await loadCatalog(skills, { mode: 'strict' });
    const todoLines = async (id: string): Promise<number> =>
      (await readFile(path.join(skills, id, 'SKILL.md'), 'utf8')).split('\n').filter((l) => l.includes('TODO:')).length;
    expect(unfilled.problems.map((p) => [p.skill, p.field, p.rule, p.severity])).toEqual([
      ['basic-one', 'description', 'scaffold-placeholder', 'error'],
      ['basic-one', 'body', 'scaffold-placeholder', 'error'],
      ['reset-password', 'body', 'scaffold-placeholder', 'error'],
    ]);
    expect(unfilled.problems[1]!.message).toContain(`${(await todoLines('basic-one')) - 1} placeholder(s)`);
    expect(unfilled.problems[2]!.message).toContain(`${await todoLines('reset-password')} placeholder(s)`);
    for (const id of ['basic-one', 'reset-password']) {
      const file = path.join(skills, id, 'SKILL.md');
      const filled = (await readFile(file, 'utf8')).replaceAll(/TODO: [^"\n]*/g, 'Look the order up.');
      await writeFile(file, filled);
    }
    const c = await loadCatalog(skills, { mode: 'strict' });
    expect(c.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(c.skills.map((s) => s.id)).toEqual(['basic-one', 'reset-password']);
    expect(c.skills[1]!.body).toMatch(
      /## Conditions[\s\S]*\*\*Do:\*\*[\s\S]*\*\*Check:\*\*[\s\S]*\*\*Say:\*\*[\s\S]*## Resolution/,
    );
    await expect(scaffoldSkill({ skills, name: 'basic-one' })).rejects.toThrow(
      /already exists: choose another name \(such as "basic-one-2"\)/,
    );
    await expect(scaffoldSkill({ skills, name: 'My_Skill' })).rejects.toThrow(/\[name-lowercase\].*use "my-skill"/);
  });

  test("--folder puts it in a group folder, checked as create_skill's folder", async () => {
    const dir = await scaffoldSkill({ skills, name: 'rotate-keys', folder: 'engineering/security' });
    expect(dir).toBe(path.join(skills, 'engineering', 'security', 'rotate-keys'));
    expect((await loadCatalog(skills)).skills.map((s) => s.id)).toEqual(['rotate-keys']);
    await expect(scaffoldSkill({ skills, name: 'hidden', folder: 'foo/.skillpress' })).rejects.toThrow(
      /^folder: path "foo\/\.skillpress" has "\.skillpress", skillpress's state folder/,
    );
    await expect(scaffoldSkill({ skills, name: 'inner', folder: 'engineering/security/rotate-keys' })).rejects.toThrow(
      /is inside the skill "rotate-keys"/,
    );
    expect(await readdir(path.join(skills, 'engineering', 'security'))).toEqual(['rotate-keys']);
    expect(await readdir(skills)).toEqual(['engineering']);
  });

  test('a name held in a group folder is refused, and the suggestion is free at every depth', async () => {
    await mkdir(path.join(skills, 'ops'));
    await scaffoldSkill({ skills: path.join(skills, 'ops'), name: 'deploy' });
    await scaffoldSkill({ skills: path.join(skills, 'ops'), name: 'deploy-2' });
    await expect(scaffoldSkill({ skills, name: 'deploy' })).rejects.toThrow(
      /ops\/deploy already exists: choose another name \(such as "deploy-3"\)/,
    );
  });
});
