/**
 * The MCP server's tools, prompts, resources and skills extension, driven by the real SDK client
 * over the SDK's in-memory transport, once per protocol era (2025-11-25 `initialize`,
 * 2026-07-28 `server/discover`). The feed is built from fixture skills by the real pipeline.
 * server.stdio.test.ts covers the spawned process: stdio, reloading a rebuilt feed, routing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import { INLINE_TOKENS } from '../../src/mcp/tools/best-skill.ts';
import { RULE } from '../../src/route/index.ts';
import { TEXT_PART_CHARS } from '../../src/mcp/tools/read-skill-file.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import {
  connectInProcess,
  ERAS,
  FIXTURE,
  fixtureFeed,
  PNG,
  withServedSkills,
  type Connected,
  type FixtureFeed,
} from './helpers.ts';

const SkillEntry = z.looseObject({
  uri: z.string(),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const ListSkills = z.looseObject({ skills: z.array(SkillEntry), nextCursor: z.string().optional() });
const ListResources = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string() })),
  nextCursor: z.string().optional(),
});
/** FIXTURE's SKILL.md URIs in the order skills/list and resources/list page them. */
const SKILL_MDS = Object.keys(FIXTURE)
  .sort()
  .map((name) => `skill://${name}/SKILL.md`);
const GetSkill = z.looseObject({ skill: SkillEntry });
const Directory = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional() })),
  nextCursor: z.string().optional(),
});

