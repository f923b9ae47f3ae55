/**
 * view_skill's level-2 context (seed 002's template) for skills with and without files: the
 * resources block lists each file the agent can read, and a skill that is its SKILL.md alone gets
 * no empty block and is told there is nothing more to read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { buildFeed, connectInProcess, tempDir, writeSkills, type Connected } from './helpers.ts';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: Connected;

beforeAll(async () => {
  tmp = await tempDir();
  const skills = path.join(tmp.dir, 'skills');
  await writeSkills(skills, {
    'commit-message': {
      'SKILL.md':
        '---\nname: commit-message\ndescription: Writes a commit message from the staged diff.\n---\nRead the staged diff and write a one-line summary, then the why.\n',
    },
    'issue-triage': {
      'SKILL.md':
        '---\nname: issue-triage\ndescription: Triages new GitHub issues.\nallowed-tools: mcp__github__list_issues Read\nrequires:\n  mcp: [rube]\nmetadata:\n  requirements: "environment:python>=3.11, api:github?"\n  target_agents: "claude-code"\n---\nLabel each new issue.\n',
    },
    'csv-clean': {
      'SKILL.md':
        '---\nname: csv-clean\ndescription: Cleans CSV files with the bundled script.\n---\nRun scripts/clean.py on the file.\n',
      'scripts/clean.py': 'print("clean")\n',
    },
  });
  server = await connectInProcess(await buildFeed(skills, path.join(tmp.dir, 'dist')), 'modern');
});

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

const level2 = async (name: string): Promise<string> => {
  const r = await server.client.callTool({ name: 'view_skill', arguments: { name } });
  expect(r.isError).toBeFalsy();
  return (r.content[0] as { text: string }).text;
};

describe('view_skill: the level-2 context', () => {
  it("lists a skill's files as resources, with how to read them", async () => {
    const text = await level2('csv-clean');
    expect(text).toContain('<mcp_resources>');
    expect(text).toContain('<uri>skill://csv-clean/scripts/clean.py</uri>');
    expect(text).toContain('Use the tools and resources above');
    expect(text).toContain('Read a file with read_skill_file');
  });

  it('gives a skill that is its SKILL.md alone no empty resources block, and says there is nothing more to read', async () => {
    const text = await level2('commit-message');
    expect(text).toContain('<mcp_tools>');
    expect(text).not.toContain('<mcp_resources>');
    expect(text).toContain('Use the tools above');
    expect(text).toContain('It has no files besides its SKILL.md: there is nothing more to read.');
    expect(text).not.toContain('read_skill_file (or resources/read');
  });

  it('says what a skill declares it needs, in the text and the structured summary; nothing for a skill that needs nothing', async () => {
    const needs =
      'Needs: MCP servers rube, github; environment:python>=3.11; api:github? (? optional). Written for: claude-code.';
    expect(await level2('issue-triage')).toContain(needs);
    const summary = await server.client.callTool({
      name: 'view_skill',
      arguments: { name: 'issue-triage', detail: 'summary' },
    });
    expect((summary.content[0] as { text: string }).text).toContain(needs);
    expect((summary.structuredContent as { summary: { needs: unknown } }).summary.needs).toBe(needs);
    expect(await level2('commit-message')).not.toContain('Needs:');
    const plain = await server.client.callTool({
      name: 'view_skill',
      arguments: { name: 'commit-message', detail: 'summary' },
    });
    expect((plain.structuredContent as { summary: object }).summary).not.toHaveProperty('needs');
  });
});
