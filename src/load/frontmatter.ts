/**
 * Split SKILL.md into YAML front matter and markdown body. gray-matter does the split; the
 * `yaml` library parses (YAML 1.2 core schema: no surprise dates, and errors with line numbers).
 */
import matter from 'gray-matter';
import YAML from 'yaml';

export type FrontMatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; bodyLine: number }
  | { ok: false; rule: 'frontmatter-missing' | 'frontmatter-yaml' | 'frontmatter-not-mapping'; line?: number; message: string };

const engines = {
  yaml: {
    parse: (text: string): object => {
      const doc = YAML.parse(text, { uniqueKeys: true });
      return doc === null || doc === undefined ? {} : doc;
    },
  },
};

export function parseSkillMarkdown(raw: string): FrontMatterResult {
  // A UTF-8 BOM and CRLF line endings are common from Windows editors; both load.
  const text = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n');
  if (!/^---[ \t]*\n/.test(text)) {
    return { ok: false, rule: 'frontmatter-missing', line: 1, message: 'SKILL.md must start with YAML front matter between "---" lines' };
  }
  const close = /\n---[ \t]*(\n|$)/.exec(text.slice(3));
  if (!close) {
    return { ok: false, rule: 'frontmatter-missing', line: 1, message: 'front matter is not closed: add a "---" line after it' };
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Passing an options object bypasses gray-matter's global cache (it keys on content only).
    parsed = matter(text, { engines } as unknown as Parameters<typeof matter>[1]);
  } catch (err) {
    const e = err as { linePos?: Array<{ line: number }>; message: string };
    const yamlLine = e.linePos?.[0]?.line;
    return {
      ok: false,
      rule: 'frontmatter-yaml',
      // gray-matter hands YAML the text after the opening `---`, starting with its newline, so
      // YAML's line numbers are already SKILL.md's.
      line: yamlLine ?? 1,
      message: `front matter is not valid YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
    };
  }
  const data: unknown = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, rule: 'frontmatter-not-mapping', line: 2, message: 'front matter must be a YAML mapping of fields' };
  }
  const frontLines = text.slice(0, 3 + close.index + close[0].length).split('\n').length - (close[1] === '\n' ? 1 : 0);
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content, bodyLine: frontLines + 1 };
}
