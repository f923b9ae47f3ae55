/**
 * Syntax highlighting in the browser, when code is shown: a file view opened on a skill page,
 * or a code block of SKILL.md scrolled into view. Loaded on first use (this module and each
 * grammar are chunks of their own), so a page that shows no code downloads none of it.
 *
 * Shiki with its JavaScript regex engine (no WebAssembly, so the Content-Security-Policy needs
 * no `wasm-unsafe-eval`). Tokens become spans with classes (`t-keyword`, …) built with DOM
 * APIs: text is only ever set as text, and no inline style is written.
 */
import {
  createCssVariablesTheme,
  createHighlighterCore,
  type HighlighterCore,
  type LanguageRegistration,
} from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { HIGHLIGHT_MAX_BYTES } from '../languages.ts';
import { own } from '../../lib/own.ts';

type Grammar = () => Promise<{ default: LanguageRegistration[] }>;

/** Every language of src/site/languages.ts → its grammar, as a chunk loaded on demand. */
const GRAMMARS: Record<string, Grammar> = {
  c: () => import('shiki/langs/c.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  csharp: () => import('shiki/langs/csharp.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  csv: () => import('shiki/langs/csv.mjs'),
  docker: () => import('shiki/langs/docker.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  ini: () => import('shiki/langs/ini.mjs'),
  java: () => import('shiki/langs/java.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  kotlin: () => import('shiki/langs/kotlin.mjs'),
  lua: () => import('shiki/langs/lua.mjs'),
  make: () => import('shiki/langs/make.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  php: () => import('shiki/langs/php.mjs'),
  powershell: () => import('shiki/langs/powershell.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  r: () => import('shiki/langs/r.mjs'),
  ruby: () => import('shiki/langs/ruby.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
};

const THEME = createCssVariablesTheme({ name: 'skillpress', variablePrefix: '--t-', fontStyle: true });

/** Shiki's font-style bits → our classes. */
const FONT_CLASSES: Array<[number, string]> = [
  [1, 't-italic'],
  [2, 't-bold'],
  [4, 't-underline'],
];

let highlighter: Promise<HighlighterCore> | undefined;
const loaded = new Map<string, Promise<void>>();

async function highlighterFor(lang: string): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({ themes: [THEME], langs: [], engine: createJavaScriptRegexEngine() });
  const hl = await highlighter;
  if (!loaded.has(lang))
    loaded.set(
      lang,
      GRAMMARS[lang]!().then((m) => hl.loadLanguage(...m.default)),
    );
  await loaded.get(lang);
  return hl;
}

/** `var(--t-token-keyword)` → `t-keyword`; plain text (the foreground) has no class. */
function colorClass(color: string | undefined): string | undefined {
  const m = color && /^var\(--t-(?:token-)?([a-z-]+)/.exec(color);
  return m && m[1] !== 'foreground' ? `t-${m[1]}` : undefined;
}

function tokenNode(text: string, color: string | undefined, fontStyle: number): Node {
  const classes = [
    colorClass(color),
    ...FONT_CLASSES.filter(([bit]) => fontStyle > 0 && (fontStyle & bit) !== 0).map(([, c]) => c),
  ].filter(Boolean);
  if (classes.length === 0) return document.createTextNode(text);
  const span = document.createElement('span');
  span.className = classes.join(' ');
  span.textContent = text;
  return span;
}

/**
 * Highlight the text of `code` (a `<code>` element) as `lang`. With `lines`, each line is a
 * `<span class="line">` (the file viewer numbers them); otherwise lines are joined by newlines.
 * Returns false, leaving the element as it was, for unknown languages and large text.
 */
export async function highlightElement(code: HTMLElement, lang: string, lines: boolean): Promise<boolean> {
  const text = code.textContent ?? '';
  if (!own(GRAMMARS, lang) || text.length > HIGHLIGHT_MAX_BYTES) return false;
  const hl = await highlighterFor(lang);
  const tokens = hl.codeToTokensBase(text.replace(/\n$/, ''), { lang, theme: THEME.name });
  const out = document.createDocumentFragment();
  tokens.forEach((line, i) => {
    const parent = lines ? out.appendChild(document.createElement('span')) : out;
    if (lines) (parent as HTMLElement).className = 'line';
    else if (i > 0) out.append('\n');
    for (const t of line) parent.appendChild(tokenNode(t.content, t.color, t.fontStyle ?? 0));
    if (lines && i < tokens.length - 1) out.append('\n');
  });
  code.replaceChildren(out);
  code.dataset.highlighted = lang;
  return true;
}
