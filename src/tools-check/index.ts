/**
 * Check every skill's tools against the MCP servers the config lists (`mcp_servers`): each
 * server is asked once (all at the same time, each within its deadline), then every tool a skill
 * references gets a status: available, missing (with the closest names), server unreachable, or
 * not checked (an agent's built-in tool, or a server the config does not list).
 */
import { readSkillNeeds } from '../load/requirements.ts';
import type { SkillpressConfig } from '../model/config.ts';
import type { ToolStatus, ToolsStatus } from '../model/requirements.ts';
import type { Skill } from '../model/skill.ts';
import { listServerTools, type ServerTools } from './connect.ts';
import { printable } from '../lib/paths.ts';
import { editDistance, nearNames } from '../lib/near-names.ts';

export { listServerTools, type ServerTools } from './connect.ts';

/** Why a server is unreachable, for a terminal: the error, and what the server said on stderr. */
export const unreachableReason = (s: ServerReport): string =>
  printable(`${s.error ?? ''}${s.stderr ? `; it said: ${s.stderr}` : ''}`);

export interface ServerReport {
  name: string;
  transport: 'stdio' | 'http';
  status: 'up' | 'unreachable';
  tools?: number;
  truncated?: boolean;
  error?: string;
  /** The line of its stderr where a stdio server said why (its own reason): printed, never published. */
  stderr?: string;
  ms: number;
}

export interface ToolsCheckReport {
  checked_at: string;
  servers: ServerReport[];
  skills: Array<{ id: string; tools: ToolStatus[] }>;
  counts: Record<ToolStatus['status'], number>;
}

/**
 * The three names of `names` closest to `name`: one differing only in case, then the names near
 * in spelling or sharing its words (`read_file` → `read_skill_file`, the shared "did you mean"
 * measure), then the rest by edit distance, so three are given whenever the server lists three.
 */
export function closestNames(name: string, names: readonly string[]): string[] {
  // Names come from skills and servers: long ones are cut before the quadratic measures.
  const wanted = name.slice(0, 200).toLowerCase();
  const cut = new Map(names.map((n) => [n.slice(0, 200), n]));
  const sameButCase = [...cut.keys()].filter((n) => n.toLowerCase() === wanted);
  const near = nearNames(wanted, cut.keys());
  const rest = [...cut.keys()]
    .map((candidate) => ({ candidate, d: editDistance(wanted, candidate.toLowerCase()) }))
    .sort((x, y) => x.d - y.d || (x.candidate < y.candidate ? -1 : 1))
    .map((x) => x.candidate);
  return [...new Set([...sameButCase, ...near, ...rest])].slice(0, 3).map((n) => cut.get(n)!);
}

function statusOf(
  ref: { raw: string; tool: string; server?: string },
  servers: ReadonlyMap<string, ServerTools>,
): ToolStatus {
  const base = { raw: ref.raw, tool: ref.tool, ...(ref.server ? { server: ref.server } : {}) };
  if (!ref.server) return { ...base, status: 'not_checked', detail: "an agent's built-in tool" };
  const server = servers.get(ref.server);
  if (!server) return { ...base, status: 'not_checked', detail: `no server "${ref.server}" in mcp_servers` };
  if (!server.ok) return { ...base, status: 'server_unreachable', detail: server.error };
  if (ref.tool === '*' || server.tools.includes(ref.tool)) return { ...base, status: 'available' };
  return { ...base, status: 'missing', closest: closestNames(ref.tool, server.tools) };
}

/** One skill's statuses: each tool reference, then each required server (`mcp:<name>`) no tool names. */
export function skillToolStatuses(skill: Skill, servers: ReadonlyMap<string, ServerTools>): ToolStatus[] {
  const { needs } = readSkillNeeds(skill.frontmatter);
  const out = needs.tools.map((t) => statusOf(t, servers));
  const named = new Set(needs.tools.flatMap((t) => (t.server ? [t.server] : [])));
  for (const server of needs.mcp_servers)
    if (!named.has(server)) out.push(statusOf({ raw: `mcp:${server}`, tool: '*', server }, servers));
  return out;
}

/** What the configured servers listed: each one's tools (or why not), and the report of each. */
export interface ServerListing {
  results: Map<string, ServerTools>;
  reports: ServerReport[];
}

/** Ask every configured server for its tools, in parallel, each within its deadline. */
export async function askServers(
  config: Pick<SkillpressConfig, 'mcp_servers' | 'tools_check'>,
  cwd: string | undefined,
): Promise<ServerListing> {
  const entries = Object.entries(config.mcp_servers);
  const listed = await Promise.all(
    entries.map(([, spec]) =>
      listServerTools(spec, {
        timeoutMs: spec.timeout_ms ?? config.tools_check.timeout_ms,
        maxTools: config.tools_check.max_tools,
        cwd,
      }),
    ),
  );
  const results = new Map(entries.map(([name], i) => [name, listed[i]!]));
  const reports = entries.map(([name, spec], i): ServerReport => {
    const r = listed[i]!;
    const transport = 'url' in spec ? 'http' : 'stdio';
    return r.ok
      ? { name, transport, status: 'up', tools: r.tools.length, ...(r.truncated ? { truncated: true } : {}), ms: r.ms }
      : { name, transport, status: 'unreachable', error: r.error, ...(r.stderr ? { stderr: r.stderr } : {}), ms: r.ms };
  });
  return { results, reports };
}

/**
 * Check the skills' tools against `config.mcp_servers`. Servers no skill needs are still asked
 * (a typo in a skill then shows as "not checked" beside a server that is up). Never throws for a
 * server's failure: it is reported, and its tools are `server_unreachable`. Stdio servers start in
 * `opts.cwd` (the commands pass the config's folder, so relative paths in `mcp_servers` mean the
 * same wherever skillpress runs), else the working directory.
 *
 * @example
 * ```ts
 * import { checkTools, loadCatalog, loadConfig } from 'skillpress';
 * const config = await loadConfig('config');
 * const { skills } = await loadCatalog('skills');
 * const report = await checkTools(skills, config);
 * console.log(report.counts); // { available: 12, missing: 1, server_unreachable: 0, not_checked: 30 }
 * ```
 */
export async function checkTools(
  skills: readonly Skill[],
  config: Pick<SkillpressConfig, 'mcp_servers' | 'tools_check'>,
  opts: { now?: Date; cwd?: string } = {},
): Promise<ToolsCheckReport> {
  return checkToolsAgainst(skills, await askServers(config, opts.cwd), opts.now);
}

/** The skills' tools checked against what the servers listed (asked once, checked as often as the skills change). */
export function checkToolsAgainst(
  skills: readonly Skill[],
  { results, reports }: ServerListing,
  now?: Date,
): ToolsCheckReport {
  const checked_at = (now ?? new Date()).toISOString();
  const counts = { available: 0, missing: 0, server_unreachable: 0, not_checked: 0 };
  const out = skills.map((skill) => {
    const tools = skillToolStatuses(skill, results);
    for (const t of tools) counts[t.status]++;
    return { id: skill.id, tools };
  });
  return { checked_at, servers: reports, skills: out, counts };
}

/** The skills with `tools_status` set from a report (skills without tools are left as they are). */
export function withToolsStatus(skills: readonly Skill[], report: ToolsCheckReport): Skill[] {
  const byId = new Map(report.skills.map((s) => [s.id, s.tools]));
  return skills.map((skill) => {
    const tools = byId.get(skill.id);
    if (!tools?.length) return skill;
    const status: ToolsStatus = { checked_at: report.checked_at, tools };
    return { ...skill, tools_status: status };
  });
}
