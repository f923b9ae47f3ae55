/**
 * A front matter that is not valid YAML is reported on the line to fix, in the author's terms.
 */
import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown } from '../../src/load/frontmatter.ts';

const fm = (...lines: string[]): string => `---\n${lines.join('\n')}\n---\nBody\n`;
const error = (text: string): { line?: number; message: string } => {
  const r = parseSkillMarkdown(text);
  if (r.ok) throw new Error('expected a YAML error');
  expect(r.rule).toBe('frontmatter-yaml');
  return { line: r.line, message: r.message };
};

describe('YAML errors in plain words', () => {
  it('puts an unclosed quote on the line that opened it, not at the end of the front matter', () => {
    const text = fm('name: pdf', 'description: "Fill PDF forms', 'license: MIT', 'metadata:', '  version: "1"');
    expect(error(text)).toEqual({
      line: 3,
      message:
        'front matter is not valid YAML: the value of "description" starts with " but the quote is never closed: end the value with ", or remove the opening "',
    });
    expect(error(fm('name: pdf', "description: 'It''s for PDFs", 'license: MIT')).line).toBe(3);
  });

  it('skips a quote closed on its own line, an escaped one included', () => {
    const text = fm('name: pdf', 'description: "say \\"hi\\" first"', 'license: "MIT');
    expect(error(text)).toMatchObject({
      line: 4,
      message: expect.stringContaining('the value of "license" starts with "'),
    });
  });

  it('names a tab used as indentation', () => {
    expect(error(fm('name: pdf', '\tdescription: x'))).toEqual({
      line: 3,
      message: 'front matter is not valid YAML: the line is indented with a tab: YAML indents with spaces only',
    });
  });

  it('points at a field indented under the value above it', () => {
    expect(error(fm('name: pdf', 'description: Fill forms', '  tags: [pdf]'))).toMatchObject({
      line: 4,
      message: expect.stringContaining('this line is indented under the value above it'),
    });
  });

  it('names the value to quote when an unquoted ": " is the only problem, on its line', () => {
    expect(error(fm('name: pdf', 'license: MIT', 'description: Use when: a PDF is attached'))).toEqual({
      line: 4,
      message: 'front matter is not valid YAML: the value of "description" on line 4 contains ": ": wrap it in quotes',
    });
  });

  it("keeps the library's words for errors it has no plainer wording for", () => {
    expect(error(fm('name: pdf', 'tags: [a, b', 'license: MIT')).message).toContain('Flow sequence');
  });
});
