/**
 * `best_skill` (seed 004): exactly one skill that fits the request, or none — never a list.
 * Retrieval narrows to a few candidates; the client's model judges them when the client offers
 * sampling (asked once, with a deadline; its reply is read strictly), otherwise — and whenever
 * the model gives no usable answer in time — the calibrated rule decides. The answer says who
 * decided, the candidates with their scores, the confidence and the reason. The agent gets one
 * skill's instructions or none; a none also names the nearest skills, each with a line of what it
 * is for, so the agent can read one the rule was not sure enough of.
 */
import { z } from 'zod';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RequestStateCodec } from '@modelcontextprotocol/server';
import {
  modelPrompt,
  oneLine,
  parseModelAnswer,
  replyText,
  retrieve,
  ruleJudge,
  combinedConfidence,
  withOutcomes,
  type Judgement,
  type Retrieval,
} from '../../route/index.ts';
import type { CatalogCard, FeedCatalog } from '../catalog.ts';
import { cardView } from '../views.ts';
import type { UsageHook } from '../usage.ts';
import { CardOut, queryText, READ_ONLY, type CatalogRef, withoutDialect } from './shared.ts';

/** How long the client's model has to answer before the rule decides (default). */
export const JUDGE_TIMEOUT_MS = 20_000;
const JUDGE_KEY = 'judge';
/**
 * How many of the closest candidates a "none" answer shows: the agent reading it is a model and
 * can take one the rule was not sure enough of (on the routing sets the right skill is among the
 * first 3 candidates for about 95% of the requests one fits; `npm run bench:routing`).
 */
export const NEAREST_SHOWN = 3;
/** Characters of each nearest skill's description shown. */
const NEAREST_DESCRIPTION = 200;

export interface JudgeState {
  /** Epoch milliseconds after which a model answer is not waited for. */
  deadline: number;
}

export interface JudgeOptions {
  /** Signs the deadline that rides in a 2026-07-28 input-required round trip. */
  state: RequestStateCodec<JudgeState>;
  timeoutMs: number;
  /** The server's log: where routing by words alone (the meaning model unreadable) is reported. */
  log: (message: string) => void;
}

export type Decision = Judgement & { decided_by: 'rule' | 'model' };

const CandidateOut = z.object({
  name: z.string(),
  score: z.number(),
  coverage: z.number(),
  metadata_coverage: z.number(),
  /** Closeness in meaning (standard deviations above the catalog's mean); absent when routing went by words alone. */
  meaning: z.number().optional(),
});

export function registerBestSkill(
  server: McpServer,
  catalog: CatalogRef,
  judge: JudgeOptions,
  usage?: UsageHook,
): void {
  server.registerTool(
    'best_skill',
    {
      title: 'Best skill for a request',
      description:
        'The one skill for the request, with its instructions, or none; judged by your model (sampling) if offered, else a rule.',
      inputSchema: withoutDialect(
        z.strictObject({
          query: queryText("The user's request, in their words"),
          judge: z.enum(['auto', 'rule']).default('auto'),
        }),
      ),
      outputSchema: withoutDialect(
        z.object({
          query: z.string(),
          decided_by: z.enum(['rule', 'model']),
          // Absent for a skill whose SKILL.md is over INLINE_TOKENS: load it with view_skill.
          skill: CardOut.extend({ instructions: z.string().optional() }).nullable(),
          // The skill that fits when its author keeps it for people to start (skill is then null).
          kept_for_people: z.string().optional(),
          confidence: z.number(),
          reason: z.string(),
          // A close call's runner-up (the chosen skill leads it by under 10%): it may be the one asked for.
          runner_up: z.string().optional(),
          candidates: z.array(CandidateOut),
          search_time_ms: z.number(),
        }),
      ),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const c = await catalog();
      const { retrieval, search_time_ms } = await candidatesFor(c, args.query, judge.log);
      const asked = args.judge === 'auto' && retrieval.candidates.length > 0 && offersSampling(server, ctx);
      const decision = asked
        ? await modelDecision(ctx, retrieval, judge)
        : { ...ruleJudge(retrieval), decided_by: 'rule' as const };
      if ('resultType' in decision) return decision;
      const card = decision.id ? c.card(decision.id) : undefined;
      // A skill too long to inline is not loaded here: view_skill records its load when it is.
      if (card && inlined(card) && !keptForPeople(card)) usage?.load(c, card, 'best_skill', ctx);
      return bestSkillAnswer(c, args.query, retrieval, withSuccessRate(decision, card), search_time_ms);
    },
  );
}

