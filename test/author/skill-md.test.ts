/** Editing SKILL.md's front matter for an update: only the fields asked for change, the rest reads as written. */
import { describe, expect, it } from 'vitest';
import { editSkillMarkdown } from '../../src/author/skill-md.ts';

describe('editSkillMarkdown', () => {
  it('keeps flow lists and maps as written, with or without padding, and comments', () => {
    const tight =
      '---\nname: x\ndescription: Old.\nlicense: [MIT]\n# owned by billing\nrequires:\n  mcp: [ticketing, vault]\n---\nBody.\n';
    expect(editSkillMarkdown(tight, { description: 'New.', version: '2' })).toBe(
      '---\nname: x\ndescription: New.\nlicense: [MIT]\n# owned by billing\nrequires:\n  mcp: [ticketing, vault]\nmetadata:\n  version: "2"\n---\nBody.\n',
    );
    const padded = '---\nname: x\ndescription: Old.\nlicense: [ MIT ]\n---\nBody.\n';
    expect(editSkillMarkdown(padded, { version: '2' })).toContain('license: [ MIT ]\n');
  });
});
