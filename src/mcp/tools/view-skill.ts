/** `view_skill`: a skill at the level of detail asked for — card, summary, or the full level-2 context. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';
import { cardView, fileView, needsLine, renderLevel2 } from '../views.ts';
import type { UsageHook } from '../usage.ts';
import { CardOut, cardLines, READ_ONLY, skillName, type CatalogRef, withoutDialect } from './shared.ts';

/** The universal tools as seed 002's level-2 template lists them. */
export const UNIVERSAL_TOOLS = [
  { name: 'read_skill_file', description: 'Reads one file of the skill by its path.' },
  { name: 'skills_search', description: 'Finds other skills by keywords.' },
  { name: 'view_skill', description: "Loads another skill's instructions." },
] as const;

/** A scoped tool or resource definition from tools.json / resources.json, passed through as written. */
const ScopedItem = z
  .looseObject({ name: z.string().optional(), description: z.string().optional() })
  .meta({ additionalProperties: true });

const Summary = z.object({
  license: z.string().optional(),
  compatibility: z.string().optional(),
  allowed_tools: z.array(z.string()),
  author: z.string().optional(),
  health: z.string(),
  needs: z.string().optional(),
});

const FileOut = z.object({
  path: z.string(),
  size: z.number(),
  type: z.string(),
  mimeType: z.string(),
  tokens: z.number().optional(),
  uri: z.string(),
  skipped: z.string().optional(),
});

export function registerViewSkill(server: McpServer, catalog: CatalogRef, usage?: UsageHook): void {
  server.registerTool(
    'view_skill',
    {
      title: 'View a skill',
      description:
        'Load a skill before acting on it: detail=full (default): its instructions, scoped tools, resources and files; summary; or card.',
      inputSchema: withoutDialect(
        z.strictObject({ name: skillName, detail: z.enum(['card', 'summary', 'full']).default('full') }),
      ),
      outputSchema: withoutDialect(
        z.object({
          skill: CardOut,
          detail: z.enum(['card', 'summary', 'full']),
          summary: Summary.optional(),
          instructions: z.string().optional(),
          tools: z.array(ScopedItem).optional(),
          resources: z.array(ScopedItem).optional(),
          files: z.array(FileOut).optional(),
        }),
      ),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const c = await catalog();
      const card = await c.lookupCard(args.name);
      // A load is the instructions reaching the agent; a card or summary is still deciding.
      if (args.detail === 'full') usage?.load(c, card, 'view_skill', ctx);
      if (args.detail === 'card')
        return {
          content: [{ type: 'text', text: cardLines([card]) }],
          structuredContent: { skill: cardView(card), detail: args.detail },
        };
      return viewDetail(c, card, args.detail);
    },
  );
}

async function viewDetail(c: FeedCatalog, card: CatalogCard, detail: 'summary' | 'full') {
  const skill = await c.skill(card);
  const s = skill.summary;
  const summary: z.infer<typeof Summary> = {
    ...(s.license !== undefined ? { license: s.license } : {}),
    ...(s.compatibility !== undefined ? { compatibility: s.compatibility } : {}),
    allowed_tools: s.allowed_tools,
    ...(s.author !== undefined ? { author: s.author } : {}),
    health: s.health.status,
  };
  const needs = needsLine(s.needs);
  if (needs) summary.needs = needs;
  const files = skill.files.map((f) => fileView(card, f));
  const view = cardView(card);
  if (detail === 'summary') {
    const text = [
      cardLines([card]),
      ...(needs ? [needs] : []),
      'Files:',
      ...files.map((f) => `- ${f.path} (${f.size} bytes)`),
    ].join('\n');
    return { content: [{ type: 'text' as const, text }], structuredContent: { skill: view, detail, summary, files } };
  }
  const out = { skill: view, detail, summary, instructions: skill.body, tools: s.tools, resources: s.resources, files };
  return {
    content: [{ type: 'text' as const, text: renderLevel2(card, skill, UNIVERSAL_TOOLS) }],
    structuredContent: out,
  };
}
