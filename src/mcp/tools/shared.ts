/** What the catalog tools share: the snapshot they answer from, their hints, output shapes and argument rules. */
import { z } from 'zod';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';

/** Gives the snapshot to answer from: the current one (swapped on reload), once it has loaded. */
export type CatalogRef = () => Promise<FeedCatalog>;

/** Catalog tools only read the feed (destructive/idempotent hints only apply to tools that write). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export const MAX_QUERY = 500;

/** A skill's card as every tool returns it. */
export const CardOut = z.object({
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  domain: z.string().optional(),
  version: z.string().optional(),
  registry: z.string(),
  uri: z.string(),
  tokens: z.number(),
});

export const skillName = z.string().min(1, 'name must not be empty').max(200, 'name is at most 200 characters').describe('Skill name');

export const queryText = (what: string) =>
  z.string().min(1, 'query must not be empty').max(MAX_QUERY, `query is at most ${MAX_QUERY} characters`).describe(what);

export const limitOf = (max: number, fallback: number) =>
  z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(max, `limit must be at most ${max}`).default(fallback);

/** Cards as text lines, `- name: description`. */
export function cardLines(cards: readonly CatalogCard[]): string {
  return cards.map((c) => `- ${c.name}: ${c.description}`).join('\n');
}
