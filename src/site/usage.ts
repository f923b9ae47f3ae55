/**
 * A skill's usage figures as the site shows them, on cards (pages and search results alike) and
 * skill pages: stars, uses, success rate, and whose figures they are when a peer published them.
 * Browser-safe.
 */
import type { UsageFigures } from '../model/usage.ts';
import { USAGE_VERSION } from '../model/usage-version.ts';
import { formatCount } from './catalog.ts';

/**
 * `★ 4.5 (12) · 340 uses · 92% success (9 users)`, plus `· figures from acme` for a peer's figures;
 * undefined without figures to show. The users say how much a rate rests on (a feed published
 * before `reporters` shows the rate alone). No "0 uses": ratings and reports come also from agents
 * whose loads were not recorded, and "★ 2.3 (3) · 0 uses" would read as never used. The spaces
 * inside a part are no-break spaces.
 */
export function usageText(usage: UsageFigures | undefined, localRegistry: string): string | undefined {
  if (!usage || usage.usage_version !== USAGE_VERSION) return undefined;
  const parts: string[] = [];
  if (usage.rating !== undefined) parts.push(`★ ${usage.rating.toFixed(1)} (${usage.rating_count})`);
  if (usage.usage_count > 0)
    parts.push(`${formatCount(usage.usage_count)} ${usage.usage_count === 1 ? 'use' : 'uses'}`);
  if (usage.success_rate !== undefined) parts.push(successText(usage.success_rate, usage.reporters));
  if (parts.length === 0) return undefined;
  if (usage.registry !== localRegistry) parts.push(`figures from ${usage.registry}`);
  // A narrow card wraps between the parts, never inside one ("75% success (4" / "users)").
  return parts.map((part) => part.replaceAll(' ', '\u00a0')).join(' · ');
}

function successText(rate: number, reporters: number | undefined): string {
  const share = `${Math.round(rate * 100)}% success`;
  return reporters === undefined ? share : `${share} (${formatCount(reporters)} ${reporters === 1 ? 'user' : 'users'})`;
}

/** What the sorts `used` and `rated` order by (a skill without figures comes last). */
export const usesOf = (u: UsageFigures | undefined): number => u?.usage_count ?? -1;
export const ratingOf = (u: UsageFigures | undefined): number => u?.rating ?? -1;
