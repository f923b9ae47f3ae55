/**
 * The five catalog tools. Names use `_` (never `.`) so every client accepts them; descriptions
 * are short and never list skills, so what an agent pays up front does not grow with the catalog.
 * Each returns `structuredContent` matching its output schema plus a short text copy.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CatalogCard, FeedCatalog } from './catalog.ts';
import { bestSkill } from './best.ts';
import { markdownToText } from '../search/text.ts';
import { cardView, excerpt, fileView, renderLevel2, type CardView } from './views.ts';
import { skillFileUri } from './uris.ts';

/** Gives the snapshot to answer from: the current one (swapped on reload), once it has loaded. */
export type CatalogRef = () => Promise<FeedCatalog>;

/** Catalog tools only read the feed (destructive/idempotent hints only apply to tools that write). */
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const MAX_QUERY = 500;
const LIST_LIMIT = 50;
const LIST_MAX = 200;

const CardOut = z.object({
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  domain: z.string().optional(),
  version: z.string().optional(),
  registry: z.string(),
  uri: z.string(),
  tokens: z.number(),
});

/** A scoped tool or resource definition from tools.json / resources.json, passed through as written. */
const ScopedItem = z.looseObject({ name: z.string().optional(), description: z.string().optional() }).meta({ additionalProperties: true });

const name = z.string().min(1, 'name must not be empty').max(200, 'name is at most 200 characters').describe('Skill name');
const query = (what: string) => z.string().min(1, 'query must not be empty').max(MAX_QUERY, `query is at most ${MAX_QUERY} characters`).describe(what);

/** The universal tools as seed 002's level-2 template lists them. */
export const UNIVERSAL_TOOLS = [
  { name: 'read_skill_file', description: 'Reads one file of the skill by its path.' },
  { name: 'skills_search', description: 'Finds other skills by keywords.' },
  { name: 'view_skill', description: 'Loads another skill\'s instructions.' },
] as const;