/**
 * best_skill's candidates for a request, with the time retrieval took: ranked by words and
 * meaning, with each candidate's success rate in use (`skillpress search --best` shows the same).
 */
export async function candidatesFor(
  c: FeedCatalog,
  query: string,
  log: (line: string) => void,
): Promise<{ retrieval: Retrieval; search_time_ms: number }> {
  // An unreadable meaning model (a damaged install) leaves routing to words, and says so.
  const byWordsAlone = (err: Error): undefined => void log(`best_skill ranks by words alone: ${err.message}`);
  const [, meaning] = await Promise.all([c.loadBodyIndex(), c.meaningIndex().catch(byWordsAlone)]);
  const started = performance.now();
  // Candidates that keep failing in use lose close calls (src/route/usage.ts).
  const retrieval = withOutcomes(retrieve(c.search, query, { meaning }), (id) => c.card(id)?.success_rate);
  return { retrieval, search_time_ms: Math.round((performance.now() - started) * 1000) / 1000 };
}

/** Whether the client declared sampling: in the request's envelope (2026-07-28) or at initialize (earlier revisions). */
export function offersSampling(server: McpServer, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, { sampling?: unknown } | undefined> | undefined;
  const declared = envelope ? envelope[CLIENT_CAPABILITIES_META_KEY] : server.server.getClientCapabilities();
  return declared?.sampling !== undefined;
}

/**
 * The model's verdict, or the rule's when the model gives no usable answer. On 2026-07-28 the
 * question goes out as an input-required result (the client retries with the answer and the
 * signed deadline); on earlier revisions as a sampling request with a timeout.
 */
async function modelDecision(
  ctx: ServerContext,
  retrieval: Retrieval,
  judge: JudgeOptions,
): Promise<Decision | ReturnType<typeof inputRequired>> {
  const prompt = modelPrompt(retrieval);
  if (ctx.mcpReq.envelope === undefined) {
    const reply = await ctx.mcpReq.requestSampling(prompt, { timeout: judge.timeoutMs }).catch((err: Error) => err);
    return reply instanceof Error
      ? fallback(retrieval, `the client's model gave no answer (${reply.message})`)
      : fromReply(reply, retrieval);
  }
  const state = ctx.mcpReq.requestState<JudgeState>();
  const reply = ctx.mcpReq.inputResponses?.[JUDGE_KEY];
  if (state === undefined || reply === undefined) {
    if (state !== undefined) return fallback(retrieval, 'the client did not ask its model');
    const requestState = await judge.state.mint({ deadline: Date.now() + judge.timeoutMs });
    return inputRequired({ inputRequests: { [JUDGE_KEY]: inputRequired.createMessage(prompt) }, requestState });
  }
  if (typeof state !== 'object' || Date.now() > state.deadline)
    return fallback(retrieval, `the client's model did not answer within ${judge.timeoutMs / 1000} s`);
  return fromReply(reply, retrieval);
}

function fromReply(reply: unknown, retrieval: Retrieval): Decision {
  const text = replyText(reply);
  const id = parseModelAnswer(text, retrieval);
  if (id === undefined)
    return fallback(
      retrieval,
      `the client's model answered ${JSON.stringify((text ?? '').slice(0, 80))}, which is neither a candidate's name nor none`,
    );
  const rule = ruleJudge(retrieval);
  const chosen = retrieval.candidates.find((c) => c.id === id);
  const agree =
    rule.id === (id ?? undefined)
      ? 'as the rule would'
      : `the rule alone would say ${rule.id ? `"${rule.id}"` : 'none'}`;
  const reason = `The client's model chose ${chosen ? `"${chosen.id}"` : 'none'} among ${retrieval.candidates.length} candidate(s) (${agree}).`;
  return {
    id: id ?? undefined,
    confidence: rule.id === (id ?? undefined) ? Math.max(rule.confidence, 0.9) : 0.7,
    reason,
    decided_by: 'model',
  };
}

function fallback(retrieval: Retrieval, why: string): Decision {
  const rule = ruleJudge(retrieval);
  return { ...rule, reason: `The rule decided (${why}): ${rule.reason}`, decided_by: 'rule' };
}

