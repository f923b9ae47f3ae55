/**
 * SKILL.md of every skill rendered to HTML before the pages are built, through a cache of
 * rendered HTML (src/lib/file-cache.ts, keyed by the renderer's code, the body, the skill's file
 * list and the URLs it links to): a build renders only the skills whose SKILL.md, file list or
 * URLs changed since an earlier build, and says how many.
 */
import type { FeedSkill } from '../model/feed.ts';
import { FileCache, type CacheEntry } from '../lib/file-cache.ts';
import { codeFingerprint } from '../lib/fingerprint.ts';
import type { SkillJson } from './feed-data.ts';
import { renderMarkdown, skillFileLinkResolver } from './markdown.ts';
import type { SiteUrls } from './urls.ts';

/** A skill's rendered SKILL.md: the file holding it and the sha256 of its bytes. */
export type RenderedBody = CacheEntry;

export interface RenderedBodies {
  bodies: Record<string, RenderedBody>;
  rendered: number;
  reused: number;
}

/**
 * SKILL.md's body as sanitized HTML. Relative links to the skill's own files point at their
 * views (opened in place on the skill page), relative images at the files' bytes.
 */
export function renderSkillBody(skill: FeedSkill, urls: SiteUrls): string {
  const id = skill.card.id;
  const paths = new Set(skill.files.map((f) => f.path));
  return renderMarkdown(skill.body, {
    resolveLink: skillFileLinkResolver(paths, (p, kind) => {
      if (kind === 'image') return { href: urls.file(id, p) };
      // A folder's listing is a page of its own (files/<folder>/), not a file opened in place.
      if (kind === 'folder') return { href: urls.fileView(id, p) };
      return { href: urls.fileView(id, p), attrs: { 'data-file-link': '' } };
    }),
  });
}

export function renderBodies(
  skills: ReadonlyMap<string, SkillJson>,
  urls: SiteUrls,
  cacheDir: string,
  log?: (line: string) => void,
): RenderedBodies {
  // Signed (src/lib/cache-secret.ts): rendered HTML goes onto the catalog's pages as it is.
  const cache = FileCache.open(cacheDir, log ? { log } : {});
  const renderer = codeFingerprint(
    import.meta.url,
    ['./markdown.ts', './render-bodies.ts'],
    ['markdown-it', 'markdown-it-footnote'],
  );
  const bodies: Record<string, RenderedBody> = {};
  let rendered = 0;
  for (const [id, { skill }] of skills) {
    const key = FileCache.key(
      renderer,
      skill.body,
      skill.files.map((f) => f.path),
      urls.fileView(id, ''),
      urls.file(id, ''),
    );
    let entry = cache.entry(key);
    if (!entry) {
      entry = cache.write(key, renderSkillBody(skill, urls));
      rendered++;
    }
    bodies[id] = entry;
  }
  cache.prune();
  return { bodies, rendered, reused: skills.size - rendered };
}