export function registerTools(server: McpServer, catalog: CatalogRef): void {
  server.registerTool(
    'skills_list',
    {
      title: 'List skills',
      description: 'List skill cards (name, description, tags), sorted by name. query: case-insensitive substring of name or description; tags: skills having every tag. Paged by cursor.',
      inputSchema: z.strictObject({
        query: z.string().max(MAX_QUERY, `query is at most ${MAX_QUERY} characters`).optional(),
        tags: z.array(z.string().max(100)).max(20, 'at most 20 tags').optional(),
        includeBody: z.boolean().optional().describe('Add each SKILL.md body'),
        limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(LIST_MAX, `limit must be at most ${LIST_MAX}`).optional(),
        cursor: z.string().max(100).optional(),
      }),
      outputSchema: z.object({
        total: z.number(),
        skills: z.array(CardOut.extend({ body: z.string().optional() })),
        nextCursor: z.string().optional(),
      }),
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
      const start = args.cursor === undefined ? 0 : decodeOffset(args.cursor);
      const limit = args.limit ?? LIST_LIMIT;
      const page = matching.slice(start, start + limit);
      const skills = await Promise.all(
        page.map(async (card) => (args.includeBody ? { ...cardView(card), body: (await c.skill(card)).body } : cardView(card))),
      );
      const next = start + limit < matching.length ? encodeOffset(start + limit) : undefined;
      const out = { total: matching.length, skills, ...(next ? { nextCursor: next } : {}) };
      const text = `${matching.length} skill(s) match; showing ${page.length}${next ? ` (more with cursor "${next}")` : ''}.\n` + lines(page);
      return { content: [{ type: 'text', text }], structuredContent: out };
    },
  );

  server.registerTool(
    'skills_search',
    {
      title: 'Search skills',
      description: 'Keyword search over skill names, metadata, SKILL.md text and file paths. Every whitespace-separated token must match. Ranked hits with a score and an excerpt around the first match.',
      inputSchema: z.strictObject({
        query: query('Keywords'),
        limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(25, 'limit must be at most 25').default(10),
      }),
      outputSchema: z.object({
        query: z.string(),
        limit: z.number(),
        total: z.number(),
        results: z.array(CardOut.extend({ score: z.number(), excerpt: z.string() })),
      }),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const { total, results } = await searchSkills(c, args.query, args.limit);
      const text = total === 0
        ? `No skill matches every token of "${args.query}". Try fewer or broader keywords, or skills_list.`
        : `${total} skill(s) match "${args.query}"; top ${results.length}:\n` + results.map((r) => `- ${r.name} (${r.score}): ${r.excerpt}`).join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { query: args.query, limit: args.limit, total, results } };
    },
  );

  server.registerTool(
    'view_skill',
    {
      title: 'View a skill',
      description: 'Load a skill before acting on it. detail=full (default): its instructions (SKILL.md body), scoped tools and resources, and file list (path, size, type, tokens; read files with read_skill_file). detail=summary: card, licence, requirements, files. detail=card: the card only.',
      inputSchema: z.strictObject({ name, detail: z.enum(['card', 'summary', 'full']).default('full') }),
      outputSchema: z.object({
        skill: CardOut,
        detail: z.enum(['card', 'summary', 'full']),
        summary: z
          .object({
            license: z.string().optional(),
            compatibility: z.string().optional(),
            allowed_tools: z.array(z.string()),
            author: z.string().optional(),
            health: z.string(),
          })
          .optional(),
        instructions: z.string().optional(),
        tools: z.array(ScopedItem).optional(),
        resources: z.array(ScopedItem).optional(),
        files: z
          .array(z.object({ path: z.string(), size: z.number(), type: z.string(), mimeType: z.string(), tokens: z.number().optional(), uri: z.string(), skipped: z.string().optional() }))
          .optional(),
      }),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const card = c.requireCard(args.name);
      const view = cardView(card);
      if (args.detail === 'card') {
        return { content: [{ type: 'text', text: lines([card]) }], structuredContent: { skill: view, detail: args.detail } };
      }
      const skill = await c.skill(card);
      const s = skill.summary;
      const summary = {
        ...(s.license !== undefined ? { license: s.license } : {}),
        ...(s.compatibility !== undefined ? { compatibility: s.compatibility } : {}),
        allowed_tools: s.allowed_tools,
        ...(s.author !== undefined ? { author: s.author } : {}),
        health: s.health.status,
      };
      const files = skill.files.map((f) => fileView(card, f));
      if (args.detail === 'summary') {
        const text = `${lines([card])}\nFiles:\n${files.map((f) => `- ${f.path} (${f.size} bytes)`).join('\n')}`;
        return { content: [{ type: 'text', text }], structuredContent: { skill: view, detail: args.detail, summary, files } };
      }
      const out = { skill: view, detail: args.detail, summary, instructions: skill.body, tools: s.tools, resources: s.resources, files };
      return { content: [{ type: 'text', text: renderLevel2(card, skill, UNIVERSAL_TOOLS) }], structuredContent: out };
    },
  );

  server.registerTool(
    'read_skill_file',
    {
      title: 'Read a skill file',
      description: 'Read one file of a skill by the path view_skill lists: text, or base64 with its MIME type for binary files.',
      inputSchema: z.strictObject({ name, path: z.string().min(1, 'path must not be empty').max(1024, 'path is at most 1024 characters').describe('File path inside the skill, e.g. scripts/run.py') }),
      outputSchema: z.object({
        name: z.string(),
        path: z.string(),
        uri: z.string(),
        mimeType: z.string(),
        size: z.number(),
        sha256: z.string(),
        encoding: z.enum(['utf-8', 'base64']),
        text: z.string().optional(),
        blob: z.string().optional(),
      }),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const card = c.requireCard(args.name);
      const { file, bytes } = await c.file(card, args.path);
      const uri = skillFileUri(card, file.path);
      const base = { name: card.name, path: file.path, uri, mimeType: file.mime, size: file.size, sha256: file.sha256 };
      if (file.encoding === 'utf-8') {
        const text = bytes.toString('utf8');
        return { content: [{ type: 'text', text }], structuredContent: { ...base, encoding: 'utf-8' as const, text } };
      }
      const blob = bytes.toString('base64');
      return {
        content: [{ type: 'resource', resource: { uri, mimeType: file.mime, blob } }],
        structuredContent: { ...base, encoding: 'base64' as const, blob },
      };
    },
  );

  server.registerTool(
    'best_skill',
    {
      title: 'Best skill for a request',
      description: 'Exactly one skill that fits the request, with its instructions and a confidence, or none. Deterministic rule (no LLM), explained in the result.',
      inputSchema: z.strictObject({ query: query('The user\'s request or problem, in their words') }),
      outputSchema: z.object({
        query: z.string(),
        skill: CardOut.extend({ confidence: z.number(), instructions: z.string() }).nullable(),
        rule: z.string(),
        search_time_ms: z.number(),
      }),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      await c.loadBodyIndex();
      const started = performance.now();
      const verdict = bestSkill(c.search, args.query);
      const search_time_ms = Math.round((performance.now() - started) * 1000) / 1000;
      const card = verdict.id ? c.card(verdict.id) : undefined;
      if (!card) {
        const out = { query: args.query, skill: null, rule: verdict.rule, search_time_ms };
        return { content: [{ type: 'text', text: `No skill fits "${args.query}". ${verdict.rule}` }], structuredContent: out };
      }
      const skill = await c.skill(card);
      const out = { query: args.query, skill: { ...cardView(card), confidence: verdict.confidence, instructions: skill.body }, rule: verdict.rule, search_time_ms };
      const text = `Best skill: ${card.name} (confidence ${verdict.confidence}). ${verdict.rule}\n\n${skill.body}`;
      return { content: [{ type: 'text', text }], structuredContent: out };
    },
  );
}

/** skills_search's work, also used by the router prompt: ranked hits with excerpts. */
export async function searchSkills(c: FeedCatalog, q: string, limit: number): Promise<{ total: number; results: Array<CardView & { score: number; excerpt: string }> }> {
  await c.loadBodyIndex();
  const { total, hits } = c.search.searchPage(q, { mode: 'all', limit });
  const results = await Promise.all(
    hits.map(async (hit) => {
      const card = c.card(hit.id);
      if (!card) return undefined;
      const metaMatch = Object.values(hit.match).some((fields) => fields.some((f) => f !== 'body' && f !== 'paths'));
      let text = card.description;
      if (!metaMatch) {
        const { body, paths } = await c.excerptSource(card);
        const bodyMatch = Object.values(hit.match).some((fields) => fields.includes('body'));
        text = bodyMatch ? markdownToText(body) : `Files: ${paths.join(', ')}`;
      }
      return { ...cardView(card), score: Math.round(hit.score * 1000) / 1000, excerpt: excerpt(text, hit.terms) };
    }),
  );
  return { total, results: results.filter((r) => r !== undefined) };
}

function lines(cards: readonly CatalogCard[]): string {
  return cards.map((c) => `- ${c.name}: ${c.description}`).join('\n');
}

/** skills_list cursors: an opaque token for an offset into the filtered, sorted list. */
function encodeOffset(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeOffset(cursor: string): number {
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new Error(`Invalid cursor "${cursor.slice(0, 40)}": pass the nextCursor of the previous skills_list result, or omit it.`);
  return Number(m[1]);
}
