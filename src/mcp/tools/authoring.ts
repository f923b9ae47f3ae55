/**
 * `create_skill` and `update_skill`: registered only when the server was started on a writable
 * skills folder (`--skills`), so the default tool list — what every agent pays for up front —
 * stays as it is. The calling agent drafts the skill; errors say what to fix, in words a model
 * can act on (`description is required`, `Skill "x" not found. Use skills_search …`).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
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
  description: required('description').describe('What it does and when to use it'),
  body: required('body').describe('SKILL.md body (markdown): conditions, numbered Do / Check / Say steps, resolution'),
  files: z.array(FileIn).max(500).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
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
    async (args) => {
      // The conversation is context for drafting; it is not stored in the skill.
      const { name, description, body, files, metadata } = args;
      const r = await authoring.create({ name, description, body, files, metadata });
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
