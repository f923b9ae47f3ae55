/**
 * `report_skill_outcome`: how using a skill went (success, failure, partial), with optional
 * stars (1–5) and a short note. Registered only while usage is recorded (`--usage`): a
 * read-only server lists no tool that writes. A name the feed does not have is an error that
 * names the skills closest to it.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { MAX_NOTE, OUTCOMES } from '../../model/usage.ts';
import type { FeedCatalog } from '../catalog.ts';
import { NotFoundError } from '../catalog.ts';
import type { UsageHook } from '../usage.ts';
import { skillName, type CatalogRef, withoutDialect } from './shared.ts';

/** Names suggested for a name the feed does not have. */
const SUGGESTED = 3;

export function registerReportOutcome(server: McpServer, catalog: CatalogRef, usage: UsageHook): void {
  server.registerTool(
    'report_skill_outcome',
    {
      title: 'Report how a skill worked',
      description:
        'After using a skill, say how it went: success, failure or partial; optional stars 1–5 and a short note (no personal data).',
      inputSchema: withoutDialect(
        z.strictObject({
          name: skillName,
          outcome: z.enum(OUTCOMES, { error: `outcome must be one of ${OUTCOMES.join(', ')}` }),
          stars: z
            .number({ error: 'stars must be a whole number from 1 to 5' })
            .int('stars must be a whole number from 1 to 5')
            .min(1, 'stars must be a whole number from 1 to 5')
            .max(5, 'stars must be a whole number from 1 to 5')
            .optional(),
          note: z.string().max(MAX_NOTE, `note is at most ${MAX_NOTE} characters`).optional(),
        }),
      ),
      outputSchema: withoutDialect(
        z.object({ recorded: z.boolean(), skill: z.string(), version: z.string().optional() }),
      ),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args, ctx) => {
      const c = await catalog();
      const card = c.card(args.name);
      if (!card) throw new NotFoundError(unknownName(c, args.name));
      const kept = usage.outcome(c, card, { outcome: args.outcome, stars: args.stars, note: args.note }, ctx);
      const version = card.version !== undefined ? { version: card.version } : {};
      if (!kept.recorded)
        // The agent should know its report went nowhere (and can tell the user), not be thanked for it.
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: `Not recorded: the server could not keep the report (${kept.problem}). Tell the user; whoever runs the server can fix its --usage.`,
            },
          ],
          structuredContent: { recorded: false, skill: card.id, ...version },
        };
      return {
        content: [{ type: 'text', text: `Recorded: ${args.outcome} for ${card.id}. Thank you.` }],
        structuredContent: { recorded: true, skill: card.id, ...version },
      };
    },
  );
}

function unknownName(c: FeedCatalog, name: string): string {
  const near = nearNames(c, name);
  const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : '';
  return `Skill "${name}" not found.${hint} Report on the name view_skill or best_skill gave.`;
}

/** The names closest in spelling (edit distance), then those sharing words with it. */
export function nearNames(c: FeedCatalog, name: string): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored = c.cards
    .map((card) => ({ id: card.id, d: editDistance(wanted, card.id.toLowerCase(), limit) }))
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .map((s) => s.id);
  if (scored.length < SUGGESTED) {
    const words = c.search.searchPage(name.replace(/[-_]/g, ' '), { mode: 'ranked', limit: SUGGESTED });
    for (const hit of words.hits) if (!scored.includes(hit.id)) scored.push(hit.id);
  }
  return scored.slice(0, SUGGESTED);
}

/** Levenshtein distance, or `limit + 1` once it is sure to pass `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length]!;
}