const sha = (data: string | Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const structured = <T = Record<string, any>>(r: CallToolResult) => r.structuredContent as T;

describe.each(ERAS)('the MCP server in process (%s era)', (era) => {
  let tmp: FixtureFeed;
  let server: Connected;

  beforeAll(async () => {
    tmp = await fixtureFeed();
    server = await connectInProcess(tmp.dist, era, { pageSize: 2 });
  });

  afterAll(async () => {
    await server?.close();
    await tmp?.remove();
  });

  test('tools/list: five read-only tools with input and output schemas, naming no skill', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'best_skill',
      'read_skill_file',
      'skills_list',
      'skills_search',
      'view_skill',
    ]);
    for (const tool of tools) {
      expect(tool.name).not.toContain('.');
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // 2020-12 is MCP's default dialect: naming it in every schema would only spend the budget below.
      expect(tool.inputSchema).not.toHaveProperty('$schema');
      expect(tool.outputSchema).not.toHaveProperty('$schema');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    // Counted as bench:mcp counts it: the tools/list result as sent, and the instructions.
    const upFront = JSON.stringify({ tools }) + server.client.getInstructions();
    for (const name of Object.keys(FIXTURE)) expect(upFront).not.toContain(name);
    // What every agent pays before asking anything stays within 8 KB, whatever the catalog.
    expect(Buffer.byteLength(upFront)).toBeLessThanOrEqual(8192);
  });

  test('skills_list: cards sorted by name, substring query, tags, body, cursor paging', async () => {
    const all = await server.client.callTool({ name: 'skills_list', arguments: {} });
    expect(all.isError).toBeFalsy();
    expect(structured(all).total).toBe(3);
    expect(structured(all).skills.map((s: { name: string }) => s.name)).toEqual([
      'expense-policy',
      'pdf-processing',
      'trino-debug',
    ]);
    expect(structured(all).skills[1]).toMatchObject({
      uri: 'skill://pdf-processing/SKILL.md',
      tags: ['pdf', 'documents'],
      version: '1.2.0',
    });
    expect(text(all)).toContain('3 skill(s)');

    const byQuery = await server.client.callTool({ name: 'skills_list', arguments: { query: 'TRINO' } });
    expect(structured(byQuery).skills.map((s: { name: string }) => s.name)).toEqual(['trino-debug']);
    const byTag = await server.client.callTool({
      name: 'skills_list',
      arguments: { tags: ['finance'], includeBody: true },
    });
    expect(structured(byTag).skills).toHaveLength(1);
    expect(structured(byTag).skills[0].body).toContain('allowance_table.json');

    const first = await server.client.callTool({ name: 'skills_list', arguments: { limit: 2 } });
    expect(structured(first).skills).toHaveLength(2);
    const rest = await server.client.callTool({
      name: 'skills_list',
      arguments: { limit: 2, cursor: structured(first).nextCursor },
    });
    expect(structured(rest).skills.map((s: { name: string }) => s.name)).toEqual(['trino-debug']);
    expect(structured(rest).nextCursor).toBeUndefined();

    const bad = await server.client.callTool({ name: 'skills_list', arguments: { cursor: 'nonsense' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid cursor/);
  });

  test('skills_search: skills matching every word first, then some; each says what it matched, where, and its coverage', async () => {
    const r = await server.client.callTool({ name: 'skills_search', arguments: { query: 'pdf tables' } });
    expect(r.isError).toBeFalsy();
    const out = structured(r);
    expect(out).toMatchObject({ query: 'pdf tables', limit: 10, words: ['pdf', 'tables'] });
    expect(out.results[0]).toMatchObject({
      name: 'pdf-processing',
      uri: 'skill://pdf-processing/SKILL.md',
      coverage: 1,
    });
    expect(out.results[0].matched).toEqual([
      { word: 'pdf', fields: expect.arrayContaining(['name', 'description']) },
      { word: 'tables', fields: expect.arrayContaining(['description']) },
    ]);
    expect(out.results[0].score).toBeGreaterThan(0);
    expect(out.results[0].excerpt).toContain('tables');

    // A word only in the SKILL.md body: the excerpt comes from the body.
    const body = structured(await server.client.callTool({ name: 'skills_search', arguments: { query: 'tesseract' } }));
    expect(body.results.map((h: { name: string }) => h.name)).toEqual(['pdf-processing']);
    expect(body.results[0].matched).toEqual([{ word: 'tesseract', fields: ['body'] }]);
    expect(body.results[0].excerpt).toContain('tesseract');
    expect(body.results[0].excerpt.length).toBeLessThanOrEqual(170);

    // A typo matches its neighbour, shown as the guess it is: `~tabels` in the line, exact false in the data.
    const typo = await server.client.callTool({ name: 'skills_search', arguments: { query: 'pdf tabels' } });
    expect(structured(typo).results[0].matched).toEqual([
      { word: 'pdf', fields: expect.arrayContaining(['name']) },
      { word: 'tabels', fields: expect.arrayContaining(['description']), exact: false },
    ]);
    expect((typo.content as Array<{ text: string }>)[0]!.text).toMatch(
      /- pdf-processing \(score [\d.]+, matched 100%: pdf \[[^\]]+\], ~tabels \[/,
    );

    // A file path.
    const byPath = structured(
      await server.client.callTool({ name: 'skills_search', arguments: { query: 'extract.py' } }),
    );
    expect(byPath.results[0].name).toBe('pdf-processing');

    // Words matching different skills: both are listed, each with half the query.
    const split = structured(
      await server.client.callTool({
        name: 'skills_search',
        arguments: { query: 'please help me with pdf and trino' },
      }),
    );
    expect(split.words).toEqual(['pdf', 'trino']);
    expect(split.results.map((h: { name: string }) => h.name).sort()).toEqual(['pdf-processing', 'trino-debug']);
    expect(split.results.map((h: { coverage: number }) => h.coverage)).toEqual([0.5, 0.5]);

    // Stemming: another form of a word in the skill.
    const forms = structured(
      await server.client.callTool({ name: 'skills_search', arguments: { query: 'optimizing queries' } }),
    );
    expect(forms.results[0]).toMatchObject({ name: 'trino-debug', coverage: 1 });

    // No skill shares a meaningful word: empty, and the text says what to try.
    const none = await server.client.callTool({ name: 'skills_search', arguments: { query: 'bake sourdough bread' } });
    expect(structured(none).total).toBe(0);
    expect(text(none)).toMatch(/No skill shares a meaningful word/);
  });

  test('view_skill: the level-2 context (instructions, scoped tools and resources, file manifest)', async () => {
    const r = await server.client.callTool({ name: 'view_skill', arguments: { name: 'trino-debug' } });
    expect(r.isError).toBeFalsy();
    const out = structured(r);
    expect(out.detail).toBe('full');
    expect(out.instructions).toContain('You are a Trino query optimization expert');
    expect(out.tools).toEqual([expect.objectContaining({ name: 'get_explain_plan' })]);
    expect(out.resources).toEqual([expect.objectContaining({ uri: 'resource://trino/optimization_rules.md' })]);
    expect(out.files.map((f: { path: string }) => f.path).sort()).toEqual(['SKILL.md', 'resources.json', 'tools.json']);
    expect(out.files.find((f: { path: string }) => f.path === 'tools.json')).toMatchObject({
      type: 'json',
      mimeType: 'application/json',
      uri: 'skill://trino-debug/tools.json',
    });
    expect(text(r)).toContain('<mcp_tools>');
    expect(text(r)).toContain('<name>get_explain_plan</name>');

    const card = structured(
      await server.client.callTool({ name: 'view_skill', arguments: { name: 'trino-debug', detail: 'card' } }),
    );
    expect(card.instructions).toBeUndefined();
    expect(card.skill.name).toBe('trino-debug');

    const summary = structured(
      await server.client.callTool({ name: 'view_skill', arguments: { name: 'pdf-processing', detail: 'summary' } }),
    );
    expect(summary.summary).toMatchObject({ license: 'Apache-2.0' });
    expect(summary.instructions).toBeUndefined();

    const missing = await server.client.callTool({ name: 'view_skill', arguments: { name: 'nope' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('Skill "nope" not found. Use skills_search to find the correct name.');

    // A name remembered by its words or with a typo gets the near names.
    const near = await server.client.callTool({ name: 'view_skill', arguments: { name: 'pdf-procesing' } });
    expect(near.isError).toBe(true);
    expect(text(near)).toBe(
      'Skill "pdf-procesing" not found. Did you mean "pdf-processing"? Use skills_search to find the correct name.',
    );
  });

  test('read_skill_file: text as text, binary as base64 byte-exact, nothing outside the skill', async () => {
    const script = await server.client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'pdf-processing', path: 'scripts/extract.py' },
    });
    expect(structured(script)).toMatchObject({
      encoding: 'utf-8',
      text: FIXTURE['pdf-processing']!['scripts/extract.py'],
      mimeType: 'text/x-python',
    });
    expect(text(script)).toBe(FIXTURE['pdf-processing']!['scripts/extract.py']);

    const png = await server.client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'pdf-processing', path: 'assets/logo.png' },
    });
    expect(structured(png)).toMatchObject({ encoding: 'base64', mimeType: 'image/png', size: PNG.length });
    expect(Buffer.from(structured(png).blob, 'base64').equals(PNG)).toBe(true);
    expect(png.content[0]).toMatchObject({
      type: 'resource',
      resource: { uri: 'skill://pdf-processing/assets/logo.png', mimeType: 'image/png' },
    });

    // SKILL.md may name its files as `{baseDir}/scripts/extract.py` (the client fills the folder in).
    for (const placeholder of ['{baseDir}/', '${CLAUDE_SKILL_DIR}/']) {
      const viaPlaceholder = await server.client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'pdf-processing', path: `${placeholder}scripts/extract.py` },
      });
      expect(structured(viaPlaceholder)).toMatchObject({ path: 'scripts/extract.py', encoding: 'utf-8' });
    }

    for (const bad of [
      '../trino-debug/SKILL.md',
      '/etc/passwd',
      'scripts/../../../index.json',
      'nothing.txt',
      '{baseDir}/../trino-debug/SKILL.md',
    ]) {
      const r = await server.client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'pdf-processing', path: bad },
      });
      expect(r.isError, bad).toBe(true);
      expect(text(r)).toMatch(/not found in skill "pdf-processing"\. Use view_skill to list its files\./);
    }
  });

  test('best_skill: one skill or none, who decided, the candidates and the reason', async () => {
    const r = structured(
      await server.client.callTool({ name: 'best_skill', arguments: { query: 'My Trino query is running slow' } }),
    );
    expect(r).toMatchObject({ decided_by: 'rule', skill: { name: 'trino-debug' } });
    expect(r.confidence).toBeGreaterThan(0.5);
    expect(r.skill.instructions).toContain('Trino query optimization expert');
    expect(r.candidates[0]).toMatchObject({
      name: 'trino-debug',
      coverage: expect.any(Number),
      metadata_coverage: expect.any(Number),
    });
    expect(r.reason).not.toMatch(/Rule:|σ/);
    expect(r.reason.length).toBeLessThan(300);

    const none = await server.client.callTool({ name: 'best_skill', arguments: { query: 'bake sourdough bread' } });
    expect(structured(none)).toMatchObject({ skill: null, decided_by: 'rule', candidates: [] });
    expect(text(none)).toMatch(/No skill fits/);
  });

  test('bad arguments name the constraint; an unknown tool is a protocol error', async () => {
    const tooMany = await server.client.callTool({ name: 'skills_search', arguments: { query: 'pdf', limit: 100 } });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany)).toMatch(/limit must be at most 25/);
    for (const name of ['best_skill', 'skills_search']) {
      const pasted = await server.client.callTool({
        name,
        arguments: { query: 'convert my report to pdf. '.repeat(24) },
      });
      expect(pasted.isError).toBe(true);
      expect(text(pasted)).toMatch(
        /query is at most 500 characters: pass the user's request in a sentence, or its key words/,
      );
    }
    const wrongType = await server.client.callTool({ name: 'view_skill', arguments: { name: 42 } });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toMatch(/name/);
    const extra = await server.client.callTool({ name: 'skills_search', arguments: { query: 'pdf', bogus: true } });
    expect(extra.isError).toBe(true);
    await expect(server.client.callTool({ name: 'skills.search', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  test('resources: skill:// template, SKILL.md text and a binary file byte-exact', async () => {
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('skill://{+path}');
    const { resources } = await server.client.listResources(); // the SDK client walks every page
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: 'skill://trino-debug/SKILL.md', name: 'trino-debug', mimeType: 'text/markdown' }),
    );
    expect(resources.map((r) => r.uri)).toEqual(SKILL_MDS);

    const md = await server.client.readResource({ uri: 'skill://pdf-processing/SKILL.md' });
    expect(md.contents[0]).toMatchObject({
      uri: 'skill://pdf-processing/SKILL.md',
      mimeType: 'text/markdown',
      text: FIXTURE['pdf-processing']!['SKILL.md'],
    });
    const png = await server.client.readResource({ uri: 'skill://pdf-processing/assets/logo.png' });
    const blob = (png.contents[0] as { blob: string; mimeType: string }).blob;
    expect(Buffer.from(blob, 'base64').equals(PNG)).toBe(true);
    expect(png.contents[0]!.mimeType).toBe('image/png');

    await expect(
      server.client.readResource({ uri: 'skill://pdf-processing/%2e%2e/trino-debug/SKILL.md' }),
    ).rejects.toThrow();
    await expect(server.client.readResource({ uri: 'skill://pdf-processing/missing.md' })).rejects.toThrow();
  });

  test('resources/list pages (page size 2) with the skills/list cursor; bad cursor is -32602', async () => {
    const first = await server.client.request({ method: 'resources/list', params: {} }, ListResources);
    expect(first.resources.map((r) => r.uri)).toEqual(SKILL_MDS.slice(0, 2));
    expect(first.nextCursor).toBeTruthy();
    const second = await server.client.listResources({ cursor: first.nextCursor });
    expect(second.resources.map((r) => r.uri)).toEqual(SKILL_MDS.slice(2));
    expect(second.nextCursor).toBeUndefined();
    // The same scheme as skills/list: its cursor goes on from the same skill.
    const skills = await server.client.request({ method: 'skills/list', params: {} }, ListSkills);
    const after = await server.client.listResources({ cursor: skills.nextCursor! });
    expect(after.resources.map((r) => r.uri)).toEqual(SKILL_MDS.slice(2));
    await expect(server.client.listResources({ cursor: '!!not-a-cursor!!' })).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof ProtocolError &&
        err.code === -32602 &&
        /nextCursor of the previous resources\/list/.test(err.message),
    );
  });

  test('resources/directory/read lists direct children, paged; folders are inode/directory', async () => {
    const root = await server.client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf-processing' } },
      Directory,
    );
    expect(root.resources).toHaveLength(2); // --page-size 2
    const more = await server.client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf-processing', cursor: root.nextCursor } },
      Directory,
    );
    expect(more.nextCursor).toBeUndefined();
    expect([...root.resources, ...more.resources].map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
    ]);
    const scripts = await server.client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://pdf-processing/scripts' } },
      Directory,
    );
    expect(scripts.resources.map((r) => r.uri)).toEqual(['skill://pdf-processing/scripts/extract.py']);
    // resources/read of a folder says where its files are listed, not "Resource not found".
    for (const uri of ['skill://pdf-processing/scripts', 'skill://pdf-processing'])
      await expect(server.client.readResource({ uri })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`${uri} is a folder: list its files with resources/directory/read`),
      });
    await expect(server.client.readResource({ uri: 'skill://pdf-processing/scrip' })).rejects.toThrow(
      /Resource not found/,
    );
  });

  test('skills/list pages (page size 2) with front matter as in SKILL.md and every file digest; bad cursor is -32602', async () => {
    const first = await server.client.request({ method: 'skills/list', params: {} }, ListSkills);
    expect(first.skills).toHaveLength(2);
    expect(first.nextCursor).toBeTruthy();
    const second = await server.client.request(
      { method: 'skills/list', params: { cursor: first.nextCursor } },
      ListSkills,
    );
    expect(second.nextCursor).toBeUndefined();
    const entries = [...first.skills, ...second.skills];
    expect(entries.map((e) => e.uri)).toEqual([
      'skill://expense-policy/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://trino-debug/SKILL.md',
    ]);

    const pdf = entries[1]!;
    expect(pdf.frontmatter).toEqual({
      name: 'pdf-processing',
      description: 'Extract text and tables from PDF files, fill PDF forms and merge documents.',
      license: 'Apache-2.0',
      metadata: { tags: 'pdf, documents', version: '1.2.0' },
    });
    const files = FIXTURE['pdf-processing']!;
    expect(pdf.resources).toEqual(
      Object.keys(files)
        .sort()
        .map((p) => ({
          uri: `skill://pdf-processing/${p}`,
          digest: sha(files[p]!),
          size: Buffer.byteLength(files[p]!),
        })),
    );

    await expect(
      server.client.request({ method: 'skills/list', params: { cursor: '!!not-a-cursor!!' } }, ListSkills),
    ).rejects.toSatisfy((err: unknown) => err instanceof ProtocolError && err.code === -32602);

    const got = await server.client.request(
      { method: 'skills/get', params: { uri: 'skill://trino-debug/SKILL.md' } },
      GetSkill,
    );
    expect(got.skill.frontmatter.name).toBe('trino-debug');
    await expect(
      server.client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, GetSkill),
    ).rejects.toMatchObject({ code: -32602 });
  });

  test('prompts: the bounded level-1 router and a level-2 prompt per skill', async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['skill_context', 'skills_router']);
    const router = await server.client.getPrompt({ name: 'skills_router', arguments: {} });
    const routerText = (router.messages[0]!.content as { text: string }).text;
    expect(routerText).toContain('<available_skills>');
    for (const name of Object.keys(FIXTURE)) expect(routerText).toContain(`<name>${name}</name>`);
    expect(routerText).toContain('view_skill');

    const l2 = await server.client.getPrompt({ name: 'skill_context', arguments: { name: 'trino-debug' } });
    expect((l2.messages[0]!.content as { text: string }).text).toContain('You are a Trino query optimization expert');
    await expect(server.client.getPrompt({ name: 'skill_context', arguments: { name: 'nope' } })).rejects.toThrow(
      /Skill "nope" not found/,
    );
  });
});

