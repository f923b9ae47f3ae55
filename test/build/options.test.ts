/**
 * build() as a library call: a partial config object gets the defaults, a wrong one a message
 * naming the field; a skills folder whose only skill lies below skills.max_depth says why.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { UsageError } from '../../src/lib/errors.ts';
import { plainSkillMd, write } from '../feed/fixture.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-build-options-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('build() options', () => {
  it('completes a partial config object with the defaults', async () => {
    const skills = path.join(tmp, 'partial', 'skills');
    write(skills, 'pdf/SKILL.md', plainSkillMd('pdf'));
    const result = await build({
      skills,
      out: path.join(tmp, 'partial', 'out'),
      config: { registry: { name: 'acme' } },
      site: false,
    });
    expect([result.ok, result.skills]).toEqual([true, 1]);
  });

  it('names the field of a config object that breaks the schema, instead of failing on it later', async () => {
    const run = build({
      skills: path.join(tmp, 'partial', 'skills'),
      out: path.join(tmp, 'wrong', 'out'),
      config: { skills: { max_depth: 'deep' } } as never,
      site: false,
    });
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/config: skills\.max_depth: /);
  });

  it('says the only skill lies below skills.max_depth rather than just "no skill to publish"', async () => {
    const skills = path.join(tmp, 'deep', 'skills');
    mkdirSync(skills, { recursive: true });
    write(skills, 'a/b/c/pdf/SKILL.md', plainSkillMd('pdf'));
    const run = build({
      skills,
      out: path.join(tmp, 'deep', 'out'),
      config: { skills: { max_depth: 2 } },
      site: false,
    });
    await expect(run).rejects.toThrow(/no skill to publish .*a\/b\/c\/pdf: .*deeper than skills\.max_depth \(2\)/);
  });
});
