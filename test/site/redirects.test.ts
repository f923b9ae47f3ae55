/**
 * The pages a URL trimmed by hand reaches below a skill's files (src/site/redirects.ts): one for
 * `files/` and one for each folder of its files, each sending the reader to the file tree on the
 * skill's page, and none where a file named `index.html` has its page.
 */
import { describe, expect, it } from 'vitest';
import type { FeedSkill } from '../../src/model/feed.ts';
import { fileFolderRedirects, redirectHtml } from '../../src/site/redirects.ts';
import { siteUrls } from '../../src/site/urls.ts';

const skillWith = (paths: string[]): FeedSkill =>
  ({ card: { id: 'pdf', name: 'pdf' }, files: paths.map((path) => ({ path })) }) as unknown as FeedSkill;

describe('folder redirects', () => {
  it("covers files/ and every folder of the skill's files, once each", () => {
    const redirects = fileFolderRedirects(
      skillWith(['SKILL.md', 'scripts/run.py', 'scripts/lib/util.py', 'scripts/lib/more.py', 'assets/logo.png']),
      siteUrls('/catalog/'),
    );
    expect(redirects.map((r) => r.folder)).toEqual(['', 'assets', 'scripts', 'scripts/lib']);
    expect(redirects[0]!.html).toContain('<meta http-equiv="refresh" content="0;url=/catalog/skills/pdf/#files">');
    expect(redirects[0]!.html).toContain('<a href="/catalog/skills/pdf/#files">');
  });

  it('leaves out a folder holding a file named index.html: that file has its page there', () => {
    const redirects = fileFolderRedirects(
      skillWith(['SKILL.md', 'index.html', 'site/index.html', 'site/app.js']),
      siteUrls('/'),
    );
    expect(redirects.map((r) => r.folder)).toEqual([]);
  });

  it('escapes what it writes into the page', () => {
    const html = redirectHtml('/a?b=1&c="2"', 'Files of <x>');
    expect(html).toContain('url=/a?b=1&#38;c=&#34;2&#34;"');
    expect(html).not.toContain('<x>');
  });
});
