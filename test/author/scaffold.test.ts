/**
 * What `skillpress new` writes reads as intended once the site renders it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scaffoldSkill } from '../../src/author/scaffold.ts';
import { splitSkillMarkdown } from '../../src/author/skill-md.ts';
import { renderMarkdown } from '../../src/site/markdown.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-scaffold-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

test("the playbook template's Do, Check and Say are separate lines on the site, under each step", async () => {
  const dir = await scaffoldSkill({ skills: tmp, name: 'reset-password', template: 'playbook' });
  const { body } = splitSkillMarkdown(await readFile(path.join(dir, 'SKILL.md'), 'utf8'))!;
  const html = renderMarkdown(body);
  const steps = html.slice(html.indexOf('<ol>'), html.indexOf('</ol>'));
  const items = [...steps.matchAll(/<li><strong>(Do|Check|Say):<\/strong>/g)].map((m) => m[1]);
  expect(items).toEqual(['Do', 'Check', 'Say', 'Do', 'Check', 'Say']);
  // Each inside a list nested in its numbered step.
  expect(steps.match(/<ul>/g)).toHaveLength(2);
});
