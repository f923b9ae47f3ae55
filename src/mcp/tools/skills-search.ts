/**
 * `skills_search`: the shared ranking (mode `ranked`, src/search) over names, metadata, SKILL.md
 * text and file paths; each result says which words it matched, where, and its coverage.
 * Empty only when no skill shares a meaningful word with the query.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { SearchHit } from '../../search/index.ts';
import { markdownToText, shownWord } from '../../search/text.ts';
import { breakTiesByUse } from '../../route/usage.ts';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';
import { cardView, excerpt } from '../views.ts';
import { CardOut, limitOf, queryText, READ_ONLY, type CatalogRef, withoutDialect } from './shared.ts';

const WordOut = z.object({
  word: z.string(),
  fields: z.array(z.string()),
  exact: z
    .boolean()
    .optional()
    .describe(
      'false when only a prefix or a typo neighbour of the word matched (shown as ~word); absent when it matched itself',
    ),
});

const SearchResultOut = CardOut.extend({
  score: z.number(),
  coverage: z.number(),
  matched: z.array(WordOut),
  excerpt: z.string(),
  invocation: z.enum(['user']).optional(),
});

export type SearchResult = z.infer<typeof SearchResultOut>;

export function registerSkillsSearch(server: McpServer, catalog: CatalogRef): void {
  server.registerTool(
    'skills_search',
    {
      title: 'Search skills',
      description:
        "Ranked skills for a request (the user's words or keywords), with the words each matched, where, and coverage (0–1).",
      inputSchema: withoutDialect(
        z.strictObject({ query: queryText('The request or keywords'), limit: limitOf(25, 10) }),
      ),
      outputSchema: withoutDialect(
        z.object({
          query: z.string(),
          limit: z.number(),
          words: z.array(z.string()),
          total: z.number(),
          strong: z.number().describe('Matches that are not weak (they come first)'),
          results: z.array(SearchResultOut),
        }),
      ),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const found = await searchSkills(c, args.query, args.limit);
      const { total, strong, words, results } = found;
      const weaker = total > strong ? ` (${total - strong} of them weaker)` : '';
      const head = found.meaningAlone
        ? `No skill shares a meaningful word with "${args.query}"; ${total} are close to it in meaning alone, the closest ${results.length}:`
        : `${total} skill(s) match "${args.query}"${weaker}; top ${results.length}:`;
      const text =
        total === 0
          ? `No skill shares a meaningful word with "${args.query}". Try other words (what the task is about, the file type, the tool), or skills_list to browse.`
          : [head, ...results.map(resultLine)].join('\n');
      return {
        content: [{ type: 'text', text }],
        structuredContent: { query: args.query, limit: args.limit, words, total, strong, results },
      };
    },
  );
}

function resultLine(r: SearchResult): string {
  const words = r.matched.map((m) => `${shownWord(m)} [${m.fields.join(', ')}]`).join(', ');
  // A skill found by meaning alone matched no word: say so rather than "matched 0%: ".
  const how = words ? `matched ${Math.round(r.coverage * 100)}%: ${words}` : 'close in meaning; no word in common';
  const kept = r.invocation === 'user' ? '; its author keeps it for people to start: do not use it unasked' : '';
  return `- ${r.name} (score ${r.score}, ${how}${kept}): ${r.excerpt}`;
}

/**
 * skills_search's work, also used by the router prompt and the routing benchmark: the shared
 * ranking, by words and meaning (words alone while the catalog's meaning cannot be read).
 */
export async function searchSkills(
  c: FeedCatalog,
  q: string,
  limit: number,
): Promise<{
  total: number;
  strong: number;
  words: string[];
  /** No skill shares a word with the query: every result was found by meaning alone. */
  meaningAlone: boolean;
  results: SearchResult[];
}> {
  // Keyword queries are ranked by words: they never wait for the catalog's meaning. (The search
  // module is loaded with the feed; imported here, it would load before tools/list is answered.)
  const { queryWords, usesMeaning } = await import('../../search/index.ts');
  const wantsMeaning = usesMeaning(queryWords(q).length);
  const [, meaning] = await Promise.all([
    c.loadBodyIndex(),
    wantsMeaning ? c.meaningIndex().catch(() => undefined) : undefined,
  ]);
  const page = c.search.searchPage(q, { mode: 'ranked', limit, ...(meaning && { meaning }) });
  // Near ties go to the skill used most (src/route/usage.ts); without figures the order is the score's.
  const hits = breakTiesByUse(
    page.hits,
    (hit) => hit.score,
    (hit) => c.card(hit.id)?.uses ?? 0,
  );
  const results = await Promise.all(hits.map((hit) => result(c, hit)));
  return {
    total: page.total,
    strong: page.strong,
    words: page.words.map((w) => w.word),
    meaningAlone: page.total > 0 && page.words.every((w) => w.documents === 0),
    results: results.filter((r) => r !== undefined),
  };
}

async function result(c: FeedCatalog, hit: SearchHit): Promise<SearchResult | undefined> {
  const card = c.card(hit.id);
  if (!card) return undefined;
  return {
    ...cardView(card),
    score: Math.round(hit.score * 1000) / 1000,
    coverage: Math.round(hit.coverage * 1000) / 1000,
    matched: hit.words.map(({ word, fields, exact }) => ({ word, fields, ...(exact ? {} : { exact }) })),
    excerpt: excerpt(await excerptSource(c, card, hit), hit.terms),
    // Its author keeps it for people to start (disable-model-invocation): an agent does not pick it on its own.
    ...(card.invocation && { invocation: card.invocation }),
  };
}

/**
 * The description, unless the skill matched only in its body or file paths: then that text. A
 * skill found by meaning alone matched nowhere: its description (not its file list).
 */
async function excerptSource(c: FeedCatalog, card: CatalogCard, hit: SearchHit): Promise<string> {
  const fields = Object.values(hit.match).flat();
  if (fields.length === 0 || fields.some((f) => f !== 'body' && f !== 'paths')) return card.description;
  const { body, paths } = await c.excerptSource(card);
  return fields.includes('body') ? markdownToText(body) : `Files: ${paths.join(', ')}`;
}
