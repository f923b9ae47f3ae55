/**
 * `skillpress new`, `versions` and `rollback` as a user runs them: the real binary in a child process.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSkill, updateSkill } from '../../src/author/index.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');

/** The CLI run in `cwd` (the test's folder by default). */
function skillpressIn(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(node, [path.join(repo, 'scripts/skillpress.mjs'), ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const skillpress = (...args: string[]) => skillpressIn(tmp, ...args);

/** The skill `greet` in `skills`, at version 2 (created, then its body updated). */
async function greetAtVersion2(skills: string): Promise<void> {
  await createSkill({
    skills,
    name: 'greet',
    description: 'Greet a customer.',
    body: 'Say hello.\n',
    duplicates: false,
  });
  await updateSkill({ skills, name: 'greet', body: 'Say hello by name.\n' });
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-author-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

test('skillpress new: validate --strict refuses its placeholders until they are filled in (lenient warns); a taken or invalid name is refused with a suggestion', async () => {
  const basic = skillpress('new', 'csv-report', '--skills', 'skills', '--description', 'Summarise a CSV file.');
  expect(basic).toMatchObject({ code: 0, stdout: expect.stringContaining('created skills/csv-report/SKILL.md') });
  expect(skillpress('new', 'reset-password', '--skills', 'skills', '--template', 'playbook').code).toBe(0);
  const strict = skillpress('validate', '--strict', 'skills');
  expect(strict.code).toBe(1);
  expect(strict.stdout).toContain(
    'skills/reset-password/SKILL.md:3: error [scaffold-placeholder] description: description is still the placeholder skillpress new wrote',
  );
  expect(strict.stdout).toMatch(
    /skills\/csv-report\/SKILL.md:\d+: error \[scaffold-placeholder\] body: the body still holds 4 placeholder/,
  );
  const lenient = skillpress('validate', 'skills');
  expect(lenient.code).toBe(0);
  expect(lenient.stdout).toMatch(/reset-password\/SKILL.md:3: warning \[scaffold-placeholder\] description:/);
  for (const id of ['csv-report', 'reset-password']) {
    const file = path.join(tmp, 'skills', id, 'SKILL.md');
    const text = (await readFile(file, 'utf8')).replaceAll(/TODO: [^"\n]*/g, 'Check the totals.');
    await writeFile(
      file,
      text.replace(/^description: .*$/m, 'description: Reset a password when a customer is locked out.'),
    );
  }
  const valid = skillpress('validate', '--strict', 'skills');
  expect(valid.stdout).toMatch(/2 valid skill\(s\).*0 error\(s\)/);
  expect(valid.code).toBe(0);
  const taken = skillpress('new', 'csv-report', '--skills', 'skills');
  expect(taken.code).toBe(2);
  expect(taken.stderr).toMatch(/already exists: choose another name \(such as "csv-report-2"\)/);
  const bad = skillpress('new', 'CSV Report', '--skills', 'skills');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/\[name-lowercase\] name "CSV Report" must be lowercase: use "csv-report"/);
  expect(skillpress('new', 'x', '--skills', 'skills', '--template', 'fancy').code).toBe(2);
});

test('skillpress versions lists what create and update recorded; rollback restores one as a new version', async () => {
  const skills = path.join(tmp, 'store-skills');
  await greetAtVersion2(skills);
  const listed = skillpress('versions', 'greet', '--skills', skills, '--json');
  expect(listed.code).toBe(0);
  const versions = JSON.parse(listed.stdout) as Array<{ version: string; digest: string; changes: string[] }>;
  expect(versions.map((v) => [v.version, v.changes])).toEqual([
    ['2', ['introduction changed']],
    ['1', ['created']],
  ]);
  expect(versions[0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  const back = skillpress('rollback', 'greet', '1', '--skills', skills);
  expect(back).toMatchObject({ code: 0, stdout: expect.stringContaining('version 1 restored as version 3') });
  expect(await readFile(path.join(skills, 'greet', 'SKILL.md'), 'utf8')).toMatch(/version: "3"[\s\S]*Say hello\.\n$/);
  const missing = skillpress('rollback', 'greet', '9', '--skills', skills);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/has no version "9"/);
  // The versions it has, named for the reader of the command line (not an API's "versions list").
  expect(missing.stderr).toContain('its versions are 3, 2, 1 (skillpress versions greet lists their changes)');
  expect(missing.stderr).not.toContain('versions list');
  // A skill written by hand has none to restore: said as `versions` says it.
  await mkdir(path.join(skills, 'by-hand'));
  await writeFile(
    path.join(skills, 'by-hand', 'SKILL.md'),
    '---\nname: by-hand\ndescription: Written by hand.\n---\nHi.\n',
  );
  const none = skillpress('rollback', 'by-hand', '1', '--skills', skills);
  expect(none.code).toBe(1);
  expect(none.stderr).toBe(
    'skillpress rollback: Skill "by-hand" has no version "1": it has no recorded version (versions are recorded by create and update)\n',
  );
});

test('versions and rollback of a name the folder lacks: the folder looked in and the near names, no MCP tool', async () => {
  const skills = path.join(tmp, 'near-skills');
  await createSkill({ skills, name: 'rotate-db-credentials', description: 'Rotate DB passwords.', body: 'Rotate.\n' });
  for (const args of [
    ['versions', 'rotate-db-credential'],
    ['rollback', 'rotate-db-credential', '1'],
  ]) {
    const r = skillpress(...args, '--skills', skills);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no skill "rotate-db-credential" in ${skills} (did you mean "rotate-db-credentials"?)`);
    expect(r.stderr).not.toContain('skills_search');
  }
  const far = skillpress('versions', 'Nothing_Like_It', '--skills', skills);
  expect(far).toMatchObject({ code: 1, stderr: expect.stringContaining(`no skill "Nothing_Like_It" in ${skills}\n`) });
});

test("new, versions and rollback find the repository's config and its skills.root from a subfolder, as validate does; a skills folder that is not there is a usage error", async () => {
  const project = path.join(tmp, 'team-repo');
  await mkdir(path.join(project, 'docs'), { recursive: true });
  spawnSync('git', ['init', '-q', project]);
  await writeFile(path.join(project, 'skillpress.json'), JSON.stringify({ skills: { root: 'catalog' } }));
  const skills = path.join(project, 'catalog');
  await greetAtVersion2(skills);
  const inDocs = (...args: string[]) => skillpressIn(path.join(project, 'docs'), ...args);
  expect(inDocs('validate')).toMatchObject({ code: 0, stdout: expect.stringContaining('1 valid skill(s)') });
  expect(inDocs('versions', 'greet')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^2 {2}/) });
  expect(inDocs('rollback', 'greet', '1')).toMatchObject({ code: 0 });
  const made = inDocs('new', 'farewell', '--description', 'Say goodbye to a customer.');
  expect(made).toMatchObject({ code: 0, stdout: expect.stringContaining('catalog/farewell/SKILL.md') });
  expect(await readFile(path.join(skills, 'farewell', 'SKILL.md'), 'utf8')).toContain('name: farewell');
  for (const args of [
    ['versions', 'greet'],
    ['rollback', 'greet', '1'],
  ]) {
    const r = inDocs(...args, '--skills', 'nowhere');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--skills nowhere: not a folder; give the folder that holds your skills');
  }
});
