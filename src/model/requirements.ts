/**
 * What a skill needs to run: the tools it references (`allowed-tools`), the MCP servers it
 * requires (`requires.mcp`), machine-readable requirements and the agents it targets. Published
 * in the skill JSON as `summary.needs` (versioned on its own: `version`), in `agent_skills` and on
 * the site. docs/requirements.md describes the formats read.
 */
import { z } from 'zod';

export const NEEDS_VERSION = '1';

export const ToolReference = z
  .object({
    tool: z
      .string()
      .describe('Tool name: `Read`, `Bash`, or an MCP tool such as `create_issue`; `*` for every tool of `server`.'),
    server: z
      .string()
      .optional()
      .describe('MCP server the tool belongs to (from `mcp__<server>__<tool>`); absent for an agent built-in tool.'),
    capabilities: z
      .array(z.string())
      .describe('Capability filters written in parentheses, e.g. `git:*` in `Bash(git:*)`.'),
    raw: z.string().describe('The entry as written in `allowed-tools`.'),
  })
  .meta({ id: 'ToolReference', description: 'One entry of `allowed-tools`, parsed.' });
export type ToolReference = z.infer<typeof ToolReference>;

export const RequirementType = z.enum(['product', 'tool', 'api', 'environment']);
export type RequirementType = z.infer<typeof RequirementType>;

export const CompatibilityRequirement = z
  .object({
    type: RequirementType,
    target: z.string().min(1).describe('What is needed: `python`, `git`, `github`, `mcp:rube`…'),
    min_version: z.string().optional(),
    max_version: z.string().optional(),
    required: z.boolean().describe('False: an optional enhancement.'),
  })
  .meta({ id: 'CompatibilityRequirement', description: 'A machine-readable requirement of a skill.' });
export type CompatibilityRequirement = z.infer<typeof CompatibilityRequirement>;

export const ToolStatusValue = z.enum(['available', 'missing', 'server_unreachable', 'not_checked']);
export type ToolStatusValue = z.infer<typeof ToolStatusValue>;

export const ToolStatus = z
  .object({
    raw: z.string().describe('The tool reference as written (or `mcp:<server>` for a required server).'),
    server: z.string().optional(),
    tool: z.string(),
    status: ToolStatusValue,
    closest: z.array(z.string()).optional().describe('missing: the closest tool names the server lists.'),
    detail: z.string().optional().describe('Why: a built-in tool, a server not configured, the connection error.'),
  })
  .meta({ id: 'ToolStatus', description: 'Whether one referenced tool was found on its MCP server.' });
export type ToolStatus = z.infer<typeof ToolStatus>;

/** What a tool's status means to a reader: `not_checked` is either a server the config does not list, or an agent's own tool. */
export type ToolKind = 'available' | 'missing' | 'unreachable' | 'not configured' | 'built-in';

export function toolKind(t: ToolStatus): ToolKind {
  if (t.status === 'not_checked') return t.server ? 'not configured' : 'built-in';
  return t.status === 'server_unreachable' ? 'unreachable' : t.status;
}

export const ToolsStatus = z
  .object({
    checked_at: z.string().describe('When the servers were asked (ISO 8601).'),
    tools: z.array(ToolStatus),
  })
  .meta({
    id: 'ToolsStatus',
    description: "The result of checking a skill's tools against the configured MCP servers.",
  });
export type ToolsStatus = z.infer<typeof ToolsStatus>;

export const SkillNeeds = z
  .object({
    version: z.literal(NEEDS_VERSION),
    tools: z.array(ToolReference).describe('`allowed-tools`, parsed.'),
    mcp_servers: z
      .array(z.string())
      .describe('MCP servers the skill requires (`requires.mcp`, and servers of its tools).'),
    requirements: z
      .array(CompatibilityRequirement)
      .describe('`metadata.requirements` (or a top-level `requirements` list).'),
    target_agents: z.array(z.string()).describe('`metadata.target_agents` (or a top-level `target_agents` list).'),
    tools_status: ToolsStatus.optional().describe('Present when the build checked the tools against MCP servers.'),
  })
  .meta({ id: 'SkillNeeds', description: 'What a skill needs to run, before you install it.' });
export type SkillNeeds = z.infer<typeof SkillNeeds>;
