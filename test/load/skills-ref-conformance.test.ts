/**
 * Conformance with `skills-ref`, the reference validator of the Agent Skills specification
 * (agentskills/agentskills, skills-ref/tests/test_validator.py and test_parser.py: 43 cases in
 * the revision ported here). Each case is rebuilt as a skill folder on disk and loaded the way
 * `skillpress validate <dir>` loads it. Verdicts are those of skills-ref in `strict` mode,
 * except where the specification says otherwise:
 *
 * | skills-ref case                                  | skills-ref | skillpress strict | why (the specification says)                                            |
 * |--------------------------------------------------|------------|-------------------|-------------------------------------------------------------------------|
 * | test_i18n_chinese_name (`技能`)                  | valid      | invalid           | name: "lowercase alphanumeric characters (a-z) and hyphens"             |
 * | test_i18n_russian_name_with_hyphens (`мой-навык`)| valid      | invalid           | same                                                                    |
 * | test_i18n_russian_lowercase_valid (`навык`)      | valid      | invalid           | same                                                                    |
 * | test_nfkc_normalization (`café`)                 | valid      | invalid           | same (`é` is not a-z; NFKC normalisation is not in the spec)            |
 * | test_read_with_metadata (`version: 1.0`)         | valid      | invalid           | metadata is "a map from string keys to string values"; unquoted 1.0 is a YAML number (and `1.10` would read as 1.1) |
 * | test_find_skill_md_accepts_lowercase (`skill.md`)| valid      | invalid           | a skill holds a file named `SKILL.md`; the client guide: "named exactly SKILL.md" |
 * | test_read_properties_with_lowercase_skill_md     | valid      | invalid           | same                                                                    |
 *
 * In `lenient` mode (the default for builds) a name that does not match its folder or is over
 * 64 characters loads with a warning, as the spec's client guide says; a name of another form
 * (uppercase, `--`, `_`, a hyphen at an end) loads under a valid id — the folder's name when
 * valid, else the normalized name (`my_skill` → `my-skill`) — with the written name as its
 * title (`name-normalized`); names with no such id (Chinese, Russian) stay errors, because the
 * name is the skill's id in feeds, URIs and peer registries. Of the seven differences,
 * `version: 1.0` and `café` (as `cafe`) load in lenient mode, with a warning.
 * Cases that test skills-ref's Python API rather than a verdict (find_skill_md, parse_frontmatter,
 * read_properties) become the equivalent verdict on a skill folder, plus a check of what
 * skillpress reads (body, license, metadata, allowed-tools).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCatalog, type ValidationMode } from '../../src/load/index.ts';
import type { Catalog, Skill } from '../../src/model/skill.ts';

type Verdict = 'valid' | 'invalid';

interface Case {
  /** The skills-ref test this case ports. */
  ref: string;
  /** Folder name of the skill, and its files; undefined `files` means no folder at all. */
  folder?: string;
  files?: Record<string, string>;
  /** What to validate, relative to the temp dir (default: the skill folder). */
  target?: string;
  skillsRef: Verdict;
  strict: Verdict;
  lenient: Verdict;
  /** Rules that must be reported (any severity) in strict mode. */
  rules?: string[];
  /** Extra checks on the loaded skill (lenient mode, where it loads). */
  check?: (skill: Skill) => void;
}

const md = (front: string, body = 'Body\n'): string => `---\n${front}\n---\n${body}`;
const basic = (name: string, extra = ''): string => md(`name: ${name}\ndescription: A test skill${extra}`);

