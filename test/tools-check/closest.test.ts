/**
 * `check-tools` names the closest tools a server lists for one it does not: the name a skill
 * meant comes first, whether it was misspelled or remembered by its words.
 */
import { describe, expect, it } from 'vitest';
import { closestNames } from '../../src/tools-check/index.ts';

// The tools `skillpress mcp` lists: a real server a skill may name in allowed-tools.
const SKILLPRESS = ['skills_list', 'skills_search', 'view_skill', 'read_skill_file', 'best_skill'];

describe('closestNames', () => {
  it('puts the tool that shares the words first, ahead of names only as many edits away', () => {
    // Plain edit distance ties best_skill with read_skill_file (6 edits each) and sorts it first.
    expect(closestNames('read_file', SKILLPRESS)[0]).toBe('read_skill_file');
    expect(closestNames('search_skills', SKILLPRESS)[0]).toBe('skills_search');
  });

  it('puts a misspelling or a difference of case first, and still gives three names', () => {
    expect(closestNames('skill_search', SKILLPRESS).slice(0, 2)).toEqual(['skills_search', 'skills_list']);
    expect(closestNames('View_Skill', SKILLPRESS)[0]).toBe('view_skill');
    expect(closestNames('zzz', SKILLPRESS)).toHaveLength(3);
    expect(closestNames('x', ['only'])).toEqual(['only']);
  });
});
