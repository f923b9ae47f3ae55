/**
 * `/folders/skills.json`: each folder group's skill ids, which the search's folder filter reads
 * (the search index holds no folders). A few KB where cards.json, which holds them too, is 270 KB
 * gzipped on a catalog of 1,650 skills: the filter should not cost a visitor that download.
 */
import type { APIRoute } from 'astro';
import { loadCards } from '../../page-data.ts';
import { catalogFacets, folderOf } from '../../catalog.ts';

export const GET: APIRoute = () => {
  const cards = loadCards();
  const groups: Record<string, string[]> = {};
  // Empty where folders are no facet: the page then has no folder filter and never asks.
  if (catalogFacets(cards).folders.length > 0)
    for (const card of cards) {
      const [folder] = folderOf(card);
      if (folder !== undefined) (groups[folder] ??= []).push(card.id);
    }
  return new Response(JSON.stringify(groups), { headers: { 'content-type': 'application/json' } });
};
