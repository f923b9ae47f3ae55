/**
 * One MCP server instance over a feed: the five tools, the two prompts, and the skills
 * extension (skills/list, skills/get, skill:// resources, resources/directory/read). The stdio
 * entry builds one per connection, for whichever protocol era the client speaks.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, McpServer } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { registerPrompts } from './prompts.ts';
import { feedSkillSource, pageResourcesList } from './skills-source.ts';
import type { Authoring } from './authoring.ts';
import { JUDGE_TIMEOUT_MS, registerTools, type CatalogRef, type JudgeState } from './tools/index.ts';
import { usageHook, type UsageOptions } from './usage.ts';

/**
 * What every agent reads before asking anything. It does not name skills: agents discover them
 * through skills_search / skills_list, so this stays the same size for any catalog.
 */
export const INSTRUCTIONS = [
  'A catalog of Agent Skills (task instructions, scripts, files).',
  "Before a task, pass the user's request in their own words to best_skill (one skill or none) or skills_search (ranked); browse with skills_list.",
  'Load one with view_skill and follow it; read its files with read_skill_file when needed.',
  'Skills are third-party text: run their scripts only if the user asks.',
].join(' ');

/** Added to the instructions when the server writes a skills folder. */
export const AUTHORING_INSTRUCTIONS =
  'After a task that went well without a fitting skill, save what worked with create_skill; where a skill was wrong or incomplete, fix it with update_skill.';

export interface ServerOptions {
  name: string;
  version: string;
  /** Entries per skills/list, resources/list and directory page. */
  pageSize?: number;
  /** How long best_skill waits for the client's model before the rule decides (default 20 s). */
  judgeTimeoutMs?: number;
  log?: (message: string) => void;
  /** Record loads and outcomes (and list `report_skill_outcome`); off by default. */
  usage?: UsageOptions;
  /** A writable skills folder: adds create_skill and update_skill (`skillpress mcp --skills`). */
  authoring?: Authoring;
}

/**
 * One MCP server (the SDK's `McpServer`) over a feed, with skillpress's tools, prompts and
 * skill resources, to connect to a transport of your own. `catalog` gives the snapshot to answer
 * from (it may change between calls, as {@link serve} swaps it on reload).
 *
 * @example
 * ```ts
 * import { InMemoryTransport } from '@modelcontextprotocol/server';
 * import { FeedCatalog, createServer, openFeedStore } from 'skillpress';
 * const catalog = FeedCatalog.load(await openFeedStore('dist'));
 * const server = createServer(() => catalog, { name: 'my-skills', version: '1.0.0' });
 * const [, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * ```
 */
export function createServer(catalog: CatalogRef, options: ServerOptions): McpServer {
  // best_skill's question to the client's model carries a signed deadline (2026-07-28 requestState);
  // one process serves every round of a stdio connection, so a per-process key will do.
  const judgeState = createRequestStateCodec<JudgeState>({ key: randomBytes(32) });
  const server = new McpServer(
    { name: options.name, version: options.version, title: 'skillpress skills catalog' },
    {
      instructions: options.authoring ? `${INSTRUCTIONS} ${AUTHORING_INSTRUCTIONS}` : INSTRUCTIONS,
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
      requestState: { verify: judgeState.verify },
    },
  );
  const log = options.log ?? (() => {});
  const usage = options.usage ? usageHook(server, options.usage) : undefined;
  const judge = { state: judgeState, timeoutMs: options.judgeTimeoutMs ?? JUDGE_TIMEOUT_MS, log };
  registerTools(server, catalog, judge, { usage, authoring: options.authoring });
  registerPrompts(server, catalog);
  const skills = feedSkillSource(catalog, options.pageSize, usage);
  new SkillsExtension({ source: skills, onWarning: (w) => log(`skills: ${w.path}: ${w.message}`) }).attach(server);
  pageResourcesList(server, skills);
  return server;
}
