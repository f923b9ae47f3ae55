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
      description:
        'One file of a skill (a path view_skill lists): text, or base64 if binary. Long text comes in parts: pass next_offset as offset.',
      inputSchema: withoutDialect(
        z.strictObject({
          name: skillName,
          path: z
            .string()
            .min(1, 'path must not be empty')
            .max(1024, 'path is at most 1024 characters')
            .describe('File path inside the skill, e.g. scripts/run.py'),
          offset: z.number().int().min(0).optional(),
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
          next_offset: z.number().optional(),
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
        const { text, next } = part(bytes.toString('utf8'), args.offset ?? 0);
        const more = next === undefined ? [] : [{ type: 'text' as const, text: continues(next) }];
        return {
          content: [{ type: 'text', text }, ...more],
          structuredContent: {
            ...base,
            encoding: 'utf-8' as const,
            text,
            ...(next === undefined ? {} : { next_offset: next }),
          },
        };
      }
      const blob = bytes.toString('base64');
      return {
        content: [{ type: 'resource', resource: { uri, mimeType: file.mime, blob } }],
        structuredContent: { ...base, encoding: 'base64' as const, blob },
      };
    },
  );
}

/**
 * Characters of a text file in one answer: a few public skills ship references of 100 KB and more,
 * which would fill an agent's context in one call. The rest comes with `offset`.
 */
export const TEXT_PART_CHARS = 64 * 1024;

/** The part of `text` from `offset`, never splitting a surrogate pair, and where the next part starts. */
function part(text: string, offset: number): { text: string; next?: number } {
  if (offset >= text.length) return { text: '' };
  let end = Math.min(text.length, offset + TEXT_PART_CHARS);
  if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return end < text.length ? { text: text.slice(offset, end), next: end } : { text: text.slice(offset) };
}

const continues = (next: number): string =>
  `[The file goes on: call read_skill_file again with offset ${next} for the next part.]`;
