/** The site's build-time helpers: markdown sanitizing, URLs and slugs, file ordering. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownHighlighted, skillFileLinkResolver } from '../../src/site/markdown.ts';
import { encodePath, normalizeBase, siteUrls, slug } from '../../src/site/urls.ts';
import { orderFiles } from '../../src/site/skill-view.ts';
import type { FeedFile } from '../../src/model/feed.ts';

describe('renderMarkdown', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(2)>',
    '[a](javascript:alert(3)) [b](JaVaScRiPt:alert(4)) [c](data:text/html,<script>alert(5)</script>) [d](vbscript:msgbox)',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="https://ok.example" onclick="alert(6)">x</a>',
    '<svg><script>alert(7)</script></svg>',
    '<style>body{display:none}</style>',
    '<form action="https://evil.example"><input name=p></form>',
    '![i](javascript:alert(8))',
  ].join('\n\n');

  it('drops raw HTML, scripts, handlers, frames and script URLs', () => {
    const html = renderMarkdown(hostile);
    for (const bad of ['<script', 'onerror', 'onclick', 'javascript:', 'vbscript:', 'data:', '<iframe', '<svg', '<style', '<form', '<input']) {
      expect(html.toLowerCase()).not.toContain(bad);
    }
  });

  it('keeps ordinary markdown, GFM tables and safe links', () => {
    const html = renderMarkdown('# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n[site](https://example.com) `code`');
    expect(html).toContain('<table>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">site</a>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('type="checkbox"');
  });

  it('points relative links at the skill files, and never outside the skill', () => {
    const resolve = skillFileLinkResolver(new Set(['scripts/run.py', 'a b/#1.md']), (p) => `/files/${encodePath(p)}`, (p) => `#view:${p}`);
    const html = renderMarkdown('[r](./scripts/run.py) [s](a%20b/%231.md) [up](../other/SKILL.md) [m](missing.md) ![i](scripts/run.py)', { resolveLink: resolve });
    expect(html).toContain('href="#view:scripts/run.py"');
    expect(html).toContain('href="#view:a b/#1.md"');
    expect(html).toContain('href="../other/SKILL.md"');
    expect(html).toContain('href="missing.md"');
    expect(html).toContain('src="/files/scripts/run.py"');
  });

  it('highlights fenced code with classes only', async () => {
    const html = await renderMarkdownHighlighted('```python\nimport os  # <b>\n```\n\n```unknown-lang\n<x>\n```');
    expect(html).toContain('<span class="t-keyword">import</span>');
    expect(html).toContain('&#x3C;b>');
    expect(html).not.toContain('style=');
    expect(html).toContain('&#x3C;x>');
  });
});

describe('urls', () => {
  it('normalizes the base path', () => {
    expect(normalizeBase(undefined)).toBe('/');
    expect(normalizeBase('')).toBe('/');
    expect(normalizeBase('skills')).toBe('/skills/');
    expect(normalizeBase('/org/skills//')).toBe('/org/skills/');
  });

  it('percent-encodes every segment of a file path', () => {
    const urls = siteUrls('/s/');
    expect(urls.file('x', '#hash ?q%20.txt')).toBe('/s/feed/v1/files/x/%23hash%20%3Fq%2520.txt');
    expect(urls.file('x', 'docs/日本語 ファイル.md')).toBe('/s/feed/v1/files/x/docs/%E6%97%A5%E6%9C%AC%E8%AA%9E%20%E3%83%95%E3%82%A1%E3%82%A4%E3%83%AB.md');
    expect(siteUrls('/', 'catalog/v1').feed('search.json')).toBe('/catalog/v1/search.json');
    expect(urls.fromFeed('cards.json', '../../.well-known/agent-skills/x.zip')).toBe('/s/.well-known/agent-skills/x.zip');
    expect(urls.fromFeed('cards.json', 'https://peer.example/x.zip')).toBe('https://peer.example/x.zip');
  });

  it('gives tags readable slugs that never collide', () => {
    expect(slug('pdf')).toBe('pdf');
    expect(slug('data-engineering')).toBe('data-engineering');
    expect(slug('C++')).toMatch(/^c-[0-9a-z]+$/);
    expect(slug('C++')).not.toBe(slug('c--'));
    expect(slug('日本語')).toMatch(/^[0-9a-z]+$/);
    expect(slug('<b>bold</b>')).toMatch(/^b-bold-b-[0-9a-z]+$/);
  });
});

describe('orderFiles', () => {
  it('puts SKILL.md first, then folders before files', () => {
    const f = (path: string) => ({ path }) as FeedFile;
    expect(orderFiles([f('z.txt'), f('scripts/b.py'), f('SKILL.md'), f('a.md'), f('scripts/lib/c.py')]).map((x) => x.path)).toEqual([
      'SKILL.md',
      'scripts/lib/c.py',
      'scripts/b.py',
      'a.md',
      'z.txt',
    ]);
  });
});
