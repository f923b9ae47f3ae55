import type { Catalog } from '../model/skill.ts';

/**
 * The skill folders with an error: the loader leaves them out of the catalog, so the feed, the
 * site and Elasticsearch publish every other skill and report these.
 */
export function invalidSkills(catalog: Pick<Catalog, 'problems'>): string[] {
  return [...new Set(catalog.problems.filter((p) => p.severity === 'error').map((p) => p.skill))].sort();
}
