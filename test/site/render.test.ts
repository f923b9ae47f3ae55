/** The site's build-time helpers: markdown rendering of untrusted text, URLs and slugs, file ordering. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, skillFileLinkResolver } from '../../src/site/markdown.ts';
import { encodePath, normalizeBase, siteUrls, slug } from '../../src/site/urls.ts';
import { orderFiles } from '../../src/site/skill-view.ts';
import { fenceLanguage, languageFor } from '../../src/site/languages.ts';
import type { FeedFile } from '../../src/model/feed.ts';
import { longestIncreasing } from '../../src/site/client/render.ts';

/** One newline for any run of them: the markup, not its line breaks, is what a test checks. */
const squeeze = (html: string): string => html.replace(/\n+/g, '\n');

describe('renderMarkdown', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(2)>',
    '[a](javascript:alert(3)) [b](JaVaScRiPt:alert(4)) [c](data:text/html,<script>alert(5)</script>) [d](vbscript:msgbox) [e](java\tscript:alert(9))',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="https://ok.example" onclick="alert(6)">x</a>',
    '<svg><script>alert(7)</script></svg>',
    '<style>body{display:none}</style>',
    '<form action="https://evil.example"><input name=p></form>',
    '![i](javascript:alert(8)) ![j](data:image/svg+xml,<svg onload=alert(10)>) <javascript:alert(11)>',
    '| a |\n|:-:|\n| b |',
  ].join('\n\n');

  it('emits no markup from the document: no tags, handlers, script URLs or inline styles', () => {
    const html = renderMarkdown(hostile);
    expect(html).not.toMatch(/<(script|iframe|svg|style|form|input|img)\b/i);
    expect(html).not.toMatch(/<[^>]+\son\w+=/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data|java\s*script):/i);
    expect(html).not.toMatch(/style=/i);
    // What was markup shows as text at most; the table's alignment is a class.
    expect(html).toContain('<th class="align-center">a</th>');
  });

  it('keeps ordinary markdown, GFM tables, task lists and safe links', () => {
    const html = renderMarkdown(
      '# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n[site](https://example.com) `code` https://auto.example ~~gone~~ [mail](mailto:a@example.com)',
    );
    expect(html).toContain('<table>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">site</a>');
    expect(html).toContain(
      '<a href="https://auto.example" rel="nofollow noopener noreferrer">https://auto.example</a>',
    );
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<s>gone</s>');
    expect(html).toContain('<li><span class="task-box">☑</span> done</li>');
    expect(html).toContain('<li><span class="task-box">☐</span> open</li>');
  });

  it('treats //host links as leaving the site, and drops links to non-canonical paths a host may not guard', () => {
    const html = renderMarkdown(
      '[a](//evil.example/a) [b](/feed/v1//files/web/page.html) [c](../../feed/v1//files/web/page.html) [d](/feed/v1/files%2Fweb/page.html) [e](/a\\b) [f](/feed/v1/files/web/page.html)',
    );
    expect(html).toContain('<a href="//evil.example/a" rel="nofollow noopener noreferrer">a</a>');
    for (const text of ['b', 'c', 'd', 'e']) expect(html).toContain(`<a>${text}</a>`);
    expect(html).not.toContain('//files');
    // A canonical path stays: the host's header rules apply to it.
    expect(html).toContain('<a href="/feed/v1/files/web/page.html">f</a>');
  });

  it("shows GitHub's alerts as titled callouts, with a fixed title and the quote's own content", () => {
    const html = squeeze(
      renderMarkdown(
        '> [!NOTE]\n> Some models need a **token**.\n\n> [!warning]\n>\n> Costs money.\n\n> [!TIP] <img src=x onerror=alert(1)> Ask first.\n\n> [!NOTE]\n> > [!CAUTION]\n> > inner\n>\n> outer\n\n> plain [!NOTE] quote',
      ),
    );
    expect(html).toContain(
      '<div class="markdown-alert markdown-alert-note" role="note"><p class="markdown-alert-title">Note</p>\n<p>Some models need a <strong>token</strong>.</p>\n</div>',
    );
    expect(html).toContain(
      '<div class="markdown-alert markdown-alert-warning" role="note"><p class="markdown-alert-title">Warning</p>\n<p>Costs money.</p>\n</div>',
    );
    // Text after the marker on its line is the alert's first paragraph, never its title.
    expect(html).toContain(
      '<div class="markdown-alert markdown-alert-tip" role="note"><p class="markdown-alert-title">Tip</p>\n<p> Ask first.</p>\n</div>',
    );
    expect(html).not.toMatch(/<img/);
    // A nested alert closes inside its parent; a marker later in a quote is text.
    expect(html).toMatch(
      /markdown-alert-note[^]*markdown-alert-caution[^]*inner<\/p>\n<\/div>\n<p>outer<\/p>\n<\/div>/,
    );
    expect(html).toContain('<blockquote>\n<p>plain [!NOTE] quote</p>\n</blockquote>');
  });

  it('shows footnotes as GitHub does, linked both ways, with their text as safe as the rest', () => {
    // K-Dense-AI's markdown-mermaid-writing cites its sources this way.
    const html = renderMarkdown(
      'Mermaid renders on GitHub.[^1]\n\n[^1]: GitHub Blog. [x](javascript:alert(1)) <img src=x onerror=alert(1)> https://github.blog/mermaid\n',
    );
    expect(html).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(html).toMatch(
      /<li id="fn1" class="footnote-item"><p>GitHub Blog\. .*<a href="#fnref1" class="footnote-backref">/,
    );
    expect(html).toContain('<a href="https://github.blog/mermaid" rel="nofollow noopener noreferrer">');
    expect(html).not.toMatch(/\[\^1\]|<img|href="javascript/);
  });

  it('marks fenced code with its language and escapes it; the block is keyboard-reachable', () => {
    const html = renderMarkdown('```python\nimport os  # <b>$&\n```');
    expect(html).toBe('<pre tabindex="0"><code class="language-python">import os  # &lt;b&gt;$&amp;\n</code></pre>\n');
  });

  it('points relative links at the skill files, and never outside the skill', () => {
    const resolve = skillFileLinkResolver(new Set(['scripts/run.py', 'a b/#1.md']), (p, kind) =>
      kind === 'image'
        ? { href: `/files/${encodePath(p)}` }
        : { href: `/view/${encodePath(p)}/`, attrs: { 'data-file-link': '' } },
    );
    const html = renderMarkdown(
      '[r](./scripts/run.py) [s](a%20b/%231.md) [up](../other/SKILL.md) [m](missing.md) ![i](scripts/run.py) [abs](/x) [frag](#y)',
      { resolveLink: resolve },
    );
    expect(html).toContain('<a href="/view/scripts/run.py/" data-file-link="">r</a>');
    expect(html).toContain('<a href="/view/a%20b/%231.md/" data-file-link="">s</a>');
    expect(html).toContain('href="../other/SKILL.md"');
    expect(html).toContain('href="missing.md"');
    expect(html).toContain('src="/files/scripts/run.py"');
    expect(html).toContain('href="/x"');
    expect(html).toContain('href="#y"');
  });

  it("resolves a link to one of the skill's folders to that folder's listing", () => {
    const resolve = skillFileLinkResolver(new Set(['templates/a.md', 'resources/fixtures/x.sarif']), (p, kind) => ({
      href: `/view/${encodePath(p)}/`,
      attrs: { 'data-kind': kind },
    }));
    const html = renderMarkdown(
      '[t](templates/) [f]({baseDir}/resources/fixtures) [r](./resources) [n](nope/) ![i](templates/)',
      { resolveLink: resolve },
    );
    expect(html).toContain('<a href="/view/templates/" data-kind="folder">t</a>');
    expect(html).toContain('<a href="/view/resources/fixtures/" data-kind="folder">f</a>');
    expect(html).toContain('<a href="/view/resources/" data-kind="folder">r</a>');
    expect(html).toContain('href="nope/"');
    expect(html).toContain('src="templates/"');
  });

  it("resolves links written with a skill-folder placeholder ({baseDir}/, ${CLAUDE_SKILL_DIR}/) to the skill's files", () => {
    const resolve = skillFileLinkResolver(new Set(['references/q.md']), (p) => ({ href: `/view/${encodePath(p)}/` }));
    const html = renderMarkdown(
      '[q]({baseDir}/references/q.md) [c](${CLAUDE_SKILL_DIR}/references/q.md) [m]({baseDir}/nope.md)',
      {
        resolveLink: resolve,
      },
    );
    expect(html).toContain('<a href="/view/references/q.md/">q</a>');
    expect(html).toContain('<a href="/view/references/q.md/">c</a>');
    expect(html).toContain('href="%7BbaseDir%7D/nope.md"');
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
    expect(urls.file('x', 'docs/日本語 ファイル.md')).toBe(
      '/s/feed/v1/files/x/docs/%E6%97%A5%E6%9C%AC%E8%AA%9E%20%E3%83%95%E3%82%A1%E3%82%A4%E3%83%AB.md',
    );
    expect(siteUrls('/', { feedPath: 'catalog/v1' }).feed('search.json')).toBe('/catalog/v1/search.json');
    expect(urls.fileView('x', 'notes/100% done?.txt')).toBe('/s/skills/x/files/notes/100%25%20done%3F.txt/');
    expect(siteUrls('/s/', { filesBaseUrl: 'https://files.example/cat' }).file('x', 'a b.html')).toBe(
      'https://files.example/cat/x/a%20b.html',
    );
    expect(urls.fromFeed('cards.json', '../../.well-known/agent-skills/x.zip')).toBe(
      '/s/.well-known/agent-skills/x.zip',
    );
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
    expect(
      orderFiles([f('z.txt'), f('scripts/b.py'), f('SKILL.md'), f('a.md'), f('scripts/lib/c.py')]).map((x) => x.path),
    ).toEqual(['SKILL.md', 'scripts/lib/c.py', 'scripts/b.py', 'a.md', 'z.txt']);
  });
});

