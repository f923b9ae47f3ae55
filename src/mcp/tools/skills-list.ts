/** `skills_list`: cards sorted by name, filtered by a substring and tags, paged by cursor. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';
import { cardView } from '../views.ts';
import { CardOut, cardLines, limitOf, MAX_QUERY, READ_ONLY, type CatalogRef, withoutDialect } from './shared.ts';

const LIST_LIMIT = 50;
const LIST_MAX = 200;
const CURSOR_KIND = 'o';
/**
 * With includeBody, a page ends before its bodies pass this many bytes (always one skill at
 * least): 200 skills' bodies of a public catalog are 1.4 MB, more than an agent's context holds.
 */
export const BODY_PAGE_BYTES = 64 * 1024;

export function registerSkillsList(server: McpServer, catalog: CatalogRef): void {
  server.registerTool(
    'skills_list',
    {
      title: 'List skills',
      description:
        'Skill cards sorted by name. query: substring of name or description; tags: skills with every tag. Paged by cursor.',
      inputSchema: withoutDialect(
        z.strictObject({
          query: z.string().max(MAX_QUERY, `query is at most ${MAX_QUERY} characters`).optional(),
          tags: z.array(z.string().max(100)).max(20, 'at most 20 tags').optional(),
          includeBody: z.boolean().optional().describe('Add each SKILL.md body'),
          limit: limitOf(LIST_MAX, LIST_LIMIT).optional(),
          cursor: z.string().max(100).optional(),
        }),
      ),
      outputSchema: withoutDialect(
        z.object({
          total: z.number(),
          skills: z.array(CardOut.extend({ body: z.string().optional() })),
          nextCursor: z.string().optional(),
        }),
      ),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const needle = args.query?.trim().toLowerCase();
      const tags = args.tags ?? [];
      const matching = c.cards.filter(
        (card) =>
          (!needle || card.name.toLowerCase().includes(needle) || card.description.toLowerCase().includes(needle)) &&
          tags.every((t) => card.tags.includes(t)),
      );
      const start = args.cursor === undefined ? 0 : offsetOf(args.cursor);
      const limit = args.limit ?? LIST_LIMIT;
      const { page, skills, full } = await pageOf(matching.slice(start, start + limit), args.includeBody === true, c);
      const end = start + page.length;
      const next = end < matching.length ? encodeCursor(CURSOR_KIND, String(end)) : undefined;
      const out = { total: matching.length, skills, ...(next ? { nextCursor: next } : {}) };
      const text =
        `${matching.length} skill(s) match; showing ${page.length}` +
        (full ? ` (bodies fill a page at ${BODY_PAGE_BYTES / 1024} KiB)` : '') +
        `${next ? ` (more with cursor "${next}")` : ''}.\n` +
        cardLines(page);
      return { content: [{ type: 'text', text }], structuredContent: out };
    },
  );
}

function offsetOf(cursor: string): number {
  const value = decodeCursor(CURSOR_KIND, cursor);
  if (value === undefined || !/^\d{1,9}$/.test(value)) {
    throw new Error(
      `Invalid cursor "${cursor.slice(0, 40)}": pass the nextCursor of the previous skills_list result, or omit it.`,
    );
  }
  return Number(value);
}

/** The page's cards, with their bodies when asked, cut where the bodies pass BODY_PAGE_BYTES. */
async function pageOf(
  cards: CatalogCard[],
  includeBody: boolean,
  c: FeedCatalog,
): Promise<{ page: CatalogCard[]; skills: Array<ReturnType<typeof cardView> & { body?: string }>; full: boolean }> {
  if (!includeBody) return { page: cards, skills: cards.map(cardView), full: false };
  const bodies = await Promise.all(cards.map(async (card) => (await c.skill(card)).body));
  let bytes = 0;
  let shown = 0;
  for (const body of bodies) {
    bytes += Buffer.byteLength(body);
    if (shown > 0 && bytes > BODY_PAGE_BYTES) break;
    shown++;
  }
  const page = cards.slice(0, shown);
  return { page, skills: page.map((card, i) => ({ ...cardView(card), body: bodies[i]! })), full: shown < cards.length };
}