describe.each(ERAS)('a file listed but not published (%s era)', (era) => {
  test('resources/read of its URI says why it is not there, as read_skill_file does', async () => {
    const skillMd =
      '---\nname: big-model\ndescription: Uses a large weights file that is listed but not stored.\n---\n# Big\n';
    await withServedSkills(
      { 'big-model': { 'SKILL.md': skillMd, 'weights.bin': Buffer.alloc(2048, 7) } },
      async (server) => {
        const uri = 'skill://big-model/weights.bin';
        const view = structured(await server.client.callTool({ name: 'view_skill', arguments: { name: 'big-model' } }));
        expect(view.files).toContainEqual(expect.objectContaining({ path: 'weights.bin', uri }));
        await expect(server.client.readResource({ uri })).rejects.toThrow(
          /skill:\/\/big-model\/weights\.bin is listed but not published: file is 2 KiB, over the 1 KiB limit/,
        );
      },
      { era, config: SkillpressConfig.parse({ skills: { max_file_bytes: 1024 } }) },
    );
  });
});

describe('skills_list with includeBody on long skills', () => {
  test('a page ends before its bodies pass 64 KiB, and the cursor goes on from there', async () => {
    // Three skills of 30,000-byte bodies: all three would be 90,000 bytes in one answer.
    const long = (name: string) => ({
      'SKILL.md': `---\nname: ${name}\ndescription: A long playbook, ${name}.\n---\n# ${name}\n\n${'Step and check. '.repeat(1875)}\n`,
    });
    await withServedSkills(
      { 'long-a': long('long-a'), 'long-b': long('long-b'), 'long-c': long('long-c') },
      async (server) => {
        const first = await server.client.callTool({ name: 'skills_list', arguments: { includeBody: true } });
        const page = structured(first);
        expect(page.skills.map((s: { name: string }) => s.name)).toEqual(['long-a', 'long-b']);
        expect(page.total).toBe(3);
        expect(JSON.stringify(page).length).toBeLessThan(64 * 1024 + 4096);
        expect(text(first)).toContain('showing 2 (bodies fill a page at 64 KiB) (more with cursor');
        const rest = structured(
          await server.client.callTool({
            name: 'skills_list',
            arguments: { includeBody: true, cursor: page.nextCursor },
          }),
        );
        expect(rest.skills.map((s: { name: string }) => s.name)).toEqual(['long-c']);
        expect(rest.skills[0].body.length).toBeGreaterThan(30_000);
        expect(rest.nextCursor).toBeUndefined();
        // Without bodies, the page is the limit's.
        const cards = structured(await server.client.callTool({ name: 'skills_list', arguments: {} }));
        expect(cards.skills).toHaveLength(3);
      },
    );
  });
});

