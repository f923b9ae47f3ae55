/**
 * Syntax highlighting for the file viewer, at build time, with Shiki. Tokens get classes
 * (`t-keyword`, `t-string`, …) instead of inline colours, so the strict Content-Security-Policy
 * (no inline styles) holds, and one stylesheet colours them for light and dark mode.
 */
import type { ElementContent } from 'hast';
import { createCssVariablesTheme, createHighlighter, createJavaScriptRegexEngine, type BundledLanguage, type BundledTheme, type Highlighter } from 'shiki';

/** Files larger than this are shown as plain text (highlighting cost grows with size). */
export const HIGHLIGHT_MAX_BYTES = 100 * 1024;

const THEME = createCssVariablesTheme({ name: 'skillpress', variablePrefix: '--t-', fontStyle: true });

/** File type (extension) or file name → Shiki language. Anything else is plain text. */
const LANGUAGES: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  tsx: 'tsx',
  jsx: 'jsx',
  json: 'json',
  jsonl: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  md: 'markdown',
  markdown: 'markdown',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  html: 'html',
  htm: 'html',
  xml: 'xml',
  svg: 'xml',
  css: 'css',
  sql: 'sql',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  ps1: 'powershell',
  r: 'r',
  lua: 'lua',
  ini: 'ini',
  cfg: 'ini',
  dockerfile: 'docker',
  makefile: 'make',
  csv: 'csv',
};

export function languageFor(fileName: string): string | undefined {
  const lower = fileName.toLowerCase();
  if (LANGUAGES[lower]) return LANGUAGES[lower];
  const dot = lower.lastIndexOf('.');
  return dot >= 0 ? LANGUAGES[lower.slice(dot + 1)] : undefined;
}

let highlighter: Promise<Highlighter> | undefined;
const loaded = new Map<string, Promise<void>>();

/** One highlighter per process; each grammar is loaded the first time a file needs it. */
async function getHighlighter(lang: string): Promise<Highlighter> {
  highlighter ??= createHighlighter({ themes: [THEME], langs: [], engine: createJavaScriptRegexEngine() });
  const hl = await highlighter;
  if (!loaded.has(lang)) loaded.set(lang, hl.loadLanguage(lang as BundledLanguage));
  await loaded.get(lang);
  return hl;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const FONT_CLASSES: Array<[number, string]> = [
  [1, 't-italic'],
  [2, 't-bold'],
  [4, 't-underline'],
];

/** `var(--t-token-keyword)` → `t-keyword`. */
function colorClass(color: string | undefined): string | undefined {
  const m = color && /^var\(--t-(?:token-)?([a-z-]+)/.exec(color);
  return m && m[1] !== 'foreground' ? `t-${m[1]}` : undefined;
}

interface Token {
  text: string;
  classes: string[];
}

/** Lines of tokens with their classes; undefined when the language is unknown or the code large. */
async function tokenize(code: string, lang: string | undefined): Promise<Token[][] | undefined> {
  if (!lang || code.length > HIGHLIGHT_MAX_BYTES) return undefined;
  const hl = await getHighlighter(lang);
  return hl.codeToTokensBase(code, { lang: lang as BundledLanguage, theme: THEME.name as BundledTheme }).map((line) =>
    line.map((t) => {
      const style = t.fontStyle ?? 0;
      const classes = [colorClass(t.color), ...FONT_CLASSES.filter(([bit]) => style > 0 && (style & bit) !== 0).map(([, c]) => c)];
      return { text: t.content, classes: classes.filter((c): c is string => c !== undefined) };
    }),
  );
}

/**
 * The inner HTML of a `<code>` element: one `<span class="line">` per line, tokens as spans
 * with classes. Plain (escaped) text when the language is unknown or the file is large.
 */
export async function highlightCode(code: string, fileName: string): Promise<{ html: string; language: string }> {
  const lang = languageFor(fileName);
  const lines = await tokenize(code, lang);
  if (!lines) {
    return { html: code.split(/\r?\n/).map((l) => `<span class="line">${escapeHtml(l)}</span>`).join('\n'), language: 'text' };
  }
  const html = lines
    .map((line) => {
      const spans = line.map((t) => (t.classes.length ? `<span class="${t.classes.join(' ')}">${escapeHtml(t.text)}</span>` : escapeHtml(t.text)));
      return `<span class="line">${spans.join('')}</span>`;
    })
    .join('\n');
  return { html, language: lang! };
}

/** A fence's info string (`py`, `python`, `bash`) → Shiki language, if we highlight it. */
export function fenceLanguage(info: string): string | undefined {
  const name = info.toLowerCase();
  if (LANGUAGES[name]) return LANGUAGES[name];
  return Object.values(LANGUAGES).includes(name) ? name : undefined;
}

/** Highlighted children for a `<code>` element (hast), for code blocks in rendered markdown. */
export async function highlightHast(code: string, lang: string): Promise<ElementContent[] | undefined> {
  const lines = await tokenize(code, lang);
  if (!lines) return undefined;
  const out: ElementContent[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push({ type: 'text', value: '\n' });
    for (const t of line) {
      out.push(t.classes.length ? { type: 'element', tagName: 'span', properties: { className: t.classes }, children: [{ type: 'text', value: t.text }] } : { type: 'text', value: t.text });
    }
  });
  return out;
}
