/**
 * The hybrid ranking (src/search/hybrid.ts): the fusion formula, which queries it applies to,
 * skills found by meaning alone, the fold of weak matches, and the keyword bonus that no longer
 * puts a weaker skill first. Meaning comes from a fixed table of closeness here, the same
 * interface the MCP server and the site fill from the feed's skill vectors.
 */
import { describe, expect, it } from 'vitest';
import {
  buildSearchIndexes,
  joinedWords,
  SkillSearch,
  type MeaningIndex,
  type SearchEntry,
} from '../../src/search/index.ts';
import {
  fusedScore,
  MEANING_ALONE,
  MEANING_WEIGHT,
  rrfScore,
  strongCount,
  usesMeaning,
  wordScoreOf,
} from '../../src/search/hybrid.ts';

const entry = (id: string, description: string, body = ''): SearchEntry => ({
  id,
  name: id,
  description,
  tags: [],
  headings: [],
  paths: ['SKILL.md'],
  body,
  registry: 'local',
});

const ENTRIES = [
  entry(
    'open-source-release',
    'Prepare a private repository for publishing: license, secrets scan, contributing guide.',
  ),
  entry('cli-docs', 'Write reference documentation for a command line tool and its flags.'),
  entry('repo-cleanup', 'Remove stale branches and large files from a git repository.'),
  entry('timezone-fixes', 'Handle daylight saving transitions in scheduled jobs.'),
  entry(
    'github-release',
    'Draft a release on GitHub from the merged pull requests.',
    'Include release notes per section.',
  ),
  entry('changelog-formatting', 'Format release notes consistently.'),
];
const { search: metadata, body } = buildSearchIndexes(ENTRIES);
const search = SkillSearch.load(metadata, body);

/** Closeness by skill id, the same for every query (what a MeaningIndex returns for one request). */
function meaningOf(closeness: Record<string, number>): MeaningIndex & { asked: string[] } {
  const slotIds = ENTRIES.map((e) => e.id).reverse(); // slots need not follow the index's order
  const asked: string[] = [];
  return {
    slotIds,
    asked,
    closeness: (query) => (asked.push(query), Float32Array.from(slotIds, (id) => closeness[id] ?? 0)),
  };
}

describe('the fusion formula', () => {
  it('adds the weighted closeness to the word score scaled so the best word match is 1', () => {
    expect(fusedScore(50, 50, 0)).toBe(1);
    expect(fusedScore(25, 50, 2)).toBeCloseTo(0.5 + 2 * MEANING_WEIGHT, 12);
    expect(fusedScore(0, 50, 3)).toBeCloseTo(3 * MEANING_WEIGHT, 12);
    expect(fusedScore(10, 0, 1, 0.5)).toBe(0.5);
    expect(fusedScore(10, 20, -1)).toBeCloseTo(0.5 - MEANING_WEIGHT, 12);
  });

  it('gives back the word score a fused score came from', () => {
    for (const [word, best, near] of [
      [12.5, 40, 1.7],
      [40, 40, -0.4],
      [0, 40, 2.5],
    ] as const)
      expect(wordScoreOf(fusedScore(word, best, near), best, near)).toBeCloseTo(word, 9);
  });

  it('ranks queries of three meaningful words or more by meaning; keywords by words', () => {
    expect([1, 2, 3, 8].map(usesMeaning)).toEqual([false, false, true, true]);
  });

  it('reciprocal rank fusion (the measured alternative) rewards a good rank in either list', () => {
    expect(rrfScore(1, 1)).toBeCloseTo(2 / 61, 12);
    expect(rrfScore(undefined, 1)).toBeCloseTo(1 / 61, 12);
    expect(rrfScore(1, 50)).toBeGreaterThan(rrfScore(5, 50));
  });

  it('counts as strong the results scoring at least a quarter of the first', () => {
    expect(strongCount([8, 4, 2, 1.99, 1])).toBe(3);
    expect(strongCount([])).toBe(0);
    expect(strongCount([0, 0])).toBe(2);
  });
});