describe('best_skill on a skill too long to inline', () => {
  test('answers with the card and points to view_skill instead of inlining 20,000 tokens', async () => {
    const body = `# Invoice audit playbook\n\n${'Check each invoice line against its purchase order and its receipt. '.repeat(1500)}\n`;
    await withServedSkills(
      {
        'invoice-audit-playbook': {
          'SKILL.md': `---\nname: invoice-audit-playbook\ndescription: Audit supplier invoices against purchase orders and goods receipts.\n---\n${body}`,
        },
        'short-notes': { 'SKILL.md': '---\nname: short-notes\ndescription: Keep short meeting notes.\n---\n# Notes\n' },
      },
      async (server) => {
        const query = 'audit the supplier invoices against the purchase orders and goods receipts';
        const r = await server.client.callTool({ name: 'best_skill', arguments: { query, judge: 'rule' } });
        const answer = structured(r);
        expect(answer.skill).toMatchObject({ name: 'invoice-audit-playbook' });
        expect(answer.skill.tokens).toBeGreaterThan(INLINE_TOKENS);
        expect(answer.skill.instructions).toBeUndefined();
        expect(text(r)).toMatch(
          /too long to include here: read them with view_skill \(name "invoice-audit-playbook"\)/,
        );
        expect(JSON.stringify(r).length).toBeLessThan(8_000);
        // view_skill still gives it whole, when the agent asks.
        const full = structured(
          await server.client.callTool({ name: 'view_skill', arguments: { name: 'invoice-audit-playbook' } }),
        );
        expect(full.instructions.length).toBeGreaterThan(body.length - 100);
      },
    );
  });
});

