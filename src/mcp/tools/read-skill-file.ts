/** `read_skill_file`: one file of a skill by the path view_skill lists (level 3). */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { skillFileUri } from '../uris.ts';
import { READ_ONLY, skillName, type CatalogRef, withoutDialect } from './shared.ts';

export function registerReadSkillFile(server: McpServer, catalog: CatalogRef): void {
  server.registerTool(
    'read_skill_file',
    {
      title: 'Read a skill file',
      description: 'One file of a skill (a path view_skill lists): text, or base64 if binary.',
      inputSchema: withoutDialect(
        z.strictObject({
          name: skillName,
          path: z
            .string()
            .min(1, 'path must not be empty')
            .max(1024, 'path is at most 1024 characters')
            .describe('File path inside the skill, e.g. scripts/run.py'),
        }),
      ),
      outputSchema: withoutDialect(
        z.object({
          name: z.string(),
          path: z.string(),
          uri: z.string(),
          mimeType: z.string(),
          size: z.number(),
          sha256: z.string(),
          encoding: z.enum(['utf-8', 'base64']),
          text: z.string().optional(),
          blob: z.string().optional(),
        }),
      ),
      annotations: READ_ONLY,
    },
    async (args) => {
      const c = await catalog();
      const card = await c.lookupCard(args.name);
      const { file, bytes } = await c.file(card, args.path);
      const uri = skillFileUri(card, file.path);
      const base = { name: card.name, path: file.path, uri, mimeType: file.mime, size: file.size, sha256: file.sha256 };
      if (file.encoding === 'utf-8') {
        const text = bytes.toString('utf8');
        return { content: [{ type: 'text', text }], structuredContent: { ...base, encoding: 'utf-8' as const, text } };
      }
      const blob = bytes.toString('base64');
      return {
        content: [{ type: 'resource', resource: { uri, mimeType: file.mime, blob } }],
        structuredContent: { ...base, encoding: 'base64' as const, blob },
      };
    },
  );
}
