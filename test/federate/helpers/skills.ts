/** Write small skill folders for tests and load them with the real loader. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCatalog } from '../../../src/load/index.ts';
import type { Catalog } from '../../../src/model/skill.ts';

export interface SkillSpec {
  name: string;
  description?: string;
  body?: string;
  tags?: string[];
  visibility?: 'public' | 'private' | 'group';
  /** Extra files by path (text or bytes). */
  files?: Record<string, string | Uint8Array>;
}

export function skillMd(spec: SkillSpec): string {
  const meta: string[] = [];
  if (spec.tags) meta.push(`  tags: "${spec.tags.join(', ')}"`);
  if (spec.visibility) meta.push(`  visibility: ${spec.visibility}`);
  return [
    '---',
    `name: ${spec.name}`,
    `description: ${spec.description ?? `Does ${spec.name} things. Use when ${spec.name} is needed.`}`,
    ...(meta.length ? ['metadata:', ...meta] : []),
    '---',
    '',
    spec.body ?? `# ${spec.name}\n\nSteps for ${spec.name}.\n`,
  ].join('\n');
}

export async function writeSkills(root: string, specs: SkillSpec[]): Promise<void> {
  for (const spec of specs) {
    const dir = path.join(root, spec.name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), skillMd(spec));
    for (const [rel, content] of Object.entries(spec.files ?? {})) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), content);
    }
  }
}

export async function loadSkills(root: string, registry: string): Promise<Catalog> {
  return loadCatalog(root, { registry, sourceDateEpoch: 1_767_225_600 });
}

export const tempDir = (prefix: string): Promise<string> => mkdtemp(path.join(tmpdir(), `skillpress-${prefix}-`));
