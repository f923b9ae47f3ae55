/**
 * `create_skill` and `update_skill`: registered only when the server was started on a writable
 * skills folder (`--skills`), so the default tool list — what every agent pays for up front —
 * stays as it is. The calling agent drafts the skill; errors say what to fix, in words a model
 * can act on (`description is required`, `Skill "x" not found. Use skills_search …`).
 */
import { z } from 'zod';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { replyText } from '../../route/model.ts';
import { offersSampling } from './best-skill.ts';
import type { Authoring } from '../authoring.ts';
import { withoutDialect } from './shared.ts';

/** Writes, but keeps every earlier version (rollback restores one): not destructive. */
const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

const required = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((s) => s.trim() !== '', `${field} is required`);

const FileIn = z.strictObject({
  path: z.string().describe('Path inside the skill folder, e.g. scripts/run.py'),
  content: z.string(),
  encoding: z.enum(['utf-8', 'base64']).optional(),
});

const CreateIn = z.strictObject({
  name: z.string().max(200).optional().describe('lowercase-hyphenated; made from the body or description if left out'),
  description: z.string().optional().describe('Required: what it does and when to use it'),
  body: z
    .string()
    .optional()
    .describe('Required: SKILL.md body (markdown): conditions, numbered Do / Check / Say steps, resolution'),
  files: z.array(FileIn).max(500).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  folder: z
    .string()
    .max(200)
    .optional()
    .describe('A group folder of the catalog to put it in, e.g. engineering (made if missing); default: the top'),
  conversation: z.string().optional().describe('The conversation the skill was learnt from (not stored)'),
});

const UpdateIn = z.strictObject({
  name: required('name'),
  body: z.string().optional(),
  description: z.string().optional(),
  files: z.array(FileIn).max(500).optional(),
  remove_files: z.array(z.string()).max(500).optional(),
  feedback: z.string().max(2000).optional().describe('What you changed and why'),
  base_version: z.string().optional().describe('The version you read: a newer one on disk is a conflict'),
});

/** How long create_skill waits for the client's model to draft a skill from a conversation. */
const DRAFT_TIMEOUT_MS = 60_000;

const DRAFT_SYSTEM_PROMPT =
  'You turn a conversation that solved a problem into a reusable playbook skill. Reply with one JSON object only: ' +
  '{"name": "lowercase-hyphenated-name", "description": "what it does and when to use it, in one or two sentences", ' +
  '"body": "markdown: ## Conditions (when it applies), ## Steps (numbered; each with **Do:**, **Check:**, **Say:**), ## Resolution"}.';

/**
 * The skill's fields: as given, with what is missing drafted by the client's model from the
 * conversation (seed 004's extract step) when the client offers sampling and speaks a revision
 * where the server may ask it directly (before 2026-07-28). Otherwise as given: the library
 * then says what is required.
 */
async function drafted(
  server: McpServer,
  ctx: ServerContext,
  args: { name?: string; description?: string; body?: string; conversation?: string },
): Promise<{ name?: string; description?: string; body?: string }> {
  const given = { name: args.name, description: args.description, body: args.body };
  const missing = !args.description?.trim() || !args.body?.trim();
  if (!missing || !args.conversation?.trim() || ctx.mcpReq.envelope !== undefined || !offersSampling(server, ctx))
    return given;
  const prompt = {
    systemPrompt: DRAFT_SYSTEM_PROMPT,
    messages: [
      { role: 'user' as const, content: { type: 'text' as const, text: args.conversation.slice(0, 100_000) } },
    ],
    maxTokens: 4000,
  };
  const reply = await ctx.mcpReq.requestSampling(prompt, { timeout: DRAFT_TIMEOUT_MS }).catch((err: Error) => {
    throw new Error(`The client's model did not draft the skill (${err.message}). Pass description and body yourself.`);
  });
  const draft = parseDraft(replyText(reply));
  if (!draft)
    throw new Error("The client's model did not answer with a skill as JSON. Pass description and body yourself.");
  return {
    name: args.name ?? draft.name,
    description: args.description?.trim() ? args.description : draft.description,
    body: args.body?.trim() ? args.body : draft.body,
  };
}

/** The first JSON object in a reply, with string fields only. */
function parseDraft(text: string | undefined): { name?: string; description?: string; body?: string } | undefined {
  const json = text?.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  if (!json) return undefined;
  try {
    const data = JSON.parse(json) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
    return { name: str(data.name), description: str(data.description), body: str(data.body) };
  } catch {
    return undefined;
  }
}

export function registerAuthoringTools(server: McpServer, authoring: Authoring): void {
  server.registerTool(
    'create_skill',
    {
      title: 'Create a skill',
      description:
        'Save a playbook learnt from a conversation that went well, as a new skill. Answers created: false with the existing skill when it duplicates one.',
      inputSchema: withoutDialect(CreateIn),
      outputSchema: withoutDialect(
        z.object({
          name: z.string(),
          created: z.boolean(),
          version: z.string().optional(),
          path: z.string().optional(),
          similarity: z.number().optional(),
        }),
      ),
      annotations: WRITES,
    },
    async (args, ctx) => {
      // The conversation is context for drafting; it is not stored in the skill.
      const { name, description, body } = await drafted(server, ctx, args);
      const r = await authoring.create({
        name,
        description: description ?? '',
        body: body ?? '',
        files: args.files,
        metadata: args.metadata,
        folder: args.folder,
      });
      const out = r.created
        ? { name: r.name, created: true, version: r.version, path: r.path }
        : { name: r.name, created: false, similarity: r.duplicate?.similarity };
      const text = r.created
        ? `Created skill "${r.name}" (version ${r.version}) at ${r.path}.`
        : `Not created: skill "${r.name}" already covers this (${r.duplicate?.kind} match, similarity ${r.duplicate?.similarity}). Use update_skill on "${r.name}" to add what is new.`;
      return { content: [{ type: 'text', text }], structuredContent: out };
    },
  );
  server.registerTool(
    'update_skill',
    {
      title: 'Update a skill',
      description:
        "Improve a skill with what you learnt where you had to deviate from it; raises its version and lists the changes. Pass base_version (the version you read) to avoid overwriting another agent's update.",
      inputSchema: withoutDialect(UpdateIn),
      outputSchema: withoutDialect(
        z.object({
          name: z.string(),
          version: z.string(),
          previous_version: z.string().optional(),
          changes: z.array(z.string()),
        }),
      ),
      annotations: WRITES,
    },
    async (args) => {
      const r = await authoring.update(args);
      const out = {
        name: r.name,
        version: r.version,
        ...(r.previous_version !== undefined ? { previous_version: r.previous_version } : {}),
        changes: r.changes,
      };
      const text = `Updated skill "${r.name}" to version ${r.version}:\n${r.changes.map((c) => `- ${c}`).join('\n')}`;
      return { content: [{ type: 'text', text }], structuredContent: out };
    },
  );
}
