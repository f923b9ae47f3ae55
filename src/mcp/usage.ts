/**
 * Recording what agents load and how it went (`skillpress mcp --usage`): off unless a recorder
 * is given. An event names the skill, its version and digest, the client (from the handshake or
 * the request's envelope) and the user as a salted hash; never the request or the conversation.
 * Recording is a synchronous hand-off to the recorder, which never throws nor waits.
 */
import { CLIENT_INFO_META_KEY, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { LoadVia, Outcome } from '../model/usage.ts';
import type { z } from 'zod';
import { makeEvent } from '../usage/events.ts';
import type { UsageRecorder } from '../usage/recorder.ts';
import type { CatalogCard, FeedCatalog } from './catalog.ts';

export interface UsageOptions {
  recorder: UsageRecorder;
  /** The user's salted hash (see `userHash`). */
  user?: string;
}

export interface OutcomeReport {
  outcome: Outcome;
  stars?: number;
  note?: string;
}

/** What the tools and the skills extension call when a skill is loaded or reported on. */
export interface UsageHook {
  load(c: FeedCatalog, card: CatalogCard, via: z.infer<typeof LoadVia>, ctx?: ServerContext): void;
  /** Whether the report was kept; else why not. */
  outcome(
    c: FeedCatalog,
    card: CatalogCard,
    report: OutcomeReport,
    ctx?: ServerContext,
  ): { recorded: true } | { recorded: false; problem: string };
}

export function usageHook(server: McpServer, usage: UsageOptions): UsageHook {
  const base = (c: FeedCatalog, card: CatalogCard, ctx: ServerContext | undefined) => {
    const client = clientName(server, ctx);
    const digest = c.digest(card);
    return {
      skill: card.id,
      ...(card.version !== undefined ? { version: card.version } : {}),
      ...(digest !== undefined ? { digest } : {}),
      ...(client !== undefined ? { client } : {}),
    };
  };
  const ctxOf = { user: usage.user };
  return {
    load: (c, card, via, ctx) => {
      usage.recorder.record(makeEvent({ type: 'load', via, ...base(c, card, ctx) }, ctxOf));
    },
    outcome: (c, card, report, ctx) => {
      if (usage.recorder.record(makeEvent({ type: 'outcome', ...report, ...base(c, card, ctx) }, ctxOf)))
        return { recorded: true };
      return { recorded: false, problem: usage.recorder.problem ?? `${usage.recorder.target} did not take it` };
    },
  };
}

/** The client's name: from initialize (2025 revisions) or the request's envelope (2026-07-28). */
function clientName(server: McpServer, ctx: ServerContext | undefined): string | undefined {
  const fromHandshake = server.server.getClientVersion()?.name;
  if (fromHandshake) return fromHandshake.slice(0, 200);
  const envelope = ctx?.mcpReq.envelope as Record<string, { name?: unknown } | undefined> | undefined;
  const name = envelope?.[CLIENT_INFO_META_KEY]?.name;
  return typeof name === 'string' ? name.slice(0, 200) : undefined;
}
