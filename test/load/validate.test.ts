/**
 * The validator's decisions one by one: what strict and lenient make of each front-matter
 * problem, the line numbers reported, and the body checks.
 */
import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown, validateFrontMatter, type ParsedSkillMarkdown } from '../../src/load/index.ts';
import { checkBody, relativeLinks } from '../../src/load/body-checks.ts';
import { bodyPlaceholderProblem, placeholderDescription } from '../../src/load/placeholders.ts';

const parse = (text: string, repair = false): ParsedSkillMarkdown => {
  const r = parseSkillMarkdown(text, { repair });
  if (!r.ok) throw new Error(`${r.rule}: ${r.message}`);
  return r;
};
const validate = (fields: Record<string, unknown>, mode: 'strict' | 'lenient', folderName = 'my-skill') =>
  validateFrontMatter({ name: 'my-skill', description: 'Does things.', ...fields }, { folderName, mode });
const rules = (r: ReturnType<typeof validate>) => r.problems.map((p) => `${p.severity}:${p.rule}`);

describe('parseSkillMarkdown', () => {
  it('reports the SKILL.md line of every field, including metadata keys', () => {
    const p = parse(
      '---\nname: my-skill\ndescription: >\n  Folded\n  text.\nmetadata:\n  author: me\n  version: 1.10\n---\n\n# Body\n',
    );
    expect(p.fieldLines).toEqual({ name: 2, description: 3, metadata: 6, 'metadata.author': 7, 'metadata.version': 8 });
    expect(p.data.description).toBe('Folded text.\n');
    expect(p.sourceText['metadata.version']).toBe('1.10');
    expect(p.bodyLine).toBe(10);
    expect(p.body).toBe('\n# Body\n');
    expect(p.lines).toBe(11);
  });

  it('accepts a BOM and CRLF line endings', () => {
    const p = parse('\ufeff---\r\nname: x\r\ndescription: y\r\n---\r\nBody\r\n');
    expect(p.data).toEqual({ name: 'x', description: 'y' });
    expect(p.body).toBe('Body\n');
  });

  it('gives the SKILL.md line of a YAML error and rejects duplicate keys', () => {
    expect(parseSkillMarkdown('---\nname: a\ndescription: b\nname: c\n---\n')).toMatchObject({
      ok: false,
      rule: 'frontmatter-yaml',
      line: 4,
    });
    expect(parseSkillMarkdown('---\nname: a\n  bad: indent\n---\n')).toMatchObject({
      ok: false,
      rule: 'frontmatter-yaml',
    });
  });

  it('tells which value to quote when an unquoted ": " breaks the YAML, and repairs it only when asked', () => {
    const text = '---\nname: my-skill\ndescription: Use this skill when: the user asks about PDFs\n---\n';
    const strict = parseSkillMarkdown(text);
    expect(strict).toMatchObject({ ok: false, rule: 'frontmatter-yaml', line: 3 });
    expect(!strict.ok && strict.message).toContain(
      'the value of "description" on line 3 contains ": ": wrap it in quotes',
    );
    const lenient = parse(text, true);
    expect(lenient.data.description).toBe('Use this skill when: the user asks about PDFs');
    expect(lenient.repairs).toEqual([expect.objectContaining({ line: 3, field: 'description' })]);
  });

  it('does not expand YAML alias bombs', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ];
    expect(parseSkillMarkdown(`---\n${bomb.join('\n')}\n---\n`)).toMatchObject({ ok: false, rule: 'frontmatter-yaml' });
  });
});

