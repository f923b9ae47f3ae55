/**
 * The usage line the site shows on cards and skill pages (`usageText`): stars, uses, success rate
 * with the users it rests on, and whose figures they are, with nothing that says less than it seems to.
 */
import { describe, expect, it } from 'vitest';
import type { UsageFigures } from '../../src/model/usage.ts';
import { usageText as withNoBreakSpaces } from '../../src/site/usage.ts';

/** The line with plain spaces, as read. */
const usageText = (...args: Parameters<typeof withNoBreakSpaces>): string | undefined =>
  withNoBreakSpaces(...args)?.replaceAll('\u00a0', ' ');

const figures = (extra: Partial<UsageFigures>): UsageFigures => ({
  usage_version: 1,
  registry: 'acme',
  usage_count: 340,
  outcomes: { success: 8, partial: 1, failure: 1 },
  rating_count: 0,
  ...extra,
});

describe('usageText', () => {
  it('wraps between its parts, never inside one', () => {
    expect(withNoBreakSpaces(figures({ success_rate: 0.75, reporters: 4, rating: 4, rating_count: 4 }), 'acme')).toBe(
      '★\u00a04.0\u00a0(4) · 340\u00a0uses · 75%\u00a0success\u00a0(4\u00a0users)',
    );
  });

  it('names the users a success rate rests on, one or many', () => {
    expect(usageText(figures({ success_rate: 0.92, reporters: 9 }), 'acme')).toBe('340 uses · 92% success (9 users)');
    expect(usageText(figures({ success_rate: 1, reporters: 1 }), 'acme')).toBe('340 uses · 100% success (1 user)');
  });

  it('shows the rate alone from a feed published before reporters were counted', () => {
    expect(usageText(figures({ success_rate: 0.5, rating: 4.46, rating_count: 12 }), 'acme')).toBe(
      '★ 4.5 (12) · 340 uses · 50% success',
    );
  });

  it('leaves out "0 uses" beside ratings given by users whose loads were not recorded', () => {
    const rated = figures({ usage_count: 0, rating: 2.333, rating_count: 3 });
    expect(usageText(rated, 'acme')).toBe('★ 2.3 (3)');
  });

  it("attributes a peer's figures, and says nothing when there is nothing to show", () => {
    expect(usageText(figures({ success_rate: 0.5, reporters: 2 }), 'mine')).toBe(
      '340 uses · 50% success (2 users) · figures from acme',
    );
    expect(
      usageText(figures({ usage_count: 0, outcomes: { success: 0, partial: 1, failure: 0 } }), 'acme'),
    ).toBeUndefined();
    expect(usageText(figures({ usage_version: 2 }), 'acme')).toBeUndefined();
    expect(usageText(undefined, 'acme')).toBeUndefined();
  });
});