/** best_skill's result for a decision: its text and its structured content (`skillpress search --best --json` prints the latter). */
export async function bestSkillAnswer(
  c: FeedCatalog,
  query: string,
  retrieval: Retrieval,
  decision: Decision,
  search_time_ms: number,
) {
  const candidates = retrieval.candidates.map((k) => ({
    name: k.name,
    score: round(k.score),
    coverage: round(k.weightedCoverage),
    metadata_coverage: round(k.metadataCoverage),
    ...(k.meaning === undefined ? {} : { meaning: round(k.meaning) }),
  }));
  const runnerUp = decision.id ? retrieval.candidates.find((k) => k.id === decision.runnerUp) : undefined;
  const base = {
    query,
    decided_by: decision.decided_by,
    confidence: decision.confidence,
    reason: decision.reason,
    ...(runnerUp && { runner_up: runnerUp.name }),
    candidates,
    search_time_ms,
  };
  const card = decision.id ? c.card(decision.id) : undefined;
  if (card && keptForPeople(card)) {
    const reason = `"${card.name}" fits, but its author keeps it for people to start (disable-model-invocation), so it is not loaded for you: tell the user it exists; they can start it themselves, or ask you to use it (view_skill, name "${card.name}"). ${decision.reason}`;
    const text = `${reason} (Decided by the ${decision.decided_by}, confidence ${decision.confidence}.)`;
    return {
      content: [{ type: 'text' as const, text }],
      structuredContent: { ...base, reason, skill: null, kept_for_people: card.name },
    };
  }
  if (!card) {
    const text = `No skill fits "${query}" (decided by the ${decision.decided_by}, confidence ${decision.confidence}).${nearest(retrieval)}\n\n${decision.reason}`;
    return { content: [{ type: 'text' as const, text }], structuredContent: { ...base, skill: null } };
  }
  const head = `Best skill: ${card.name} (decided by the ${decision.decided_by}, confidence ${decision.confidence}). ${decision.reason}${closeBehind(runnerUp)}`;
  if (!inlined(card)) {
    const text = `${head}\n\nIts instructions are ${card.tokens.toLocaleString('en-US')} tokens, too long to include here: read them with view_skill (name "${card.name}") when you start the task.`;
    return { content: [{ type: 'text' as const, text }], structuredContent: { ...base, skill: cardView(card) } };
  }
  const skill = await c.skill(card);
  return {
    content: [{ type: 'text' as const, text: `${head}\n\n${skill.body}` }],
    structuredContent: { ...base, skill: { ...cardView(card), instructions: skill.body } },
  };
}

/** A close call's runner-up, with what it is for: the agent can read it instead if it fits better. */
function closeBehind(second: Retrieval['candidates'][number] | undefined): string {
  if (!second) return '';
  return `\n\nClose behind: ${second.name}: ${clip(oneLine(second.description))} If that is what the user asked for, read it with view_skill.`;
}

/**
 * SKILL.md up to this many tokens comes with the answer. The specification asks for under 5,000;
 * a few public skills hold 20,000–70,000 (one answer of 600 KB), which would fill an agent's
 * context before it has decided to use the skill.
 */
export const INLINE_TOKENS = 10_000;

const inlined = (card: CatalogCard): boolean => card.tokens <= INLINE_TOKENS;

/**
 * A chosen skill's confidence blends the match's evidence with its success rate in use, and says
 * so (`skillpress search --best` answers the same).
 */
export function withSuccessRate<D extends Judgement>(decision: D, card: CatalogCard | undefined): D {
  const rate = card?.success_rate;
  if (rate === undefined) return decision;
  const confidence = combinedConfidence(decision.confidence, rate);
  const reason = `${decision.reason} Confidence ${confidence} blends that evidence with "${card!.id}"'s success rate in use, ${Math.round(rate * 100)}%.`;
  return { ...decision, confidence, reason };
}

/** A skill its author keeps for people to start (`disable-model-invocation`): an agent does not pick it on its own. */
export const keptForPeople = (card: CatalogCard): boolean => card.invocation === 'user';

/** The closest candidates, for the agent to read one with view_skill if it is what the user asked for. */
function nearest(retrieval: Retrieval): string {
  const shown = retrieval.candidates.slice(0, NEAREST_SHOWN);
  if (shown.length === 0) return '';
  const lines = shown.map((c) => `- ${c.name}: ${clip(oneLine(c.description))}`);
  return `\n\nNearest skills; if one is what the user asked for, read it with view_skill:\n${lines.join('\n')}`;
}

function clip(text: string): string {
  return text.length <= NEAREST_DESCRIPTION ? text : `${text.slice(0, NEAREST_DESCRIPTION - 1).trimEnd()}…`;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