describe('validateFrontMatter', () => {
  it('strict: every rule of the spec is an error', () => {
    expect(rules(validate({ name: 'My--Skill-' }, 'strict', 'My--Skill-'))).toEqual([
      'error:name-lowercase',
      'error:name-hyphen-ends',
      'error:name-double-hyphen',
    ]);
    expect(rules(validate({ compatibility: '' }, 'strict'))).toEqual(['error:compatibility-length']);
    expect(rules(validate({ tags: ['a'] }, 'strict'))).toEqual(['error:unknown-field']);
    expect(rules(validate({ metadata: { version: 2 } }, 'strict'))).toEqual(['error:metadata-string-values']);
    expect(validate({}, 'strict').problems).toEqual([]);
  });

  it("keeps a client's own fields where the client reads them: silent in lenient, in strict not advised under metadata", () => {
    // mattpocock/skills: 24 of its 41 skills set Claude Code's `disable-model-invocation`, some `argument-hint`.
    const claude = { 'disable-model-invocation': true, 'argument-hint': '[plan]', 'user-invokable': false };
    expect(validate(claude, 'lenient').problems).toEqual([]);
    const strict = validate({ ...claude, extra: 1 }, 'strict').problems;
    expect(strict.map((p) => `${p.severity}:${p.rule}:${p.field}`)).toEqual([
      'error:client-field:disable-model-invocation',
      'error:client-field:argument-hint',
      'error:client-field:user-invokable',
      'error:unknown-field:extra',
    ]);
    expect(strict[0]!.message).toContain("Claude Code's own field");
    expect(strict[0]!.message).not.toContain('move it under metadata');
    expect(strict[2]!.message).toContain("VS Code's own field");
    expect(rules(validate({ extra: 1 }, 'lenient'))).toEqual(['warning:unknown-field']);
  });

  it('a metadata value that is not a string is told how to write it, in YAML that can be copied back as it is', () => {
    const advice = (metadata: Record<string, unknown>) =>
      validate({ metadata }, 'strict').problems.find((p) => p.rule === 'metadata-string-values')!.message;
    const nested = advice({ owner: { team: "sec's" } });
    expect(nested).toBe(
      `metadata.owner must be a string: quote it, e.g. owner: '{"team":"sec''s"}' (unquoted, YAML reads it as object)`,
    );
    const line = nested.slice(nested.indexOf('owner: '), nested.indexOf(' (unquoted'));
    const parsed = parseSkillMarkdown(`---\nname: my-skill\ndescription: d\nmetadata:\n  ${line}\n---\n`);
    expect(parsed.ok && parsed.data.metadata).toEqual({ owner: '{"team":"sec\'s"}' });
    expect(advice({ tags: ['a', 'b'] })).toBe(
      "metadata.tags must be a string, not a list: write it as one string, e.g. tags: 'a, b'",
    );
  });

  it('an unknown field near a known one asks whether it is meant; one skillpress reads at the top level is not advised under metadata', () => {
    const message = (fields: Record<string, unknown>, field: string) =>
      validate(fields, 'strict').problems.find((p) => p.rule === 'unknown-field' && p.field === field)?.message;
    expect(message({ descripton: 'x' }, 'descripton')).toBe(
      '"descripton" is not a field of the Agent Skills specification: did you mean "description"?',
    );
    expect(message({ allowed_tools: 'Read' }, 'allowed_tools')).toMatch(/did you mean "allowed-tools"\?$/);
    expect(message({ requires: { mcp: ['rube'] } }, 'requires')).toBe(
      '"requires" is not a field of the Agent Skills specification: other agents ignore it (skillpress reads requires.mcp there; within the specification, name the servers in allowed-tools as mcp__<server>)',
    );
    // A known field of its own is never "meant" as another one near it.
    expect(message({ allowed_groups: ['a'] }, 'allowed_groups')).toMatch(/move it under metadata/);
    expect(message({ team: 'x' }, 'team')).toMatch(/move it under metadata \(as a string\)$/);
  });

  it('lenient: a name that differs from its folder or is over 64 characters is a warning, as the client guide says', () => {
    const mismatch = validate({ name: 'other-name' }, 'lenient', 'my-skill');
    expect(rules(mismatch)).toEqual(['warning:name-matches-folder']);
    expect(mismatch.name).toBe('other-name');
    const long = 'a'.repeat(80);
    expect(rules(validate({ name: long }, 'lenient', long))).toEqual(['warning:name-length']);
    expect(validate({ name: long }, 'lenient', long).name).toBe(long);
  });

  it("lenient: a name written as a title loads under the folder's name, or the normalized name, and keeps the written name as title", () => {
    const titled = validate({ name: 'Ahrefs Automation' }, 'lenient', 'ahrefs-automation');
    expect(titled).toMatchObject({ name: 'ahrefs-automation', title: 'Ahrefs Automation' });
    expect(rules(titled)).toEqual(['warning:name-normalized']);
    expect(titled.problems[0]!.message).toContain(
      '"Ahrefs Automation" is not a valid skill name (name-lowercase, name-characters); the skill is published as "ahrefs-automation" (its folder\'s name)',
    );
    // The folder is not a valid name either: the name is normalized, as the strict message suggests.
    for (const [written, id] of [
      ['capsule_crm-automation', 'capsule-crm-automation'],
      ['-2chat-automation', '2chat-automation'],
      ['My--Skill', 'my-skill'],
      ['a/b', 'a-b'],
      ['a'.repeat(201), 'a'.repeat(64)],
    ]) {
      const r = validate({ name: written }, 'lenient', written);
      expect(r, written).toMatchObject({ name: id, title: written });
      expect(r.problems.find((p) => p.rule === 'name-normalized')?.message, written).toContain(
        `published as "${id}" (the name normalized)`,
      );
      expect(validate({ name: written }, 'strict', written).name, written).toBeUndefined();
    }
    expect(
      validate({ name: 'PDF Processing' }, 'strict').problems.find((p) => p.rule === 'name-lowercase')?.message,
    ).toContain('use "pdf-processing"');
  });

  it('lenient: a name with no valid id to fall back on stays an error', () => {
    for (const name of ['навык', '..', '技能']) {
      const r = validate({ name }, 'lenient', name);
      expect(r.name, name).toBeUndefined();
      expect(
        r.problems.some((p) => p.severity === 'error' && p.field === 'name' && p.rule !== 'name-normalized'),
        name,
      ).toBe(true);
    }
  });

  it('lenient: a missing name falls back to a valid folder name with a warning; strict refuses', () => {
    const lenient = validateFrontMatter({ description: 'd' }, { folderName: 'pdf-tools', mode: 'lenient' });
    expect(lenient.name).toBe('pdf-tools');
    expect(rules(lenient)).toEqual(['warning:name-required']);
    expect(rules(validateFrontMatter({ description: 'd' }, { folderName: 'PDF Tools', mode: 'lenient' }))).toEqual([
      'error:name-required',
    ]);
    expect(validateFrontMatter({ description: 'd' }, { folderName: 'pdf-tools', mode: 'strict' }).name).toBeUndefined();
  });

  it('both modes: description missing, empty or not a string skips the skill', () => {
    for (const mode of ['strict', 'lenient'] as const) {
      for (const description of [undefined, null, '', '   ', 42]) {
        const r = validateFrontMatter({ name: 'my-skill', description }, { folderName: 'my-skill', mode });
        expect(r.description).toBeUndefined();
        expect(r.problems.some((p) => p.severity === 'error' && p.field === 'description')).toBe(true);
      }
    }
  });

  it('the description skillpress new writes is an error in strict, a warning in lenient; a description about TODOs is not', () => {
    const placeholder = placeholderDescription('Csv Report');
    expect(validate({ description: placeholder }, 'strict').problems).toEqual([
      expect.objectContaining({ severity: 'error', field: 'description', rule: 'scaffold-placeholder' }),
    ]);
    expect(rules(validate({ description: placeholder }, 'lenient'))).toEqual(['warning:scaffold-placeholder']);
    expect(rules(validate({ description: 'TODO: list the open TODO: comments of a repository.' }, 'strict'))).toEqual(
      [],
    );
  });

  it('lenient: over-long fields, wrong types and unknown fields are warnings; registry fields are silent', () => {
    const r = validate(
      {
        description: 'd'.repeat(2000),
        compatibility: 'c'.repeat(600),
        license: 2,
        metadata: { n: 1 },
        'allowed-tools': 5,
        extra: 1,
        tags: ['x'],
      },
      'lenient',
    );
    expect(rules(r).sort()).toEqual([
      'warning:allowed-tools-type',
      'warning:compatibility-length',
      'warning:description-length',
      'warning:license-type',
      'warning:metadata-string-values',
      'warning:unknown-field',
    ]);
    expect(r.registry.tags).toEqual(['x']);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    expect(rules(validate({ description: '😀'.repeat(1024) }, 'strict'))).toEqual([]);
    expect(rules(validate({ description: '😀'.repeat(1025) }, 'strict'))).toEqual(['error:description-length']);
  });

  it('turns a metadata list of mappings into JSON, never "[object Object]"', () => {
    const p = parse(
      '---\nname: my-skill\ndescription: d\nmetadata:\n  diagrams:\n    - type: flow\n    - type: sequence\n---\n',
    );
    const r = validateFrontMatter(p.data, { folderName: 'my-skill', mode: 'lenient', sourceText: p.sourceText });
    expect(r.metadata.diagrams).toBe('[{"type":"flow"},{"type":"sequence"}]');
    expect(r.problems.map((x) => x.message).join('\n')).not.toContain('[object Object]');
  });

  it('keeps metadata values as written when it has to turn them into strings', () => {
    const p = parse('---\nname: my-skill\ndescription: d\nmetadata:\n  version: 1.10\n  tags: [a, b]\n---\n');
    const r = validateFrontMatter(p.data, { folderName: 'my-skill', mode: 'lenient', sourceText: p.sourceText });
    expect(r.metadata).toEqual({ version: '1.10', tags: 'a, b' });
    expect(r.registry.tags).toEqual(['a', 'b']);
  });

  it('rejects a visibility outside public, private, group in both modes', () => {
    for (const mode of ['strict', 'lenient'] as const) {
      const r = validate({ metadata: { visibility: 'internal' } }, mode);
      expect(rules(r)).toContain('error:visibility-value');
      expect(r.registry.visibility).toBe('private');
    }
  });
});

