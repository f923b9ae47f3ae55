/** Catalogs built in memory for the crash and lifecycle tests: no disk, no loader. */
import { skillDigest, storedFile } from '../../src/load/index.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';

/** An in-memory catalog of `count` skills × `filesPerSkill` files of about `fileBytes` each (no disk). */
export function syntheticCatalog(count: number, filesPerSkill: number, fileBytes: number, tag = 'synthetic'): Catalog {
  const skills: Skill[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${tag}-${String(i).padStart(5, '0')}`;
    const body = `# ${id}\n\n${'Instructions for the synthetic skill. '.repeat(8)}\n`;
    const skillMdText = `---\nname: ${id}\ndescription: Synthetic skill number ${i}.\n---\n\n${body}`;
    const files = [storedFile('SKILL.md', Buffer.from(skillMdText))];
    for (let f = 1; f < filesPerSkill; f++) {
      const line = `${id} file ${f}: ${'lorem ipsum dolor sit amet '.repeat(4)}\n`;
      files.push(
        storedFile(
          `scripts/part-${f}.txt`,
          Buffer.from(line.repeat(Math.max(1, Math.ceil(fileBytes / line.length))).slice(0, fileBytes)),
        ),
      );
    }
    skills.push({
      id,
      name: id,
      description: `Synthetic skill number ${i}.`,
      frontmatter: { name: id, description: `Synthetic skill number ${i}.` },
      allowed_tools: [],
      registry_fields: { tags: [tag], visibility: 'public', allowed_groups: [] },
      body,
      body_line: 5,
      files,
      digest: skillDigest(files),
      registry: 'local',
      source: { kind: 'local', dir: id },
      health: { status: 'healthy' },
      updated_at: '2026-01-15T00:00:00.000Z',
    });
  }
  return { skills, problems: [] };
}
