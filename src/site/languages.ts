/**
 * Which files and code blocks are highlighted, and with which grammar. The build marks code with
 * its language (`data-language`, `language-*`); the browser highlights it when it is shown
 * (src/site/client/highlight.ts). Anything not listed here stays plain text.
 */
import { own } from '../lib/own.ts';

/** File type (extension) or file name → Shiki language. */
export const LANGUAGES: Readonly<Record<string, string>> = {
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
  shell: 'shellscript',
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

/** Text larger than this is shown plain: highlighting cost grows with size (docs/site.md, "Figures"). */
export const HIGHLIGHT_MAX_BYTES = 100 * 1024;

export function languageFor(fileName: string): string | undefined {
  const lower = fileName.toLowerCase();
  const byName = own(LANGUAGES, lower);
  if (byName) return byName;
  const dot = lower.lastIndexOf('.');
  return dot >= 0 ? own(LANGUAGES, lower.slice(dot + 1)) : undefined;
}

/** Prose: text written to be read in lines of any width (a file view wraps it; code keeps its lines). */
const PROSE_TYPES = new Set(['md', 'markdown', 'mdx', 'txt', 'text', 'rst', 'adoc', 'asciidoc']);
const PROSE_NAMES = new Set(['license', 'licence', 'copying', 'notice', 'authors']);

export function isProse(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return PROSE_NAMES.has(lower) || (dot >= 0 && PROSE_TYPES.has(lower.slice(dot + 1)));
}

const NAMES = new Set(Object.values(LANGUAGES));

/** A fence's info string (`py`, `python`, `bash`) → Shiki language, if we highlight it. */
export function fenceLanguage(info: string): string | undefined {
  const name = info.toLowerCase();
  return own(LANGUAGES, name) ?? (NAMES.has(name) ? name : undefined);
}
