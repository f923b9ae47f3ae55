/** What a skill needs, read from its front matter: allowed-tools, requires, requirements, target agents. */
import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown, validateFrontMatter } from '../../src/load/index.ts';
import { parseRequirement, parseToolReference, readSkillNeeds } from '../../src/load/requirements.ts';

describe('allowed-tools', () => {
  it('reads built-in tools, capabilities and mcp__server__tool references', () => {
    const { needs, problems } = readSkillNeeds({
      'allowed-tools': 'Bash(git add:*) Read mcp__github__create_issue mcp__rube Bash(npm:*, pnpm:*)',
    });
    expect(problems).toEqual([]);
    expect(needs.tools).toEqual([
      { tool: 'Bash', capabilities: ['git add:*'], raw: 'Bash(git add:*)' },
      { tool: 'Read', capabilities: [], raw: 'Read' },
      { tool: 'create_issue', server: 'github', capabilities: [], raw: 'mcp__github__create_issue' },
      { tool: '*', server: 'rube', capabilities: [], raw: 'mcp__rube' },
      { tool: 'Bash', capabilities: ['npm:*', 'pnpm:*'], raw: 'Bash(npm:*, pnpm:*)' },
    ]);
    expect(needs.mcp_servers).toEqual(['github', 'rube']);
  });

  it('also splits on commas outside parentheses, as many catalogs write the list', () => {
    const { needs, problems } = readSkillNeeds({ 'allowed-tools': 'Bash, Write,Read Bash(a:*, b:*)' });
    expect(problems).toEqual([]);
    expect(needs.tools.map((t) => t.raw)).toEqual(['Bash', 'Write', 'Read', 'Bash(a:*, b:*)']);
  });

  it('keeps server names with single underscores and tool names with double ones', () => {
    expect(parseToolReference('mcp__my_server__list__all')).toMatchObject({ server: 'my_server', tool: 'list__all' });
  });

  it('warns (with the line) on an unclosed parenthesis or a non-name, and keeps the rest', () => {
    const parsed = parseSkillMarkdown('---\nname: s\ndescription: d\nallowed-tools: Bash(git:* Read "x" Write\n---\n');
    if (!parsed.ok) throw new Error(parsed.message);
    const fm = validateFrontMatter(parsed.data, { mode: 'lenient', folderName: 's' });
    expect(fm.problems.map((p) => [p.rule, p.field])).toEqual([
      ['allowed-tools-syntax', 'allowed-tools'],
      ['allowed-tools-syntax', 'allowed-tools'],
    ]);
    expect(parsed.fieldLines['allowed-tools']).toBe(4);
    expect(readSkillNeeds(parsed.data).needs.tools.map((t) => t.raw)).toEqual(['Read', 'Write']);
  });

  it('an mcp__ entry that names no server or no tool is a warning, not a built-in tool of that name', () => {
    const { needs, problems } = readSkillNeeds({ 'allowed-tools': 'mcp__github__ mcp__ mcp____x Read mcp__serena' });
    expect(needs.tools.map((t) => t.raw)).toEqual(['Read', 'mcp__serena']);
    expect(needs.mcp_servers).toEqual(['serena']);
    expect(problems.map((p) => [p.rule, p.message])).toEqual([
      [
        'allowed-tools-syntax',
        '"mcp__github__" is not an MCP tool reference: write mcp__<server>__<tool>, or mcp__<server> for every tool of the server',
      ],
      [
        'allowed-tools-syntax',
        '"mcp__" is not an MCP tool reference: write mcp__<server>__<tool>, or mcp__<server> for every tool of the server',
      ],
      [
        'allowed-tools-syntax',
        '"mcp____x" is not an MCP tool reference: write mcp__<server>__<tool>, or mcp__<server> for every tool of the server',
      ],
    ]);
  });
});

describe('requires', () => {
  it("reads ComposioHQ's requires.mcp, as a flow list or a block list, without an unknown-field warning", () => {
    for (const yaml of ['requires:\n  mcp: [rube]', 'requires:\n  mcp:\n    - rube']) {
      const parsed = parseSkillMarkdown(`---\nname: s\ndescription: d\n${yaml}\n---\n`);
      if (!parsed.ok) throw new Error(parsed.message);
      expect(validateFrontMatter(parsed.data, { mode: 'lenient', folderName: 's' }).problems).toEqual([]);
      expect(readSkillNeeds(parsed.data).needs.mcp_servers).toEqual(['rube']);
    }
  });

  it('warns on a malformed requires and never throws', () => {
    for (const requires of ['rube', 42, [1], { mcp: { a: 1 } }, { bins: ['git'] }, null]) {
      const { needs, problems } = readSkillNeeds({ requires });
      expect(needs.mcp_servers).toEqual([]);
      if (requires !== null) expect(problems.map((p) => p.rule)).toEqual(['requires-format']);
    }
  });

  it('is still an unknown field in strict mode (the specification does not define it)', () => {
    const fm = validateFrontMatter(
      { name: 's', description: 'd', requires: { mcp: ['rube'] } },
      { mode: 'strict', folderName: 's' },
    );
    expect(fm.problems.map((p) => `${p.severity}:${p.rule}`)).toEqual(['error:unknown-field']);
  });
});

describe('requirements and target agents', () => {
  it('parses the metadata string format', () => {
    expect(parseRequirement('environment:python>=3.11<4')).toEqual({
      type: 'environment',
      target: 'python',
      min_version: '3.11',
      max_version: '4',
      required: true,
    });
    expect(parseRequirement('api:github?')).toEqual({ type: 'api', target: 'github', required: false });
    expect(parseRequirement('gadget:x')).toBeUndefined();
  });

  it('reads metadata.requirements, a top-level list of objects and target agents; warns on the rest', () => {
    const { needs, problems } = readSkillNeeds({
      metadata: { requirements: 'product:claude-code>=1.0, tool:git; nonsense', target_agents: 'claude-code, codex' },
      requirements: [{ type: 'api', target: 'stripe', required: false }],
      target_agents: ['cursor', 'codex'],
    });
    expect(needs.requirements).toEqual([
      { type: 'product', target: 'claude-code', min_version: '1.0', required: true },
      { type: 'tool', target: 'git', required: true },
      { type: 'api', target: 'stripe', required: false },
    ]);
    expect(needs.target_agents).toEqual(['claude-code', 'codex', 'cursor']);
    expect(problems.map((p) => [p.rule, p.field])).toEqual([['requirements-format', 'metadata.requirements']]);
  });

  it('keeps a requirement whose bound is not a version, without the bound, and warns', () => {
    const { needs, problems } = readSkillNeeds({
      metadata: { requirements: 'tool:git>=abc, environment:python>=v3.11<=4.0.0-rc1' },
    });
    expect(needs.requirements).toEqual([
      { type: 'tool', target: 'git', required: true },
      { type: 'environment', target: 'python', min_version: 'v3.11', max_version: '4.0.0-rc1', required: true },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'requirements-format', field: 'metadata.requirements' });
    expect(problems[0]!.message).toMatch(/tool:git: "abc" is not a version \(min_version\), so it was left out/);
  });
});
