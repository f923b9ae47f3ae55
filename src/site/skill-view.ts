/**
 * Everything the skill page shows, prepared at build time from the skill's feed JSON and its
 * files: rendered SKILL.md, the file tree, and what the viewer shows for each file.
 */
import type { FeedFile, FeedSkill } from '../model/feed.ts';
import { readFeedFile } from './feed-data.ts';
import { highlightCode } from './highlight.ts';
import { renderMarkdownHighlighted, skillFileLinkResolver } from './markdown.ts';
import type { SiteUrls } from './urls.ts';

/** Text shown in the viewer is cut here; the raw file link always has all of it. */
export const VIEWER_MAX_BYTES = 256 * 1024;

export type FileView =
  | { kind: 'text'; html: string; language: string; truncated: boolean }
  | { kind: 'image' }
  | { kind: 'binary' }
  | { kind: 'skipped'; reason: string };

export interface ViewedFile {
  file: FeedFile;
  /** Anchor of the file's panel on the page (`file-3`). */
  anchor: string;
  url: string;
  view: FileView;
}

export interface TreeNode {
  name: string;
  /** Set for files; folders have children. */
  file?: ViewedFile;
  children: TreeNode[];
}

/** Images a browser shows safely in `<img>` (SVG in `<img>` runs no script). */
const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|avif|svg\+xml|bmp|x-icon|vnd\.microsoft\.icon)$/;

/** SKILL.md first, then folders before files, by name: the order of a file browser. */
export function orderFiles(files: readonly FeedFile[]): FeedFile[] {
  return [...files].sort((a, b) => {
    if (a.path === 'SKILL.md') return -1;
    if (b.path === 'SKILL.md') return 1;
    const pa = a.path.split('/');
    const pb = b.path.split('/');
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
      const aDir = i < pa.length - 1;
      const bDir = i < pb.length - 1;
      if (aDir !== bDir) return aDir ? -1 : 1;
      if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
    }
    return pa.length - pb.length;
  });
}

async function viewOf(skill: FeedSkill, file: FeedFile): Promise<FileView> {
  if (file.skipped) return { kind: 'skipped', reason: file.skipped.reason };
  if (IMAGE_MIME.test(file.mime)) return { kind: 'image' };
  if (file.encoding !== 'utf-8') return { kind: 'binary' };
  const bytes = readFeedFile(skill.card.id, file);
  const truncated = bytes.length > VIEWER_MAX_BYTES;
  const text = (truncated ? bytes.subarray(0, VIEWER_MAX_BYTES) : bytes).toString('utf8');
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const { html, language } = await highlightCode(text, name);
  return { kind: 'text', html, language, truncated };
}

export async function viewFiles(skill: FeedSkill, urls: SiteUrls): Promise<ViewedFile[]> {
  const ordered = orderFiles(skill.files);
  return Promise.all(
    ordered.map(async (file, i) => ({
      file,
      anchor: `file-${i + 1}`,
      url: urls.file(skill.card.id, file.path),
      view: await viewOf(skill, file),
    })),
  );
}

/** Nest files by folder for the tree. */
export function fileTree(files: readonly ViewedFile[]): TreeNode[] {
  const root: TreeNode = { name: '', children: [] };
  for (const f of files) {
    const parts = f.file.path.split('/');
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      let next = node.children.find((c) => !c.file && c.name === dir);
      if (!next) {
        next = { name: dir, children: [] };
        node.children.push(next);
      }
      node = next;
    }
    node.children.push({ name: parts[parts.length - 1]!, file: f, children: [] });
  }
  return root.children;
}

/** SKILL.md's body as sanitized HTML; links to the skill's own files open them in the viewer. */
export function renderSkillBody(skill: FeedSkill, files: readonly ViewedFile[], urls: SiteUrls): Promise<string> {
  const byPath = new Map(files.map((f) => [f.file.path, f]));
  return renderMarkdownHighlighted(skill.body, {
    resolveLink: skillFileLinkResolver(
      new Set(byPath.keys()),
      (p) => urls.file(skill.card.id, p),
      (p) => `#${byPath.get(p)!.anchor}`,
    ),
  });
}
