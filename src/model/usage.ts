/**
 * Usage events and the figures made from them (opt-in; docs/usage.md). An event says that a
 * skill was loaded, or how using it went; it never holds the request's text or the conversation.
 * `UsageFigures` is what a build publishes per skill: in cards and skill JSON (`usage`), in the
 * `agent_skills` documents, and on the site.
 */
import { z } from 'zod';

import { USAGE_VERSION } from './usage-version.ts';

/** Version of the event lines and of the published figures; a reader skips what it does not know. */
export { USAGE_VERSION };

export const OUTCOMES = ['success', 'failure', 'partial'] as const;
export const Outcome = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof Outcome>;

/** How the skill reached the agent. */
export const LoadVia = z.enum(['view_skill', 'skills/get', 'resources/read', 'best_skill']);

/** Longest note an outcome report may carry. */
export const MAX_NOTE = 500;

const EventBase = z.object({
  v: z.literal(USAGE_VERSION),
  /** Unique per event: Elasticsearch stores it as the document id, so an event re-sent is stored once. */
  id: z.string().min(1).max(64),
  at: z.iso.datetime({ offset: true }),
  /** The skill's id in the feed served. */
  skill: z.string().min(1).max(300),
  version: z.string().max(100).optional(),
  digest: z.string().max(100).optional(),
  /** The MCP client's name from the handshake. */
  client: z.string().max(200).optional(),
  /** The user, only as a salted hash. */
  user: z.string().max(128).optional(),
});

export const LoadEvent = EventBase.extend({ type: z.literal('load'), via: LoadVia });
export const OutcomeEvent = EventBase.extend({
  type: z.literal('outcome'),
  outcome: Outcome,
  stars: z.number().int().min(1).max(5).optional(),
  note: z.string().max(MAX_NOTE).optional(),
});

export const UsageEvent = z
  .discriminatedUnion('type', [LoadEvent, OutcomeEvent])
  .meta({ id: 'UsageEvent', description: 'One line of a usage file: a skill loaded, or an outcome reported.' });
export type UsageEvent = z.infer<typeof UsageEvent>;
export type LoadEvent = z.infer<typeof LoadEvent>;
export type OutcomeEvent = z.infer<typeof OutcomeEvent>;

const Counts = z.object({
  success: z.number().int().nonnegative(),
  failure: z.number().int().nonnegative(),
  partial: z.number().int().nonnegative(),
});

/** The figures of one skill (or one of its versions). */
export const UsageFigures = z
  .object({
    usage_version: z
      .number()
      .int()
      .describe(
        `Version of this part (${USAGE_VERSION}); fields may be added within a version, and readers skip a version they do not know.`,
      ),
    registry: z
      .string()
      .describe(
        'Whose users these figures count: this registry, or the peer that published them (never merged with ours).',
      ),
    usage_count: z.number().int().nonnegative().describe('Times the skill was loaded by an agent.'),
    outcomes: Counts.describe('Outcomes agents reported: success, failure, partial.'),
    reporters: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('Users who reported an outcome (each report without a user counts as one).'),
    success_rate: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "The mean of each reporter's own (success + partial/2) / reports, so a user who reports a thousand times weighs as one; absent below `analytics.min_reports` reports or `analytics.min_reporters` reporters (too few to say anything).",
      ),
    rating: z.number().min(1).max(5).optional().describe("Average of each user's latest stars (1–5)."),
    rating_count: z.number().int().nonnegative().describe('Users who gave stars.'),
    last_used: z.string().optional().describe('When the skill was last loaded or reported on (ISO 8601).'),
  })
  .meta({
    id: 'UsageFigures',
    description: "What agents' use of a skill adds up to, from the events the build read (`analytics.source`).",
  });
export type UsageFigures = z.infer<typeof UsageFigures>;
