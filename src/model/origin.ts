/** Where an imported skill comes from, in words the site and the search results share. */
import type { Card } from './feed.ts';

/**
 * How the site names an imported skill's origin: "verified from c" only when this registry
 * checked c's signature; otherwise "from c, via b, unverified". Undefined for this registry's own skills.
 */
export function originLabel(
  card: Pick<Card, 'registry' | 'via' | 'origin_verified'>,
  localRegistry: string,
): string | undefined {
  if (card.registry === localRegistry) return undefined;
  if (card.origin_verified === true) return `verified from ${card.registry}`;
  const via = card.via?.length ? `, via ${card.via.join(', ')}` : '';
  return `from ${card.registry}${via}, unverified`;
}
