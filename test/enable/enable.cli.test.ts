/** `skillpress disable|enable <name>`: a name that is no skill is refused with the near names; a glob matching none is warned about. */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CLI, NODE } from '../mcp/helpers.ts';

let tmp: string;
const cli = (...args: string[]) => spawnSync(NODE, [CLI, ...args], { cwd: tmp, encoding: 'utf8' });
const disabled = async () =>
  (JSON.parse(await readFile(path.join(tmp, 'skillpress.json'), 'utf8')) as { skills?: { disabled?: string[] } }).skills
    ?.disabled;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-enable-'));
  await mkdir(path.join(tmp, 'skills', 'trailmark-graph'), { recursive: true });
  await writeFile(
    path.join(tmp, 'skills', 'trailmark-graph', 'SKILL.md'),
    '---\nname: trailmark-graph\ndescription: Graph a codebase.\n---\nRun it.\n',
  );
  await writeFile(path.join(tmp, 'skillpress.json'), '{ "skills": {} }\n');
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

test('a name that is no skill is refused with a suggestion, and nothing is added', async () => {
  const r = cli('disable', 'trailmark-grph');
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(
    /no skill "trailmark-grph" in skills \(did you mean "trailmark-graph"\?\); nothing was changed/,
  );
  expect(await disabled()).toBeUndefined();
  expect(cli('enable', 'no-such-skill').status).toBe(1);
  const done = cli('disable', 'trailmark-graph');
  expect(done.status).toBe(0);
  expect(await disabled()).toEqual(['trailmark-graph']);
  // Only the config changed: the user learns that dist/ and the servers follow at the next build.
  expect(done.stdout).toMatch(/^trailmark-graph disabled in .*skillpress\.json\nthe next build leaves it out/);
  expect(cli('disable', 'trailmark-graph').stdout).not.toMatch(/next build/);
  const back = cli('enable', 'trailmark-graph');
  expect(back.stdout).toMatch(/^trailmark-graph enabled in .*skillpress\.json\nthe next build publishes it/);
  // Enabled again, the file holds no empty list behind.
  expect(JSON.parse(await readFile(path.join(tmp, 'skillpress.json'), 'utf8'))).toEqual({});
});

test('a glob that matches no skill is added, with a warning', async () => {
  const r = cli('disable', 'legacy-*');
  expect(r.status).toBe(0);
  expect(r.stderr).toMatch(/warning: "legacy-\*" matches no skill in skills yet/);
  expect(await disabled()).toEqual(['legacy-*']);
});

test('a skill is found by the name it is published under, also in a folder named otherwise', async () => {
  await mkdir(path.join(tmp, 'skills', 'graphing'), { recursive: true });
  await writeFile(
    path.join(tmp, 'skills', 'graphing', 'SKILL.md'),
    '---\nname: code-graph\ndescription: Graph the calls of a codebase.\n---\nRun it.\n',
  );
  const r = cli('disable', 'code-graph');
  expect(r.status, r.stderr).toBe(0);
  expect(await disabled()).toEqual(['code-graph']);
});
