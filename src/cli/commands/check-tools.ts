/**
 * `skillpress check-tools [dir | --skills dir] [--config dir] [--json] [--all] [--strict]`: ask every
 * MCP server of `mcp_servers` for its tools and report, for each skill and each tool it references,
 * missing (with the closest names) / unreachable / not configured / available, then one line for
 * the agent's built-in tools, which are never checked (`--all` lists each use). Without
 * `mcp_servers`, the same report, and a last line saying whether that left anything unchecked.
 * Exit 0; with --strict, 1 when a tool is missing or its server unreachable; 2 on usage errors.
 */
import { loadCatalog } from '../../load/index.ts';
import { skillsLoadOptions } from '../../config/load.ts';
import { printable } from '../../lib/paths.ts';
import { checkTools, unreachableReason, type ToolsCheckReport } from '../../tools-check/index.ts';
import { toolKind, type ToolKind, type ToolStatus } from '../../model/requirements.ts';
import { EXIT, parse, type Command } from '../args.ts';
import { configAndSkillsFolder } from './validate.ts';

/** What a line says, in the order the lines come: what needs attention first. */
const KINDS = ['missing', 'unreachable', 'not configured', 'available', 'built-in'] as const satisfies ToolKind[];
const LABEL: Record<ToolKind, string> = {
  missing: 'MISSING',
  unreachable: 'UNREACHABLE',
  'not configured': 'not configured',
  available: 'available',
  'built-in': 'not checked',
};

type Use = { skill: string; tool: ToolStatus; kind: ToolKind };

function toolLine({ skill, tool: t, kind }: Use): string {
  const extra = t.closest?.length ? ` (closest: ${t.closest.join(', ')})` : t.detail ? ` (${printable(t.detail)})` : '';
  return `${skill}: ${printable(t.raw)} ${LABEL[kind]}${extra}`;
}

/** One line for every use of an agent's built-in tools: they are never checked, and a catalog has hundreds. */
function builtInSummary(uses: readonly Use[]): string {
  const byName = new Map<string, number>();
  for (const u of uses) byName.set(u.tool.tool, (byName.get(u.tool.tool) ?? 0) + 1);
  const names = [...byName].sort((a, b) => b[1] - a[1]).map(([name]) => printable(name));
  const shown = names.length > 5 ? [...names.slice(0, 5), '…'] : names;
  const skills = new Set(uses.map((u) => u.skill)).size;
  return `not checked: ${uses.length} use${uses.length === 1 ? '' : 's'} of an agent's built-in tools (${shown.join(', ')}) in ${skills} skill${skills === 1 ? '' : 's'}; --all lists them`;
}

/**
 * The servers, then what needs attention (missing, unreachable, not configured), then the rest;
 * `all`: every built-in use too. With no server configured, a last line says whether that left
 * anything unchecked.
 */
function formatReport(report: ToolsCheckReport, all: boolean, servers: number): string {
  const out = report.servers.map(
    (s) =>
      `server ${s.name} (${s.transport}): ${s.status === 'up' ? `up, ${s.tools} tools${s.truncated ? ' (cut)' : ''}` : `unreachable: ${unreachableReason(s)}`} in ${s.ms} ms`,
  );
  const uses = report.skills.flatMap((s) => s.tools.map((tool): Use => ({ skill: s.id, tool, kind: toolKind(tool) })));
  const of = (kind: ToolKind) => uses.filter((u) => u.kind === kind);
  for (const kind of KINDS.slice(0, -1)) out.push(...of(kind).map(toolLine));
  const builtIn = of('built-in');
  if (builtIn.length) out.push(...(all ? builtIn.map(toolLine) : [builtInSummary(builtIn)]));
  const n = Object.fromEntries(KINDS.map((k) => [k, of(k).length])) as Record<ToolKind, number>;
  out.push(
    `tools: ${n.available} available, ${n.missing} missing, ${n.unreachable} unreachable, ${n['not configured']} not configured, ${n['built-in']} built-in (not checked)`,
  );
  if (servers === 0)
    out.push(
      n['not configured'] > 0
        ? 'no mcp_servers in the config: list the servers these tools come from to check them (docs/requirements.md)'
        : "no mcp_servers in the config, and no skill names an MCP server's tool: nothing to check",
    );
  return out.join('\n') + '\n';
}

export const checkToolsCommand: Command = {
  usage: 'skillpress check-tools [dir | --skills dir] [--config dir] [--json] [--all] [--strict]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      strict: { type: 'boolean' },
    });
    const { config, root, configRoot } = await configAndSkillsFolder(values, positionals);
    const catalog = await loadCatalog(root, { ...skillsLoadOptions(config), mode: 'lenient' });
    const report = await checkTools(catalog.skills, config, { cwd: configRoot });
    process.stdout.write(
      values.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatReport(report, values.all === true, Object.keys(config.mcp_servers).length),
    );
    const failed = report.counts.missing + report.counts.server_unreachable > 0;
    return values.strict && failed ? EXIT.invalid : EXIT.ok;
  },
};