describe('best_skill on a close call', () => {
  test('answers with the top skill at a lower confidence and names the runner-up for the agent to read', async () => {
    // Two teams' copies of one playbook: the rule cannot tell them apart, and says so.
    const playbook = (name: string) =>
      `---\nname: ${name}\ndescription: Audit supplier invoices against purchase orders and goods receipts.\n---\n# Invoice audit\n\nMatch each line.\n`;
    await withServedSkills(
      {
        'invoice-audit': { 'SKILL.md': playbook('invoice-audit') },
        'invoice-audit-emea': { 'SKILL.md': playbook('invoice-audit-emea') },
        'short-notes': { 'SKILL.md': '---\nname: short-notes\ndescription: Keep short meeting notes.\n---\n# Notes\n' },
      },
      async (server) => {
        const query = 'audit supplier invoices against purchase orders and goods receipts';
        const r = await server.client.callTool({ name: 'best_skill', arguments: { query, judge: 'rule' } });
        const answer = structured(r);
        const [chosen, other] = answer.candidates.map((c: { name: string }) => c.name);
        expect(answer.skill).toMatchObject({ name: chosen });
        expect(answer.runner_up).toBe(other);
        expect(answer.confidence).toBeLessThanOrEqual(RULE.closeConfidence);
        expect(answer.reason).toContain(`a close call, so "${other}" may be the one asked for`);
        expect(text(r)).toContain(
          `Close behind: ${other}: Audit supplier invoices against purchase orders and goods receipts. If that is what the user asked for, read it with view_skill.`,
        );
        // A clear answer names no runner-up.
        const notes = await server.client.callTool({
          name: 'best_skill',
          arguments: { query: 'keep short meeting notes', judge: 'rule' },
        });
        expect(structured(notes).skill).toMatchObject({ name: 'short-notes' });
        expect(structured(notes)).not.toHaveProperty('runner_up');
        expect(text(notes)).not.toContain('Close behind');
      },
    );
  });
});

