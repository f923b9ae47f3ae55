/**
 * SKILL.md → safe HTML, with markdown-it (CommonMark + GFM tables, strikethrough and
 * autolinks, footnotes (`[^1]`, markdown-it-footnote), GitHub's alerts: `> [!NOTE]`). Skill content is untrusted, so the renderer only ever emits markup it generates
 * itself:
 *
 * - raw HTML in the markdown is dropped (never passed through, never shown as markup);
 * - links may only be `http(s)`, `mailto`, fragments or relative; images only `http(s)` or
 *   relative — never `javascript:`, `data:` or anything else;
 * - text and attribute values are escaped by markdown-it; table alignment becomes a class, so
 *   no inline style reaches the page (the Content-Security-Policy forbids them).
 *
 * markdown-it replaced remark/rehype here: on a 290-skill public catalog it renders every
 * SKILL.md in about 1 s where remark took 13 s (docs/site.md, "Figures").
 */
import markdownIt, { type Env, type MarkdownIt, type Token } from 'markdown-it';
import footnotes from 'markdown-it-footnote';
import { folderPaths, withoutSkillDirPlaceholder } from '../lib/paths.ts';

export interface RenderOptions {
  /**
   * Rewrite a relative link or image source found in the markdown (e.g. `scripts/run.py`,
   * a file of the skill); return undefined to leave it unchanged.
   */
  resolveLink?: (href: string, kind: 'link' | 'image') => ResolvedLink | undefined;
}