describe('languages', () => {
  it('highlights known languages by extension, file name and fence', () => {
    expect([
      languageFor('scripts/run.py'),
      languageFor('Dockerfile'),
      fenceLanguage('py'),
      fenceLanguage('python'),
    ]).toEqual(['python', 'docker', 'python', 'python']);
  });

  it('leaves names of object members plain: "constructor", "__proto__", "toString"', () => {
    for (const name of ['constructor', '__proto__', 'tostring', 'hasownproperty']) {
      expect(fenceLanguage(name), name).toBeUndefined();
      expect(languageFor(name), name).toBeUndefined();
      expect(languageFor(`file.${name}`), name).toBeUndefined();
    }
  });
});

describe('longestIncreasing (the cards a reordered result list leaves in place)', () => {
  it('keeps a longest run in order and skips new entries (negative)', () => {
    expect([...longestIncreasing([0, 1, 2, 3])].sort()).toEqual([0, 1, 2, 3]);
    // Card 3 moved to the top: the other three stay, only it moves.
    expect([...longestIncreasing([3, 0, 1, 2])].sort()).toEqual([1, 2, 3]);
    expect([...longestIncreasing([-1, 0, -1, 1])].sort()).toEqual([1, 3]);
    expect(longestIncreasing([3, 2, 1, 0]).size).toBe(1);
    expect(longestIncreasing([]).size).toBe(0);
  });
});
