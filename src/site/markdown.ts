/**
 * SKILL.md → safe HTML. Skill content is untrusted: raw HTML in markdown is dropped (never
 * passed through), and the result is sanitized with GitHub's schema — no `<script>`, no
 * `<iframe>`, no event-handler attributes, no `javascript:` or `data:` URLs.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import type { Element, Root } from 'hast';
import { fenceLanguage, highlightHast } from './highlight.ts';

export interface RenderOptions {
  /**
   * Rewrite a relative link or image source found in the markdown (e.g. `scripts/run.py`,
   * a file of the skill) to a URL of the site; return undefined to leave it unchanged.
   */
  resolveLink?: (href: string, kind: 'link' | 'image') => string | undefined;
}

const RELATIVE = /^(?![a-z][a-z0-9+.-]*:|\/|#)/i;

/** Relative links in the markdown point at the skill's own files: point them at the feed. */
function rewriteLinks() {
  return (tree: Root, file: { data: unknown }) => {
    const resolve = (file.data as { resolveLink?: RenderOptions['resolveLink'] }).resolveLink;
    if (!resolve) return;
    const visit = (node: Root | Element): void => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const attr = child.tagName === 'a' ? 'href' : child.tagName === 'img' ? 'src' : undefined;
        const value = attr ? child.properties[attr] : undefined;
        if (attr && typeof value === 'string' && RELATIVE.test(value)) {
          const next = resolve(value, attr === 'href' ? 'link' : 'image');
          if (next !== undefined) child.properties[attr] = next;
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

/** Links inside skill content leave the site: tell the browser they are not ours. */
function externalLinks() {
  return (tree: Root) => {
    const visit = (node: Root | Element): void => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        if (child.tagName === 'a' && typeof child.properties.href === 'string' && /^https?:/i.test(child.properties.href)) {
          child.properties.rel = ['nofollow', 'noopener', 'noreferrer'];
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

const schema = {
  ...defaultSchema,
  // Only web and mail links survive; images only from the site itself or https.
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
  attributes: { ...defaultSchema.attributes, a: [...(defaultSchema.attributes?.a ?? []), 'rel'] },
};

/** Built once: creating a unified pipeline costs far more than running it. */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  // allowDangerousHtml stays false: raw HTML in the markdown is dropped, not escaped-and-kept.
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(externalLinks)
  .use(rewriteLinks)
  .use(rehypeStringify)
  .freeze();

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  return String(processor.processSync({ value: markdown, data: { resolveLink: options.resolveLink } }));
}

/**
 * Like renderMarkdown, and code blocks with a known language (```python) are highlighted.
 * Highlighting runs on the sanitized tree and only adds spans with our own classes.
 */
export async function renderMarkdownHighlighted(markdown: string, options: RenderOptions = {}): Promise<string> {
  const file = { value: markdown, data: { resolveLink: options.resolveLink } };
  const tree = processor.runSync(processor.parse(markdown), file) as Root;
  const blocks: Array<{ code: Element; lang: string }> = [];
  const visit = (node: Root | Element): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'pre') {
        const code = child.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
        const cls = (code?.properties.className as string[] | undefined)?.find((c) => c.startsWith('language-'));
        const lang = cls ? fenceLanguage(cls.slice('language-'.length)) : undefined;
        if (code && lang) blocks.push({ code, lang });
        continue;
      }
      visit(child);
    }
  };
  visit(tree);
  for (const { code, lang } of blocks) {
    const text = toText(code);
    const children = await highlightHast(text.replace(/\n$/, ''), lang);
    if (children) code.children = children;
  }
  return processor.stringify(tree);
}

function toText(node: Element): string {
  return node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? toText(c) : '')).join('');
}

/**
 * Resolve a markdown link relative to the skill folder (`scripts/run.py`, `./data/x.csv`) to
 * one of the skill's files: images load the raw file, links open it in the page's viewer.
 */
export function skillFileLinkResolver(paths: ReadonlySet<string>, fileUrl: (p: string) => string, viewerUrl: (p: string) => string) {
  return (href: string, kind: 'link' | 'image'): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(href.replace(/[?#].*$/, ''));
    } catch {
      return undefined;
    }
    const normalized = normalizeRelative(decoded);
    if (!normalized || !paths.has(normalized)) return undefined;
    return kind === 'image' ? fileUrl(normalized) : viewerUrl(normalized);
  };
}

/** `./a/../b.md` → `b.md`; undefined when it climbs out of the skill folder. */
function normalizeRelative(p: string): string | undefined {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.pop()) return undefined;
    } else out.push(seg);
  }
  return out.join('/');
}
