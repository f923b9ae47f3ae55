/**
 * A catalog folder with every kind of file a feed must handle, plus private and group skills
 * carrying marker strings that must never reach any public output.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Secret words of the private and group skills (single words, so tokenizers keep them whole). */
export const PRIVATE_MARKER = 'zqxprivatesecret';
export const GROUP_MARKER = 'zqxgroupsecret';
export const PRIVATE_NAMES = ['hidden-private-skill', 'hidden-group-skill'];
/** Content of ignored files: must not be published either. */
export const IGNORED_MARKER = 'zqxignoredcontent';

/** Small limit so the over-limit file stays small. */
export const MAX_FILE_BYTES = 4096;

export const UNUSUAL_NAMES = ['#hash ?q%20.txt', '日本語 ファイル.md'];

/** Bytes that are not UTF-8 but hold no NUL: stored as base64. */
export const INVALID_UTF8 = Buffer.from([0x66, 0x6f, 0x6f, 0xff, 0xfe, 0x80, 0x62, 0x61, 0x72, 0x0a]);
/** Binary with NUL bytes (a PNG signature and filler). */
export const BINARY = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  Buffer.alloc(300, 7),
]);

export function skillMd(
  name: string,
  description: string,
  extra: Record<string, string> = {},
  body = `# ${name}\n\nInstructions for ${name}.\n`,
): string {
  const meta = Object.entries(extra).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
  return [
    '---',
    `name: ${name}`,
    `description: ${description}`,
    ...(meta.length ? ['metadata:', ...meta] : []),
    '---',
    '',
    body,
  ].join('\n');
}

/** A SKILL.md named `name` ("The <name> skill."), with `extraYaml` (raw front matter lines) and `body`: what hostile cases build on. */
export function plainSkillMd(name: string, extraYaml = '', body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n${extraYaml}---\n${body}`;
}

export function write(root: string, rel: string, data: string | Uint8Array): void {
  const abs = path.join(root, ...rel.split('/'));
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, data);
}

export interface Fixture {
  dir: string;
  skills: string;
  config: string;
}

/** Create the fixture catalog and a config folder; returns their paths. */
export function makeFixture(): Fixture {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillpress-feed-'));
  const skills = path.join(dir, 'skills');
  const config = path.join(dir, 'config');
  write(
    config,
    'skillpress.json',
    JSON.stringify({
      registry: { name: 'test-registry', title: 'Test registry' },
      skills: { max_file_bytes: MAX_FILE_BYTES },
    }),
  );

  const kitchen = path.join(skills, 'kitchen-sink');
  write(
    kitchen,
    'SKILL.md',
    skillMd(
      'kitchen-sink',
      'Every kind of file: binary, empty, invalid UTF-8, unusual names, nested, over the limit.',
      { tags: 'files, edge-cases', domain: 'testing', version: '1.0.0' },
      '# Kitchen sink\n\nSee [the script](scripts/run.sh).\n\n## Details\n\nUses extract helpers.\n',
    ),
  );
  write(kitchen, 'scripts/run.sh', '#!/bin/sh\necho ok\n');
  chmodSync(path.join(kitchen, 'scripts', 'run.sh'), 0o755);
  write(kitchen, 'assets/logo.png', BINARY);
  write(kitchen, 'empty.txt', '');
  write(kitchen, 'latin1.txt', INVALID_UTF8);
  for (const n of UNUSUAL_NAMES) write(kitchen, `odd/${n}`, `file named ${n}\n`);
  write(kitchen, 'a/b/c/deep.txt', 'deeply nested\n');
  write(kitchen, 'big.bin', Buffer.alloc(MAX_FILE_BYTES + 1, 1));
  write(kitchen, 'tools.json', JSON.stringify([{ name: 'get_plan', description: 'Explain a query.' }]));
  write(
    kitchen,
    'resources.json',
    JSON.stringify({ resources: [{ uri: 'resource://kitchen/rules.md', name: 'rules' }] }),
  );
  // Ignored by default rules: never published.
  write(kitchen, '.DS_Store', IGNORED_MARKER);
  write(kitchen, '__pycache__/mod.cpython-312.pyc', IGNORED_MARKER);
  write(kitchen, 'scripts/helper.pyc', IGNORED_MARKER);
  write(kitchen, 'node_modules/dep/index.js', IGNORED_MARKER);

  write(
    skills,
    'only-skill-md/SKILL.md',
    skillMd('only-skill-md', 'A skill that is only its SKILL.md.', { version: '0.1.0' }),
  );

  const priv = path.join(skills, 'team', 'hidden-private-skill');
  write(
    priv,
    'SKILL.md',
    skillMd(
      'hidden-private-skill',
      `Private ${PRIVATE_MARKER} skill.`,
      { visibility: 'private', owner: 'alice', tags: PRIVATE_MARKER },
      `# ${PRIVATE_MARKER}\n\nBody ${PRIVATE_MARKER}.\n`,
    ),
  );
  write(priv, 'data/secret.bin', Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(PRIVATE_MARKER)]));
  write(priv, 'notes.md', `notes ${PRIVATE_MARKER}\n`);

  const group = path.join(skills, 'team', 'hidden-group-skill');
  write(
    group,
    'SKILL.md',
    skillMd(
      'hidden-group-skill',
      `Group ${GROUP_MARKER} skill.`,
      { visibility: 'group', allowed_groups: 'finance' },
      `Body ${GROUP_MARKER}.\n`,
    ),
  );
  write(group, 'scripts/x.py', `print("${GROUP_MARKER}")\n`);
  return { dir, skills, config };
}
