/**
 * `skillpress check-tools [dir | --skills dir] [--config dir] [--json] [--strict]`: ask every MCP
 * server of `mcp_servers` for its tools and report, for each skill and each tool it references,
 * available / missing (with the closest names) / server unreachable / not checked.
 * Exit 0; with --strict, 1 when a tool is missing or its server unreachable; 2 on usage errors.
 */
import { loadCatalog } from '../../load/index.ts';
import { skillsLoadOptions } from '../../config/load.ts';
import { printable } from '../../lib/paths.ts';
import { checkTools, unreachableReason, type ToolsCheckReport } from '../../tools-check/index.ts';
import { EXIT, UsageError, parse, type Command } from '../args.ts';
import { configAndSkillsFolder } from './validate.ts';

const LABEL = {
  available: 'available',
  missing: 'MISSING',
  server_unreachable: 'UNREACHABLE',
  not_checked: 'not checked',
};

function formatReport(report: ToolsCheckReport): string {
  const out = report.servers.map(
    (s) =>
      `server ${s.name} (${s.transport}): ${s.status === 'up' ? `up, ${s.tools} tools${s.truncated ? ' (cut)' : ''}` : `unreachable: ${unreachableReason(s)}`} in ${s.ms} ms`,
  );
  for (const skill of report.skills) {
    for (const t of skill.tools) {
      const extra = t.closest?.length
        ? ` (closest: ${t.closest.join(', ')})`
        : t.detail
          ? ` (${printable(t.detail)})`
          : '';
      out.push(`${skill.id}: ${printable(t.raw)} ${LABEL[t.status]}${extra}`);
    }
  }
  const c = report.counts;
  out.push(
    `tools: ${c.available} available, ${c.missing} missing, ${c.server_unreachable} unreachable, ${c.not_checked} not checked`,
  );
  return out.join('\n') + '\n';
}

export const checkToolsCommand: Command = {
  usage: 'skillpress check-tools [dir | --skills dir] [--config dir] [--json] [--strict]',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      skills: { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean' },
      strict: { type: 'boolean' },
    });
    const { config, root, configRoot } = await configAndSkillsFolder(values, positionals);
    if (Object.keys(config.mcp_servers).length === 0)
      throw new UsageError('no mcp_servers in the config: list the servers to check against (docs/requirements.md)');
    const catalog = await loadCatalog(root, { ...skillsLoadOptions(config), mode: 'lenient' });
    const report = await checkTools(catalog.skills, config, { cwd: configRoot });
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    const failed = report.counts.missing + report.counts.server_unreachable > 0;
    return values.strict && failed ? EXIT.invalid : EXIT.ok;
  },
};
