/** Which facets a catalog shows: only those it has something to filter by. */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/model/feed.ts';
import { browseLabel, catalogFacets, folderOf, listCards, listFacets, listPagePaths } from '../../src/site/catalog.ts';
import { siteUrls } from '../../src/site/urls.ts';

const card = (id: string, extra: Partial<Card> = {}): Card => ({ id, name: id, tags: [], ...extra }) as Card;

describe('folderOf', () => {
  it("files a skill under the first folder of its path, skipping 'skills' and a leading 'plugins'", () => {
    expect(folderOf({ folder: '.curated' })).toEqual(['.curated']);
    expect(folderOf({ folder: 'plugins/git/skills' })).toEqual(['git']);
    expect(folderOf({ folder: 'qdrant-scaling/scaling-data-volume' })).toEqual(['qdrant-scaling']);
    expect(folderOf({ folder: 'anthropics+skills/skills' })).toEqual(['anthropics+skills']);
    expect(folderOf({})).toEqual([]);
    expect(folderOf({ folder: 'skills' })).toEqual([]);
  });
});

describe('catalogFacets', () => {
  it('shows no domain column for a single domain, and no browse page when there is nothing to browse', () => {
    const found = catalogFacets([card('a', { domain: 'general' }), card('b')]);
    expect(found).toEqual({ tags: [], domains: [], folders: [], registries: [] });
    expect(browseLabel(found)).toBeUndefined();
  });

  it('offers folders where skills carry no tags and sit in more than one folder', () => {
    const cards = [
      card('a', { folder: '.curated' }),
      card('b', { folder: '.curated' }),
      card('c', { folder: '.system' }),
    ];
    const found = catalogFacets(cards);
    expect(found.folders).toEqual([
      { value: '.curated', count: 2 },
      { value: '.system', count: 1 },
    ]);
    expect(browseLabel(found)).toBe('Folders');
    // One folder for all filters nothing.
    expect(catalogFacets(cards.slice(0, 2)).folders).toEqual([]);
    // Nor do a few nested skills among many at the top.
    const mostlyTop = [...cards, card('d'), card('e'), card('f'), card('g')];
    expect(catalogFacets(mostlyTop).folders).toEqual([]);
  });

  it('prefers tags to folders, and keeps domains when there are several', () => {
    const cards = [
      card('a', { folder: '.curated', tags: ['pdf'], domain: 'docs' }),
      card('b', { folder: '.system', domain: 'ops' }),
    ];
    const found = catalogFacets(cards);
    expect(found.tags).toEqual([{ value: 'pdf', count: 1 }]);
    expect(found.folders).toEqual([]);
    expect(found.domains.map((d) => d.value)).toEqual(['docs', 'ops']);
    expect(browseLabel(found)).toBe('Tags');
  });

  it('offers folders beside tags when fewer than half of the skills carry a tag', () => {
    const cards = [
      card('a', { folder: 'ads', tags: ['ads'] }),
      card('b', { folder: 'ads' }),
      card('c', { folder: 'cloud' }),
      card('d', { folder: 'cloud' }),
      card('e', { folder: 'cloud' }),
    ];
    const found = catalogFacets(cards);
    expect(found.tags).toEqual([{ value: 'ads', count: 1 }]);
    expect(found.folders).toEqual([
      { value: 'cloud', count: 3 },
      { value: 'ads', count: 2 },
    ]);
    expect(browseLabel(found)).toBe('Browse');
    // Tagged for the most part: the tags sort them.
    const mostlyTagged = cards.map((c, i) => (i < 3 ? { ...c, tags: ['t'] } : c));
    expect(catalogFacets(mostlyTagged).folders).toEqual([]);
  });
});

describe('registries', () => {
  it("offers registries on an aggregator's site: the cards come from two registries or more", () => {
    const cards = [card('a', { registry: 'home' }), card('b', { registry: 'acme' }), card('c', { registry: 'acme' })];
    const found = catalogFacets(cards);
    expect(found.registries).toEqual([
      { value: 'acme', count: 2 },
      { value: 'home', count: 1 },
    ]);
    expect(browseLabel(found)).toBe('Registries');
    expect(listFacets(cards, 'registry')).toEqual(found.registries);
    expect(listCards(cards, 'registry', 'acme').map((c) => c.id)).toEqual(['b', 'c']);
    // A registry named after nothing URL-safe still has a page of its own.
    expect(siteUrls('/').registry('Team A/β')).toMatch(/^\/registries\/team-a-[a-z0-9]+\/$/);
  });

  it("shows no registry column, and no registry pages, for a single registry's skills", () => {
    const cards = [card('a', { registry: 'home' }), card('b', { registry: 'home' })];
    expect(catalogFacets(cards).registries).toEqual([]);
    expect(browseLabel(catalogFacets(cards))).toBeUndefined();
    expect(listFacets(cards, 'registry')).toEqual([]);
  });

  it('names the browse page after tags or folders before registries', () => {
    const cards = [card('a', { registry: 'home', tags: ['pdf'] }), card('b', { registry: 'acme' })];
    expect(browseLabel(catalogFacets(cards))).toBe('Tags');
  });
});

describe('pages of a tag, domain or folder list', () => {
  it('gives a list longer than 48 its page/ and page/1/ (which lead to its first page) and pages 2…; a shorter one none', () => {
    const paths = listPagePaths([
      { value: 'bulk', count: 97 },
      { value: 'full', count: 48 },
      { value: 'small', count: 2 },
    ]);
    expect(paths).toEqual([undefined, '1', '2', '3'].map((n) => ({ value: 'bulk', n })));
  });

  it("puts page 1 at the list's own URL and pages 2… below it, under the site's base", () => {
    const urls = siteUrls('/skills/');
    expect(urls.listPage(urls.tag('pdf'), 1)).toBe('/skills/tags/pdf/');
    expect(urls.listPage(urls.folder('.curated'), 2)).toBe(`${urls.folder('.curated')}page/2/`);
    expect(urls.page(3)).toBe('/skills/page/3/');
    expect(urls.feedPage).toBe('/skills/feed/');
  });
});
