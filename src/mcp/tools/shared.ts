/** What the catalog tools share: the snapshot they answer from, their hints, output shapes and argument rules. */
import { z } from 'zod';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';

/** Gives the snapshot to answer from: the current one (swapped on reload), once it has loaded. */
export type CatalogRef = () => Promise<FeedCatalog>;

/** Catalog tools only read the feed (destructive/idempotent hints only apply to tools that write). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export const MAX_QUERY = 500;

/**
 * `schema`, validating the same, whose JSON Schema leaves out `$schema`. Every client reads
 * tools/list up front (the 8 KB budget), and the URL zod writes in each input and output schema
 * names 2020-12, MCP's default dialect when none is named (SEP-1613); the keywords these
 * schemas use mean the same in draft-07, which older clients may assume.
 */
export function withoutDialect<In, Out>(schema: StandardSchemaWithJSON<In, Out>): StandardSchemaWithJSON<In, Out> {
  const standard = schema['~standard'];
  type Convert = typeof standard.jsonSchema.input;
  const lean =
    (convert: Convert): Convert =>
    (options) => {
      const { $schema: _dialect, ...rest } = convert(options);
      return rest;
    };
  const jsonSchema = { input: lean(standard.jsonSchema.input), output: lean(standard.jsonSchema.output) };
  return { '~standard': { ...standard, jsonSchema } };
}

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

export const skillName = z
  .string()
  .min(1, 'name must not be empty')
  .max(200, 'name is at most 200 characters')
  .describe('Skill name');

export const queryText = (what: string) =>
  z
    .string()
    .min(1, 'query must not be empty')
    // Agents paste whole messages: say what to send instead.
    .max(MAX_QUERY, `query is at most ${MAX_QUERY} characters: pass the user's request in a sentence, or its key words`)
    .describe(what);

export const limitOf = (max: number, fallback: number) =>
  z
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

/** Cards as text lines, `- name: description`. */
export function cardLines(cards: readonly CatalogCard[]): string {
  return cards.map((c) => `- ${c.name}: ${c.description}`).join('\n');
}