describe('best_skill on a skill its author keeps for people to start', () => {
  test('names it without answering with it or loading it; view_skill and skills_search still give it', async () => {
    // mattpocock/skills: 24 of 41 skills set Claude Code's disable-model-invocation.
    const grill =
      '---\nname: grill-me\ndescription: Interview me relentlessly about every aspect of a plan until we reach a shared understanding.\ndisable-model-invocation: true\n---\n# Grill me\n\nAsk one question at a time.\n';
    await withServedSkills(
      {
        'grill-me': { 'SKILL.md': grill },
        'short-notes': { 'SKILL.md': '---\nname: short-notes\ndescription: Keep short meeting notes.\n---\n# Notes\n' },
      },
      async (server) => {
        const query = 'interview me relentlessly about every aspect of my plan';
        const r = await server.client.callTool({ name: 'best_skill', arguments: { query, judge: 'rule' } });
        const answer = structured(r);
        expect(answer.skill).toBeNull();
        expect(answer.kept_for_people).toBe('grill-me');
        expect(answer.reason).toMatch(/^"grill-me" fits, but its author keeps it for people to start/);
        expect(answer.candidates[0]).toMatchObject({ name: 'grill-me' });
        expect(text(r)).not.toContain('Ask one question at a time');
        const search = await server.client.callTool({ name: 'skills_search', arguments: { query } });
        expect(structured(search).results[0]).toMatchObject({ name: 'grill-me', invocation: 'user' });
        const notes = await server.client.callTool({
          name: 'skills_search',
          arguments: { query: 'short meeting notes' },
        });
        expect(structured(notes).results[0]).not.toHaveProperty('invocation');
        const notesBest = await server.client.callTool({
          name: 'best_skill',
          arguments: { query: 'keep short meeting notes', judge: 'rule' },
        });
        expect(structured(notesBest)).not.toHaveProperty('kept_for_people');
        expect(text(search)).toMatch(
          /- grill-me \(score [^)]*; its author keeps it for people to start: do not use it unasked\)/,
        );
        const full = structured(await server.client.callTool({ name: 'view_skill', arguments: { name: 'grill-me' } }));
        expect(full.instructions).toContain('Ask one question at a time');
      },
    );
  });
});