export interface ResolvedLink {
  href: string;
  /** Extra attributes for the link (e.g. `data-file-link`, which opens a file view in place). */
  attrs?: Record<string, string>;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

/** A URL with no scheme (relative, absolute path or fragment) or one of `schemes`. */
function allowedUrl(url: string, schemes: ReadonlySet<string>): boolean {
  // Browsers ignore tabs and newlines inside a scheme ("java\tscript:"); so do we, before checking.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const scheme = SCHEME.exec(url.replace(/[\u0000-\u0020]/g, ''))?.[1];
  return scheme === undefined || schemes.has(scheme.toLowerCase());
}

/**
 * A URL with no scheme whose path a server may read differently from a host's header rules: a
 * doubled slash after the start (`/a//b`, `a//b`), a backslash, or an encoded slash.
 */
function nonCanonicalPath(url: string): boolean {
  if (SCHEME.test(url)) return false;
  const pathPart = url.replace(/[?#].*$/s, '').replace(/^[/\\]{2}[^/\\]*/, '');
  return /[/\\]{2}|\\|%2f|%5c/i.test(pathPart);
}

const isRelative = (url: string): boolean => !SCHEME.test(url) && !url.startsWith('/') && !url.startsWith('#');

function createRenderer(): MarkdownIt {
  // html: true only so raw HTML becomes its own tokens, which the rules below drop.
  const md = markdownIt({ html: true, linkify: true, typographer: false });
  md.validateLink = (url) => allowedUrl(url, LINK_SCHEMES);
  // Footnotes as GitHub renders them; their links are fragments of the page, their text markdown like the rest.
  md.use(footnotes);
  md.renderer.rules.html_block = () => '';
  md.renderer.rules.html_inline = () => '';
  md.core.ruler.push('skillpress_alignment', (state) => {
    for (const token of state.tokens) if (token.type === 'th_open' || token.type === 'td_open') alignmentToClass(token);
  });
  md.core.ruler.push('skillpress_task_lists', (state) => taskLists(state.tokens));
  // After the block rules, before inline parsing: the marker is cut from the inline source.
  md.core.ruler.after('block', 'skillpress_alerts', (state) => githubAlerts(state.tokens));
  md.renderer.rules.alert_open = (tokens, i) => {
    const { kind } = tokens[i]!.meta as { kind: AlertKind };
    return `<div class="markdown-alert markdown-alert-${kind}" role="note"><p class="markdown-alert-title">${ALERT_TITLES[kind]}</p>\n`;
  };
  md.renderer.rules.alert_close = () => '</div>\n';
  md.renderer.rules.task_checkbox = (tokens, i) =>
    `<span class="task-box">${(tokens[i]!.meta as { checked: boolean }).checked ? '☑' : '☐'}</span> `;
  // A code block scrolls sideways: make it reachable from the keyboard.
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (...args) => fence(...args).replace(/^<pre>/, '<pre tabindex="0">');
  const render = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, i, options, env) => {
    rewriteLink(tokens[i]!, 'href', 'link', env as RenderEnv);
    return render(tokens, i, options);
  };
  const image = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    if (!allowedUrl(String(token.attrGet('src') ?? ''), IMAGE_SCHEMES)) return md.utils.escapeHtml(token.content);
    rewriteLink(token, 'src', 'image', env as RenderEnv);
    return image(tokens, i, options, env, self);
  };
  return md;
}

interface RenderEnv extends Env {
  resolveLink?: RenderOptions['resolveLink'];
}

const ALERT_TITLES = { note: 'Note', tip: 'Tip', important: 'Important', warning: 'Warning', caution: 'Caution' };
type AlertKind = keyof typeof ALERT_TITLES;
const ALERT_MARKER = /^\[!(note|tip|important|warning|caution)\](?:[ \t]*(?:\r?\n|$)|[ \t]+)/i;

/**
 * GitHub's alerts: a blockquote that starts with `[!NOTE]` (or TIP, IMPORTANT, WARNING, CAUTION)
 * becomes a titled callout, as GitHub shows it, instead of a quote starting "[!NOTE]". Text after
 * the marker on its line (`> [!TIP] Ask first.`, common in public skills) is the alert's first
 * paragraph. The title is one of five fixed words: no text of the skill reaches it.
 */
function githubAlerts(tokens: Token[]): void {
  tokens.forEach((open, i) => {
    const [paragraph, inline] = [tokens[i + 1], tokens[i + 2]];
    if (open.type !== 'blockquote_open' || paragraph?.type !== 'paragraph_open' || inline?.type !== 'inline') return;
    const marker = ALERT_MARKER.exec(inline.content);
    if (!marker) return;
    // The quote's own close is the next one at its level (a quote nested inside closes deeper).
    const close = tokens.slice(i + 1).find((t) => t.type === 'blockquote_close' && t.level === open.level)!;
    inline.content = inline.content.slice(marker[0].length);
    if (inline.content.trim() === '') paragraph.hidden = tokens[i + 3]!.hidden = true;
    open.type = 'alert_open';
    open.meta = { kind: marker[1]!.toLowerCase() };
    close.type = 'alert_close';
  });
}

/** GFM task lists: a list item starting with `[ ]` or `[x]` starts with a box (☐, ☑). */
function taskLists(tokens: Token[]): void {
  tokens.forEach((token, i) => {
    const first = token.type === 'inline' && tokens[i - 2]?.type === 'list_item_open' ? token.children?.[0] : undefined;
    const mark = first?.type === 'text' ? /^\[([ xX])\]\s/.exec(first.content) : null;
    if (!first || !mark) return;
    first.content = first.content.slice(mark[0].length);
    const box = new (first.constructor as new (type: string, tag: string, nesting: 0) => Token)(
      'task_checkbox',
      'span',
      0,
    );
    box.meta = { checked: mark[1] !== ' ' };
    token.children!.unshift(box);
  });
}

function alignmentToClass(token: Token): void {
  const style = token.attrGet('style');
  if (!style) return;
  token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
  const align = /text-align:(left|right|center)/.exec(String(style))?.[1];
  if (align) token.attrSet('class', `align-${align}`);
}

/** Relative links point at the skill's own files: resolve them; web links leave the site. */
function rewriteLink(token: Token, attr: 'href' | 'src', kind: 'link' | 'image', env: RenderEnv): void {
  const url = String(token.attrGet(attr) ?? '');
  if (nonCanonicalPath(url)) {
    // `/feed/v1//files/x.html` names a skill file where a host's header rules (matched on the
    // canonical path) may not apply: the link is dropped, its text kept.
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== attr);
    return;
  }
  // `//host/a` leaves the site like `https://host/a` does.
  if (kind === 'link' && (/^https?:/i.test(url) || /^[/\\]{2}/.test(url)))
    token.attrSet('rel', 'nofollow noopener noreferrer');
  if (!isRelative(url) || !env.resolveLink) return;
  const resolved = env.resolveLink(url, kind);
  if (!resolved) return;
  token.attrSet(attr, resolved.href);
  for (const [name, value] of Object.entries(resolved.attrs ?? {})) token.attrSet(name, value);
}

/** Built once: the parser's rule chains are set up here, not per document. */
const renderer = createRenderer();

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const env: RenderEnv = { resolveLink: options.resolveLink };
  return renderer.render(markdown, env);
}

/**
 * Resolve a markdown link relative to the skill folder (`scripts/run.py`, `./data/x.csv`) to
 * one of the skill's files: images load the raw file, links open the file's view. A link to a
 * folder of the skill (`templates/`) opens that folder's listing (`resolve`'s kind `folder`).
 */
export function skillFileLinkResolver(
  paths: ReadonlySet<string>,
  resolve: (filePath: string, kind: 'link' | 'image' | 'folder') => ResolvedLink,
) {
  // Only when a link names no file: most skills' links all do.
  let folders: Set<string> | undefined;
  return (href: string, kind: 'link' | 'image'): ResolvedLink | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(href.replace(/[?#].*$/, ''));
    } catch {
      return undefined;
    }
    const normalized = normalizeRelative(withoutSkillDirPlaceholder(decoded));
    if (!normalized) return undefined;
    if (paths.has(normalized)) return resolve(normalized, kind);
    return kind === 'link' && (folders ??= folderPaths(paths)).has(normalized)
      ? resolve(normalized, 'folder')
      : undefined;
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