describe('body checks', () => {
  it('finds relative links outside code, with their lines', () => {
    const body =
      'See [a](references/a.md "title") and ![img](<assets/my image.png>).\n```\n[not](code.md)\n```\n`[inline](x.md)` [web](https://example.com) [anchor](#top)\n[ref]: scripts/run.py\n[^1]: GitHub Blog. (2022). A footnote, not a link.\n';
    expect(relativeLinks(body)).toEqual([
      { target: 'references/a.md', line: 1 },
      { target: 'assets/my image.png', line: 1 },
      { target: 'scripts/run.py', line: 6 },
    ]);
  });

  it('warns about missing targets and links leaving the skill; folders and encoded names resolve', async () => {
    const files = new Set(['SKILL.md', 'references/a.md', 'assets/my image.png']);
    const body =
      '[a](references/a.md) [dir](references/) [enc](assets/my%20image.png) [gone](b.md)\n[up](../other/SKILL.md)\n';
    const problems = await checkBody({ body, bodyLine: 5, lines: 6 }, files);
    expect(problems.map((p) => [p.rule, p.line])).toEqual([
      ['link-target-exists', 5],
      ['link-outside-skill', 6],
    ]);
  });

  it("reads {baseDir}/ and ${CLAUDE_SKILL_DIR}/ as the skill folder, as the agent's client fills them in", async () => {
    const files = new Set(['SKILL.md', 'references/a.md', 'scripts/run.py']);
    const body =
      '[a]({baseDir}/references/a.md) [r](${CLAUDE_SKILL_DIR}/scripts/run.py) [e](%7BbaseDir%7D/references/a.md)\n[gone]({baseDir}/references/b.md) [up]({baseDir}/../x.md)\n';
    const problems = await checkBody({ body, bodyLine: 5, lines: 6 }, files);
    expect(problems.map((p) => [p.rule, p.line, /"(.*?)"/.exec(p.message)?.[1]])).toEqual([
      ['link-target-exists', 6, '{baseDir}/references/b.md'],
      ['link-outside-skill', 6, '{baseDir}/../x.md'],
    ]);
  });

  it('warns about a folder or a script named below {baseDir}/ in a command that the skill does not hold', async () => {
    // trailofbits/skills' constant-time-analysis runs `uv run {baseDir}/ct_analyzer/analyzer.py`, a folder of its plugin.
    const files = new Set(['SKILL.md', 'scripts/run.py', 'references/a.md']);
    const body = [
      'Run `uv run {baseDir}/ct_analyzer/analyzer.py <file>` or `python ${CLAUDE_SKILL_DIR}/scripts/run.py`.',
      'Then `bash {baseDir}/scripts/missing.sh` and read [a]({baseDir}/references/b.md).',
      'It writes `{baseDir}/scripts/report.json`; samples are in `{baseDir}/ct_analyzer/tests/`.',
    ].join('\n');
    const problems = await checkBody({ body, bodyLine: 5, lines: 8 }, files);
    expect(problems.map((p) => [p.rule, p.line, /"(.*?)"/.exec(p.message)?.[1]])).toEqual([
      ['link-target-exists', 6, '{baseDir}/references/b.md'],
      ['link-target-exists', 5, '{baseDir}/ct_analyzer/analyzer.py'],
      ['link-target-exists', 6, '{baseDir}/scripts/missing.sh'],
      ['link-target-exists', 7, '{baseDir}/ct_analyzer/tests/'],
    ]);
    expect(problems[1]!.message).toMatch(/agents that install the skill do not have it/);
  });

  it("warns about files of the Claude Code plugin named through ${CLAUDE_PLUGIN_ROOT}; the skill's own are checked as links", async () => {
    // trailofbits/skills: plugins/<plugin>/skills/<skill>/SKILL.md, with scripts and prompts beside skills/.
    const files = new Set(['SKILL.md', 'references/a.md']);
    const body = [
      'Run `"${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh" <path>`, then again: "${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh".',
      'Bash: ls "${CLAUDE_PLUGIN_ROOT}/skills/variant/references"',
      'Read $CLAUDE_PLUGIN_ROOT/skills/variant/references/a.md and ${CLAUDE_PLUGIN_ROOT}/skills/variant/references/b.md.',
      'If `${CLAUDE_PLUGIN_ROOT}` is empty, look for the script.',
    ].join('\n');
    const problems = await checkBody({ body, bodyLine: 5, lines: 9 }, files, undefined, 'variant');
    expect(problems.map((p) => [p.rule, p.line, /"(.*?)"/.exec(p.message)?.[1]])).toEqual([
      ['plugin-root-file', 5, '${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh'],
      ['link-target-exists', 7, '${CLAUDE_PLUGIN_ROOT}/skills/variant/references/b.md'],
    ]);
    expect(problems[0]!.message).toMatch(/not published with the skill.*\$\{CLAUDE_SKILL_DIR\}/);
    // Another skill of the same plugin is outside this one.
    const other = await checkBody({ body, bodyLine: 5, lines: 9 }, files, undefined, 'c-review');
    expect(other.filter((p) => p.rule === 'plugin-root-file')).toHaveLength(4);
  });

  it("names the body's lines still holding a template's placeholder, with the mode's severity; other TODOs are not", () => {
    const body =
      '# Csv Report\n\n1. TODO: the first thing to do.\n2. Mark each TODO: in the code.\n   **Say:** TODO: what to tell the customer.\n';
    expect(bodyPlaceholderProblem({ body, bodyLine: 5 }, 'error')).toEqual({
      severity: 'error',
      field: 'body',
      line: 7,
      rule: 'scaffold-placeholder',
      message: expect.stringContaining('2 placeholder(s) that skillpress new wrote (lines 7, 9)'),
    });
    expect(bodyPlaceholderProblem({ body: '- TODO: triage the open TODO: comments.\n', bodyLine: 5 }, 'error')).toBe(
      undefined,
    );
  });

  it('warns when SKILL.md is over 500 lines and the body over 5,000 tokens', async () => {
    expect(await checkBody({ body: 'x', bodyLine: 4, lines: 500 }, new Set())).toEqual([]);
    const long = await checkBody({ body: 'word '.repeat(6000), bodyLine: 4, lines: 501 }, new Set());
    expect(long.map((p) => p.rule)).toEqual(['skill-md-lines', 'body-tokens']);
  });
});
