/** What `skillpress dev` prints above a build's warnings: the count once, and later how many are new. */
import { describe, expect, it } from 'vitest';
import { warningsHeadline } from '../../src/cli/commands/dev.ts';

describe('skillpress dev: the warnings headline', () => {
  it('counts the first build’s warnings once', () => {
    expect(warningsHeadline(79, 79, 1)).toBe('dev: 79 warning(s):\n');
  });

  it('says how many of a rebuild’s warnings are new, when some were there before', () => {
    expect(warningsHeadline(1, 80, 2)).toBe('dev: 1 new warning(s), 80 in all:\n');
    expect(warningsHeadline(2, 2, 3)).toBe('dev: 2 warning(s):\n');
  });
});