describe('read_skill_file on a long text file', () => {
  test('gives it in parts of 64 KiB characters that join into the file, never splitting a character', async () => {
    // 150,000 characters; an emoji (two UTF-16 units) straddles where the first part would end.
    const reference = `${'a'.repeat(TEXT_PART_CHARS - 1)}😀${'Check the ledger. '.repeat(4700)}`;
    await withServedSkills(
      {
        ledger: {
          'SKILL.md':
            '---\nname: ledger\ndescription: Reconcile the ledger.\n---\n# Ledger\n\nSee references/guide.md.\n',
          'references/guide.md': reference,
        },
      },
      async (server) => {
        const parts: string[] = [];
        let offset: number | undefined = 0;
        let calls = 0;
        while (offset !== undefined) {
          const r = await server.client.callTool({
            name: 'read_skill_file',
            arguments: { name: 'ledger', path: 'references/guide.md', offset },
          });
          const out = structured(r);
          expect(out.text.length).toBeLessThanOrEqual(TEXT_PART_CHARS);
          expect(out.size).toBe(Buffer.byteLength(reference));
          if (out.next_offset !== undefined) expect(text(r)).not.toContain('[The file goes on'); // the note is its own item
          parts.push(out.text);
          offset = out.next_offset;
          calls++;
        }
        expect(calls).toBe(3);
        expect(parts[0]!.endsWith('a')).toBe(true); // the emoji went to the second part whole
        expect(parts.join('')).toBe(reference);
        const first = await server.client.callTool({
          name: 'read_skill_file',
          arguments: { name: 'ledger', path: 'references/guide.md' },
        });
        expect((first.content[1] as { text: string }).text).toMatch(/call read_skill_file again with offset \d+/);
      },
    );
  });
});