describe('searching with meaning', () => {
  const closeToRelease = meaningOf({ 'open-source-release': 3, 'repo-cleanup': 1, 'cli-docs': -0.5 });

  it('moves a skill up by closeness in a request of several words', () => {
    const q = 'make our internal CLI repository public';
    const byWords = search.search(q).map((h) => h.id);
    const hits = search.search(q, { meaning: closeToRelease });
    expect(byWords[0]).not.toBe('open-source-release');
    expect(hits[0]!.id).toBe('open-source-release');
    for (const h of hits) {
      expect(h.meaning).toBeDefined();
      expect(h.score).toBeCloseTo(fusedScore(h.wordScore, Math.max(...hits.map((x) => x.wordScore)), h.meaning!), 9);
    }
  });

  it('lists a skill sharing no word with the request when it is close enough in meaning, and only then', () => {
    const q = 'clocks changed and appointments moved an hour';
    const near = search.search(q, { meaning: meaningOf({ 'timezone-fixes': MEANING_ALONE }) });
    const hit = near.find((h) => h.id === 'timezone-fixes')!;
    expect(hit.words).toEqual([]);
    expect(hit.wordScore).toBe(0);
    expect(hit.score).toBeCloseTo(MEANING_WEIGHT * MEANING_ALONE, 6);
    const far = search.search(q, { meaning: meaningOf({ 'timezone-fixes': MEANING_ALONE - 0.1 }) });
    expect(far.map((h) => h.id)).not.toContain('timezone-fixes');
  });

  it('leaves keyword queries of one or two words to words alone, without asking for closeness', () => {
    const meaning = meaningOf({ 'cli-docs': 10 });
    for (const q of ['release', 'release notes']) expect(search.search(q, { meaning })).toEqual(search.search(q));
    expect(meaning.asked).toEqual([]);
  });

  it('ranks the same for every limit, with the same scores', () => {
    const q = 'publish the repository with a license';
    const all = search.search(q, { meaning: closeToRelease });
    expect(search.search(q, { meaning: closeToRelease, limit: 2 })).toEqual(all.slice(0, 2));
  });
});

describe('which results are weak, and keyword queries', () => {
  it('marks weak matches, after the strong ones, and counts the strong', () => {
    const page = search.searchPage('release notes repository', {});
    expect(page.strong).toBeGreaterThan(0);
    expect(page.strong).toBeLessThan(page.total);
    expect(page.hits.map((h) => h.strong)).toEqual(page.hits.map((_, i) => i < page.strong));
    expect(page.hits.slice(page.strong).every((h) => h.score < 0.25 * page.hits[0]!.score)).toBe(true);
  });

  it('does not put a skill above a clearly better one only because its metadata has every keyword', () => {
    const filler = 'covering onboarding, billing, migrations, dashboards, audits, hiring, budgets and more';
    const { search: m, body: b } = buildSearchIndexes([
      entry('release', 'Cut a release: tag the release, build the release artifacts, publish the release.', 'notes'),
      entry('team-handbook', `A handbook for teams ${filler}, with a page on release notes.`),
      ...ENTRIES.slice(0, 4),
    ]);
    const hits = SkillSearch.load(m, b).search('release notes');
    expect(hits.map((h) => h.id).slice(0, 2)).toEqual(['release', 'team-handbook']);
    // team-handbook's metadata holds both words, release's only one: a bonus, not a group of its own.
    expect(hits[1]!.words.every((w) => w.fields.includes('description'))).toBe(true);
    expect(hits[0]!.words.find((w) => w.word === 'notes')!.fields).toEqual(['body']);
  });
});

describe('words a catalog writes as one', () => {
  const catalog = SkillSearch.load(
    JSON.stringify(
      buildSearchIndexes([
        entry('drawio', 'Diagrams as drawio XML files.'),
        entry('diagram-sketches', 'Draw a diagram of your system by hand, export it as an image.'),
        entry('dev-setup', 'Setup of a new laptop: tools, keys and dotfiles.'),
        entry('set-theory', 'Set operations on collections: union, intersection.'),
        entry('powerbi-dax', 'Faster DAX measures in powerbi reports.'),
        entry('bi-dashboards', 'Dashboards for business intelligence (BI) on any power source.'),
      ]).search,
    ),
  );
  const known = (word: string) => ['drawio', 'setup', 'powerbi'].includes(word);

  it('joins two adjacent plain words the vocabulary has as one, once, and nothing else', () => {
    expect(joinedWords('draw io diagram, then draw io again', known)).toEqual([
      { word: 'drawio', joins: ['draw', 'io'] },
    ]);
    expect(joinedWords('set up my laptop', known)).toEqual([{ word: 'setup', joins: ['set', 'up'] }]);
    // Not plain words, too short, or not the catalog's: left as they are.
    expect(joinedWords('set-up draw.io a b set upx', known)).toEqual([]);
  });

  it('finds the skill that writes as one word what the request splits in two', () => {
    expect(catalog.search('draw io diagram').map((h) => h.id)[0]).toBe('drawio');
    expect(catalog.search('set up my new laptop').map((h) => h.id)[0]).toBe('dev-setup');
    const page = catalog.searchPage('my dax measure is slow in power bi');
    expect(page.hits[0]!.id).toBe('powerbi-dax');
    expect(page.words.find((w) => w.word === 'powerbi')).toMatchObject({ joins: ['power', 'bi'] });
  });

  it('counts only the words typed: "power bi" stays a keyword query, not ranked by meaning', () => {
    const meaning = meaningOf({ 'bi-dashboards': 3 });
    const page = catalog.searchPage('power bi', { meaning });
    expect(page.words.map((w) => w.word)).toEqual(['power', 'powerbi', 'bi']);
    expect(page.hits.every((h) => h.meaning === undefined)).toBe(true);
    expect(meaning.asked).toEqual([]);
  });
});