const CASES: Case[] = [
  // --- skills-ref/tests/test_validator.py ---
  {
    ref: 'test_valid_skill',
    folder: 'my-skill',
    files: { 'SKILL.md': md('name: my-skill\ndescription: A test skill', '# My Skill\n') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
  },
  {
    ref: 'test_nonexistent_path',
    target: 'nonexistent',
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['root-missing'],
  },
  {
    ref: 'test_not_a_directory',
    target: 'file.txt',
    files: {},
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['root-missing'],
  },
  {
    ref: 'test_missing_skill_md',
    folder: 'my-skill',
    files: {},
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['no-skills'],
  },
  {
    ref: 'test_invalid_name_uppercase',
    folder: 'MySkill',
    files: { 'SKILL.md': basic('MySkill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-lowercase'],
    check: (s) => expect([s.id, s.title]).toEqual(['myskill', 'MySkill']),
  },
  {
    ref: 'test_name_too_long',
    folder: 'a'.repeat(70),
    files: { 'SKILL.md': basic('a'.repeat(70)) },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-length'],
  },
  {
    ref: 'test_name_leading_hyphen',
    folder: '-my-skill',
    files: { 'SKILL.md': basic('-my-skill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-hyphen-ends'],
    check: (s) => expect([s.id, s.title]).toEqual(['my-skill', '-my-skill']),
  },
  {
    ref: 'test_name_consecutive_hyphens',
    folder: 'my--skill',
    files: { 'SKILL.md': basic('my--skill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-double-hyphen'],
    check: (s) => expect([s.id, s.title]).toEqual(['my-skill', 'my--skill']),
  },
  {
    ref: 'test_name_invalid_characters',
    folder: 'my_skill',
    files: { 'SKILL.md': basic('my_skill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-characters'],
    check: (s) => expect([s.id, s.title]).toEqual(['my-skill', 'my_skill']),
  },
  {
    ref: 'test_name_directory_mismatch',
    folder: 'wrong-name',
    files: { 'SKILL.md': basic('correct-name') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-matches-folder'],
  },
  {
    ref: 'test_unexpected_fields',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nunknown_field: should not be here') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['unknown-field'],
  },
  {
    ref: 'test_valid_with_all_fields',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nlicense: MIT\nmetadata:\n  author: Test') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => {
      expect(s.license).toBe('MIT');
      expect(s.registry_fields.author).toBe('Test');
    },
  },
  {
    ref: 'test_allowed_tools_accepted',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: Bash(jq:*) Bash(git:*)') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.allowed_tools).toEqual(['Bash(jq:*)', 'Bash(git:*)']),
  },
  {
    ref: 'test_allowed_tools_inline_list_accepted',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: [Read, Write, Edit, Bash]') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.allowed_tools).toEqual(['Read', 'Write', 'Edit', 'Bash']),
  },
  {
    ref: 'test_allowed_tools_block_list_accepted',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools:\n  - Read\n  - Bash\n  - Grep') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.allowed_tools).toEqual(['Read', 'Bash', 'Grep']),
  },
  {
    ref: 'test_allowed_tools_list_items_must_be_strings',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools:\n  - Read\n  - 123') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['allowed-tools-type'],
  },
  {
    ref: 'test_allowed_tools_invalid_scalar_type_rejected',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: 123') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['allowed-tools-type'],
  },
  {
    ref: 'test_i18n_chinese_name',
    folder: '技能',
    files: { 'SKILL.md': md('name: 技能\ndescription: A skill with Chinese name') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['name-characters'],
  },
  {
    ref: 'test_i18n_russian_name_with_hyphens',
    folder: 'мой-навык',
    files: { 'SKILL.md': md('name: мой-навык\ndescription: A skill with Russian name') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['name-characters'],
  },
  {
    ref: 'test_i18n_russian_lowercase_valid',
    folder: 'навык',
    files: { 'SKILL.md': md('name: навык\ndescription: A skill with Russian lowercase name') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['name-characters'],
  },
  {
    ref: 'test_i18n_russian_uppercase_rejected',
    folder: 'НАВЫК',
    files: { 'SKILL.md': md('name: НАВЫК\ndescription: A skill with Russian uppercase name') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['name-lowercase'],
  },
  {
    ref: 'test_description_too_long',
    folder: 'my-skill',
    files: { 'SKILL.md': md(`name: my-skill\ndescription: ${'x'.repeat(1100)}`) },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['description-length'],
  },
  {
    ref: 'test_valid_compatibility',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\ncompatibility: Requires Python 3.11+') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.compatibility).toBe('Requires Python 3.11+'),
  },
  {
    ref: 'test_compatibility_too_long',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', `\ncompatibility: ${'x'.repeat(550)}`) },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['compatibility-length'],
  },
  {
    // Folder in composed form (U+00E9), name decomposed (e + U+0301): equal after normalisation.
    ref: 'test_nfkc_normalization',
    folder: 'caf\u00e9',
    files: { 'SKILL.md': basic('cafe\u0301') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-characters'],
    check: (s) => expect([s.id, s.title]).toEqual(['cafe', 'cafe\u0301']),
  },

  // --- skills-ref/tests/test_parser.py ---
  {
    ref: 'test_valid_frontmatter',
    folder: 'my-skill',
    files: { 'SKILL.md': md('name: my-skill\ndescription: A test skill', '# My Skill\n\nInstructions here.\n') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => {
      expect(s.name).toBe('my-skill');
      expect(s.description).toBe('A test skill');
      expect(s.body).toContain('# My Skill');
    },
  },
  {
    ref: 'test_missing_frontmatter',
    folder: 'my-skill',
    files: { 'SKILL.md': '# No frontmatter here' },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['frontmatter-missing'],
  },
  {
    ref: 'test_unclosed_frontmatter',
    folder: 'my-skill',
    files: { 'SKILL.md': '---\nname: my-skill\ndescription: A test skill\n' },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['frontmatter-unclosed'],
  },
  {
    ref: 'test_invalid_yaml',
    folder: 'my-skill',
    files: { 'SKILL.md': md('name: [invalid\ndescription: broken', 'Body here\n') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['frontmatter-yaml'],
  },
  {
    ref: 'test_non_dict_frontmatter',
    folder: 'my-skill',
    files: { 'SKILL.md': md('- just\n- a\n- list') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['frontmatter-not-mapping'],
  },
  {
    ref: 'test_read_valid_skill',
    folder: 'my-skill',
    files: { 'SKILL.md': md('name: my-skill\ndescription: A test skill\nlicense: MIT', '# My Skill\n') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.license).toBe('MIT'),
  },
  {
    ref: 'test_read_with_metadata',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nmetadata:\n  author: Test Author\n  version: 1.0') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['metadata-string-values'],
    // As written, not as the YAML number: "1.0", like skills-ref.
    check: (s) => expect(s.registry_fields).toMatchObject({ author: 'Test Author', version: '1.0' }),
  },
  {
    ref: 'test_missing_skill_md (parser)',
    target: '.',
    files: {},
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['no-skills'],
  },
  {
    ref: 'test_missing_name',
    folder: 'my-skill',
    files: { 'SKILL.md': md('description: A test skill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['name-required'],
    check: (s) => expect(s.name).toBe('my-skill'),
  },
  {
    ref: 'test_missing_description',
    folder: 'my-skill',
    files: { 'SKILL.md': md('name: my-skill') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['description-required'],
  },
  {
    ref: 'test_find_skill_md_prefers_uppercase',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill'), 'skill.md': 'lowercase' },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.files.find((f) => f.path === 'skill.md')?.content).toBe('lowercase'),
  },
  {
    ref: 'test_find_skill_md_accepts_lowercase',
    folder: 'my-skill',
    files: { 'skill.md': basic('my-skill') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['skill-md-name'],
  },
  {
    ref: 'test_find_skill_md_returns_none_when_missing',
    folder: 'my-skill',
    files: {},
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['no-skills'],
  },
  {
    ref: 'test_read_properties_with_lowercase_skill_md',
    folder: 'my-skill',
    files: { 'skill.md': md('name: my-skill\ndescription: A test skill', '# My Skill\n') },
    skillsRef: 'valid',
    strict: 'invalid',
    lenient: 'invalid',
    rules: ['skill-md-name'],
  },
  {
    ref: 'test_read_with_allowed_tools',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: Bash(jq:*) Bash(git:*)') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => {
      expect(s.allowed_tools).toEqual(['Bash(jq:*)', 'Bash(git:*)']);
      expect(s.frontmatter['allowed-tools']).toBe('Bash(jq:*) Bash(git:*)');
    },
  },
  {
    ref: 'test_read_with_allowed_tools_inline_list',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: [Read, Write, Bash]') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.allowed_tools).toEqual(['Read', 'Write', 'Bash']),
  },
  {
    ref: 'test_read_with_allowed_tools_block_list',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools:\n  - Read\n  - Bash\n  - Grep') },
    skillsRef: 'valid',
    strict: 'valid',
    lenient: 'valid',
    check: (s) => expect(s.allowed_tools).toEqual(['Read', 'Bash', 'Grep']),
  },
  {
    ref: 'test_read_with_allowed_tools_invalid_type',
    folder: 'my-skill',
    files: { 'SKILL.md': basic('my-skill', '\nallowed-tools: 123') },
    skillsRef: 'invalid',
    strict: 'invalid',
    lenient: 'valid',
    rules: ['allowed-tools-type'],
  },
];

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

/** Lay the case out in a fresh temp dir and return the path to validate. */
async function layout(c: Case): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'skillpress-ref-'));
  temps.push(dir);
  if (c.target === 'file.txt') {
    await writeFile(path.join(dir, 'file.txt'), 'test');
    return path.join(dir, 'file.txt');
  }
  if (c.target !== undefined) return path.join(dir, c.target);
  const skillDir = path.join(dir, c.folder!);
  await mkdir(skillDir);
  for (const [name, text] of Object.entries(c.files ?? {})) await writeFile(path.join(skillDir, name), text);
  return skillDir;
}

const verdict = (catalog: Catalog): Verdict =>
  catalog.skills.length === 1 && !catalog.problems.some((p) => p.severity === 'error') ? 'valid' : 'invalid';

describe('skills-ref conformance', () => {
  it('ports every case once', () => {
    expect(CASES).toHaveLength(43);
    expect(new Set(CASES.map((c) => c.ref)).size).toBe(43);
  });

  it('differs from skills-ref only where the table at the top says so', () => {
    const differing = CASES.filter((c) => c.strict !== c.skillsRef).map((c) => c.ref);
    expect(differing).toEqual([
      'test_i18n_chinese_name',
      'test_i18n_russian_name_with_hyphens',
      'test_i18n_russian_lowercase_valid',
      'test_nfkc_normalization',
      'test_read_with_metadata',
      'test_find_skill_md_accepts_lowercase',
      'test_read_properties_with_lowercase_skill_md',
    ]);
  });

  for (const mode of ['strict', 'lenient'] as ValidationMode[]) {
    describe(mode, () => {
      for (const c of CASES) {
        it(`${c.ref} → ${c[mode]}`, async () => {
          const catalog = await loadCatalog(await layout(c), { mode });
          expect(verdict(catalog), JSON.stringify(catalog.problems, null, 1)).toBe(c[mode]);
          if (mode === 'strict') {
            for (const rule of c.rules ?? []) expect(catalog.problems.map((p) => p.rule)).toContain(rule);
          } else if (c.lenient === 'valid') {
            // Whatever lenient forgives, it still says.
            const errorsInStrict = c.strict === 'invalid';
            expect(catalog.problems.length > 0).toBe(errorsInStrict);
            c.check?.(catalog.skills[0]!);
          }
        });
      }
    });
  }
});
