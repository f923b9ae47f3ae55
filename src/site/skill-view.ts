/**
 * What a skill's pages show, prepared from the skill's feed JSON: the ordered file list with
 * each file's view URL, and the file tree.
 */
import type { FeedFile, FeedSkill } from '../model/feed.ts';
import type { SiteUrls } from './urls.ts';

/**
 * A file's page repeats the skill's file tree up to this many files; beyond, it links to the
 * tree on the skill page (the tree on every file's page would grow with the square of the count).
 */
export const FILE_PAGE_TREE_MAX = 100;

export interface ListedFile {
  file: FeedFile;
  /** 1-based position in the ordered list; tree links carry it (`data-file-link`). */
  index: number;
  /** The file's own page. */
  viewUrl: string;
}

export interface TreeNode {
  name: string;
  /** Set for files; folders have children. */
  file?: ListedFile;
  children: TreeNode[];
}

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

export function listFiles(skill: FeedSkill, urls: SiteUrls): ListedFile[] {
  return orderFiles(skill.files).map((file, i) => ({
    file,
    index: i + 1,
    viewUrl: urls.fileView(skill.card.id, file.path),
  }));
}

/**
 * A file or folder name cut after each `_`, `-` and `.`: the tree puts a line-break opportunity
 * (`<wbr>`) between the parts, so a long name wraps between its words (`anomaly_` /
 * `detection.json`) rather than inside one; a word longer than the column still breaks anywhere.
 */
export function nameParts(name: string): string[] {
  return name.match(/[^_.-]*[_.-]+|[^_.-]+$/g) ?? [name];
}

/**
 * A file's path as HTML with a line-break opportunity (`<wbr>`) after each `/` and after each
 * `_`, `-` and `.` of its names, as the tree wraps them: the file panel's heading then wraps a
 * long path between words (`anomaly_` / `detection.png`) on a phone, not inside one.
 */
export function breakablePathHtml(filePath: string, escape: (s: string) => string): string {
  return filePath
    .split('/')
    .map((segment) => nameParts(segment).map(escape).join('<wbr>'))
    .join('/<wbr>');
}

/** Nest files by folder for the tree. */
export function fileTree(files: readonly ListedFile[]): TreeNode[] {
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
