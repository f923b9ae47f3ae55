/**
 * Syntax highlighting for the file viewer, at build time, with Shiki. Tokens get classes
 * (`t-keyword`, `t-string`, …) instead of inline colours, so the strict Content-Security-Policy
 * (no inline styles) holds, and one stylesheet colours them for light and dark mode.
 */
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

/**
 * The inner HTML of a `<code>` element: one `<span class="line">` per line, tokens as spans
 * with classes. Plain (escaped) text when the language is unknown or the file is large.
 */
export async function highlightCode(code: string, fileName: string): Promise<{ html: string; language: string }> {
  const lang = languageFor(fileName);
  const lines = code.split(/\r?\n/);
  if (!lang || code.length > HIGHLIGHT_MAX_BYTES) {
    return { html: lines.map((l) => `<span class="line">${escapeHtml(l)}</span>`).join('\n'), language: 'text' };
  }
  const hl = await getHighlighter(lang);
  const tokens = hl.codeToTokensBase(code, { lang: lang as BundledLanguage, theme: THEME.name as BundledTheme });
  const html = tokens
    .map((line) => {
      const spans = line.map((t) => {
        const classes = [colorClass(t.color), ...FONT_CLASSES.filter(([bit]) => (t.fontStyle ?? 0) > 0 && ((t.fontStyle ?? 0) & bit) !== 0).map(([, c]) => c)].filter(Boolean);
        const text = escapeHtml(t.content);
        return classes.length ? `<span class="${classes.join(' ')}">${text}</span>` : text;
      });
      return `<span class="line">${spans.join('')}</span>`;
    })
    .join('\n');
  return { html, language: lang };
}
