/** MIME types by file name, with the types skill folders commonly hold that `mime` lacks. */
import mime from 'mime';
import { own } from './own.ts';

const EXTRA: Record<string, string> = {
  py: 'text/x-python',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  toml: 'application/toml',
  ini: 'text/plain',
  cfg: 'text/plain',
  env: 'text/plain',
  txt: 'text/plain',
  md: 'text/markdown',
  mdx: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
};

export function fileType(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : 'unknown';
}

/** MIME type for a file; `encoding` decides the fallback for unknown extensions. */
export function mimeType(name: string, encoding: 'utf-8' | 'base64'): string {
  const ext = fileType(name);
  return own(EXTRA, ext) ?? mime.getType(name) ?? (encoding === 'utf-8' ? 'text/plain' : 'application/octet-stream');
}
