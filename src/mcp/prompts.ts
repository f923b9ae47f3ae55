/**
 * Seed 002's prompts: the level-1 router (which skills exist, bounded for big catalogs) and the
 * level-2 context of one skill (its persona/instructions, scoped tools and resources, files).
 */
import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { CatalogCard } from './catalog.ts';
import { UNIVERSAL_TOOLS, type CatalogRef } from './tools/index.ts';
import { renderLevel2, renderRouter } from './views.ts';

/** The router lists every skill of a catalog this small, else this many (best matches or newest). */
export const ROUTER_MAX_SKILLS = 40;

export function registerPrompts(server: McpServer, catalog: CatalogRef): void {
  server.registerPrompt(
    'skills_router',
    {
      title: 'Skill router (level 1)',
      description:
        'Routes a request to one skill: lists available skills (at most 40; the best matches for `query` in a big catalog) and how to load one.',
      argsSchema: z.object({
        query: z
          .string()
          .max(500)
          .optional()
          .describe("The user's request in their own words: a big catalog lists the skills that best match it"),
      }),
    },
    async ({ query }) => {
      const c = await catalog();
      let skills: readonly CatalogCard[] = c.cards;
      if (c.cards.length > ROUTER_MAX_SKILLS) {
        if (query?.trim()) {
          await c.loadBodyIndex();
          skills = c.search
            .search(query, { limit: ROUTER_MAX_SKILLS })
            .map((h) => c.card(h.id))
            .filter((x): x is CatalogCard => x !== undefined);
        } else {
          skills = [...c.cards]
            .sort((a, b) => (a.updated_at > b.updated_at ? -1 : a.updated_at < b.updated_at ? 1 : 0))
            .slice(0, ROUTER_MAX_SKILLS);
        }
      }
      return {
        description: `Router over ${c.cards.length} skill(s)`,
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: renderRouter(skills, c.cards.length, query?.trim() || undefined) },
          },
        ],
      };
    },
  );

  server.registerPrompt(
    'skill_context',
    {
      title: 'Skill context (level 2)',
      description: 'The full context of one skill: instructions, scoped tools and resources, files.',
      argsSchema: z.object({
        name: completable(z.string().min(1).max(200).describe('Skill name'), async (value) => {
          const prefix = String(value ?? '');
          return (await catalog()).cards
            .filter((c) => c.name.startsWith(prefix))
            .slice(0, 100)
            .map((c) => c.name);
        }),
      }),
    },
    async ({ name }) => {
      const c = await catalog();
      const card = await c.lookupCard(name);
      const skill = await c.skill(card);
      return {
        description: `Level-2 context of ${card.name}`,
        messages: [{ role: 'user', content: { type: 'text', text: renderLevel2(card, skill, UNIVERSAL_TOOLS) } }],
      };
    },
  );
}
