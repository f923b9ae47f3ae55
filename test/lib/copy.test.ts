/** copyData: what a rebuild gets of a skill loaded before, which it may add to without changing the kept one. */
import { describe, expect, it } from 'vitest';
import { copyData } from '../../src/lib/copy.ts';

describe('copyData', () => {
  it('copies objects and arrays, so a change to the copy leaves the original as it was', () => {
    const kept = {
      skill: { id: 'pdf', files: [{ path: 'SKILL.md', content: '# PDF\n' }], usage: undefined, tags: ['a'] },
      problems: [{ rule: 'name-normalized', line: 2 }],
    };
    const copy = copyData(kept);
    expect(copy).toEqual(kept);
    expect(Object.keys(copy.skill)).toEqual(Object.keys(kept.skill)); // an undefined field stays a field
    copy.skill.files[0]!.content = 'changed';
    copy.skill.tags.push('b');
    (copy.skill as { usage?: unknown }).usage = { uses: 3 };
    copy.problems.pop();
    expect(kept.skill.files[0]!.content).toBe('# PDF\n');
    expect(kept.skill.tags).toEqual(['a']);
    expect(kept.skill.usage).toBeUndefined();
    expect(kept.problems).toHaveLength(1);
  });

  it('copies Dates and other objects (a Map) whole, and keeps numbers, booleans and null', () => {
    const at = new Date('2026-12-07T00:00:00Z');
    const kept = { at, seen: new Map([['a', 1]]), n: 1, ok: false, none: null };
    const copy = copyData(kept);
    expect(copy).toEqual(kept);
    expect(copy.at).not.toBe(at);
    expect(copy.seen).not.toBe(kept.seen);
    copy.seen.set('b', 2);
    expect(kept.seen.size).toBe(1);
  });
});
