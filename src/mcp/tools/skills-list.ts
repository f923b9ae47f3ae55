/** `skills_list`: cards sorted by name, filtered by a substring and tags, paged by cursor. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import { cardView } from '../views.ts';
import { CardOut, cardLines, limitOf, MAX_QUERY, READ_ONLY, type CatalogRef, withoutDialect } from './shared.ts';

const LIST_LIMIT = 50;
const LIST_MAX = 200;
const CURSOR_KIND = 'o';

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
      const page = matching.slice(start, start + limit);
      const skills = await Promise.all(
        page.map(async (card) =>
          args.includeBody ? { ...cardView(card), body: (await c.skill(card)).body } : cardView(card),
        ),
      );
      const next = start + limit < matching.length ? encodeCursor(CURSOR_KIND, String(start + limit)) : undefined;
      const out = { total: matching.length, skills, ...(next ? { nextCursor: next } : {}) };
      const text =
        `${matching.length} skill(s) match; showing ${page.length}${next ? ` (more with cursor "${next}")` : ''}.\n` +
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