describe('resources/list of a catalog larger than a page', () => {
  const names = Array.from({ length: 205 }, (_, i) => `skill-${String(i).padStart(3, '0')}`);
  const skills = Object.fromEntries(
    names.map((n) => [n, { 'SKILL.md': `---\nname: ${n}\ndescription: Skill ${n} for paging.\n---\n# ${n}\n` }]),
  );
  /** Every page's size and every URI, following nextCursor from the first page. */
  async function walk(server: Connected): Promise<{ sizes: number[]; uris: string[] }> {
    const sizes: number[] = [];
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await server.client.request(
        { method: 'resources/list', params: cursor ? { cursor } : {} },
        ListResources,
      );
      sizes.push(page.resources.length);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    return { sizes, uris };
  }

  test('pages of at most 50 whatever --page-size, so clients that stop after 64 pages list everything', async () => {
    await withServedSkills(
      skills,
      async (server) => {
        const { sizes, uris } = await walk(server);
        expect(sizes).toEqual(Array.from({ length: 41 }, () => 5));
        expect(uris).toEqual(names.map((n) => `skill://${n}/SKILL.md`));
        // The SDK's own walk, which gives up after 64 pages, gets every skill.
        expect((await server.client.listResources()).resources).toHaveLength(205);
      },
      { pageSize: 2 },
    );
  });

  test('pages of 100 by default; following nextCursor gives every skill once, in skills/list order', async () => {
    await withServedSkills(skills, async (server) => {
      const { sizes, uris } = await walk(server);
      expect(sizes).toEqual([100, 100, 5]);
      expect(uris).toEqual(names.map((n) => `skill://${n}/SKILL.md`));
      const read = await server.client.readResource({ uri: uris[150]! });
      expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: skills['skill-150']!['SKILL.md'] });
    });
  });
});

describe('skills/list of skills the build loads with warnings', () => {
  test('lists every skill, its front matter brought within SEP-2640 (metadata strings, description ≤ 1024)', async () => {
    const long = 'Checks every invoice against the purchase order. '.repeat(22); // 1,078 characters
    await withServedSkills(
      {
        'typed-metadata': {
          'SKILL.md':
            '---\nname: typed-metadata\ndescription: Metadata values that are not strings.\nmetadata:\n  version: 2\n  stable: true\n  owners: [ana, bo]\n  empty: null\n  __proto__: kept\n---\n# Typed\n',
        },
        'long-description': { 'SKILL.md': `---\nname: long-description\ndescription: ${long}\n---\n# Long\n` },
        'plain-one': { 'SKILL.md': '---\nname: plain-one\ndescription: Nothing unusual.\n---\n# Plain\n' },
      },
      async (server) => {
        const { skills: listed } = await server.client.request({ method: 'skills/list', params: {} }, ListSkills);
        const byName = new Map(listed.map((s) => [s.frontmatter.name, s.frontmatter]));
        expect([...byName.keys()].sort()).toEqual(['long-description', 'plain-one', 'typed-metadata']);
        expect(byName.get('typed-metadata')!.metadata).toEqual(
          JSON.parse('{"version":"2","stable":"true","owners":"[\\"ana\\",\\"bo\\"]","__proto__":"kept"}'),
        );
        const description = byName.get('long-description')!.description;
        expect([...description]).toHaveLength(1024);
        expect(description.endsWith('…')).toBe(true);
        expect(byName.get('plain-one')).toEqual({ name: 'plain-one', description: 'Nothing unusual.' });
      },
    );
  });
});
