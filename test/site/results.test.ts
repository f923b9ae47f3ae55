/**
 * The catalog's logic without a browser: the URL state (src/site/client/url-state.ts) and what
 * a state shows (src/site/client/results.ts), over a real search index built from entries.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndexes, SkillSearch, type SearchEntry } from '../../src/search/index.ts';
import {
  domainOfDoc,
  facetEntries,
  registryOfDoc,
  matches,
  results,
  emptyText,
  resultsSummary,
  tagsOfDoc,
} from '../../src/site/client/results.ts';
import { isActive, readState, stateQuery, toggle, type CatalogState } from '../../src/site/client/url-state.ts';

const entry = (id: string, description: string, tags: string[], domain?: string, body = ''): SearchEntry => ({
  id,
  name: id,
  description,
  tags,
  domain,
  headings: [],
  paths: ['SKILL.md'],
  body,
  registry: 'local',
});

const ENTRIES = [
  entry(
    'invoice-reconciler',
    'Matches supplier invoices against purchase orders.',
    ['invoices', 'accounting', 'audit'],
    'finance',
  ),
  entry(
    'expense-auditor',
    'Audits employee expense reports.',
    ['audit', 'expenses'],
    'finance',
    'Uses the quokkanomics heuristic.',
  ),
  entry('budget-forecaster', 'Forecasts next quarter budget lines.', ['forecasting', 'accounting'], 'finance'),
  entry('pdf-toolkit', 'Reads text and tables out of PDF documents.', ['pdf', 'parsing'], 'documents'),
  entry('plain-notes', 'Keeps notes in plain text.', []),
];

function searchIndex(withBody = true): SkillSearch {
  const { search, body } = buildSearchIndexes(ENTRIES);
  // Through JSON, as the browser receives them.
  return SkillSearch.load(JSON.parse(JSON.stringify(search)), withBody ? JSON.parse(JSON.stringify(body)) : undefined);
}

const state = (over: Partial<CatalogState> = {}): CatalogState => ({
  q: '',
  tags: [],
  domain: undefined,
  folder: undefined,
  registry: undefined,
  sort: 'relevance',
  ...over,
});
const ids = (docs: ReadonlyArray<{ id: string }>): string[] => docs.map((d) => d.id);

describe('URL state', () => {
  it('reads and writes the same state, in a stable order', () => {
    const s = readState(
      '?q=pdf+tables&tag=audit&tag=accounting&domain=finance&folder=.curated&registry=acme&sort=name&utm=x',
    );
    expect(s).toEqual({
      q: 'pdf tables',
      tags: ['audit', 'accounting'],
      domain: 'finance',
      folder: '.curated',
      registry: 'acme',
      sort: 'name',
    });
    expect(stateQuery(s)).toBe(
      '?q=pdf+tables&tag=audit&tag=accounting&domain=finance&folder=.curated&registry=acme&sort=name',
    );
    expect(readState(stateQuery(s))).toEqual(s);
  });

  it('falls back to the defaults for anything unknown, and writes nothing for them', () => {
    expect(readState('?sort=sideways')).toEqual(state());
    expect(stateQuery(state())).toBe('');
    expect(isActive(state())).toBe(false);
    expect(isActive(state({ sort: 'updated' }))).toBe(true);
    expect(isActive(state({ folder: 'git' }))).toBe(true);
    expect(isActive(state({ registry: 'acme' }))).toBe(true);
  });

  it('toggles tags and the domain on and off', () => {
    const on = toggle(toggle(state(), 'tag', 'audit'), 'domain', 'finance');
    expect(on).toEqual(state({ tags: ['audit'], domain: 'finance' }));
    expect(toggle(toggle(on, 'tag', 'audit'), 'domain', 'finance')).toEqual(state());
    // One folder at a time, as one domain.
    expect(toggle(toggle(state(), 'folder', 'git'), 'folder', '.curated')).toEqual(state({ folder: '.curated' }));
    expect(toggle(state({ folder: 'git' }), 'folder', 'git')).toEqual(state());
    // One registry at a time too.
    expect(toggle(toggle(state(), 'registry', 'acme'), 'registry', 'home')).toEqual(state({ registry: 'home' }));
    expect(toggle(state({ registry: 'acme' }), 'registry', 'acme')).toEqual(state());
  });
});

describe('results', () => {
  const search = searchIndex();

  it('lists every skill by name without a query, ranked with one', () => {
    expect(ids(results(matches(search, '', false).docs, state()))).toEqual([
      'budget-forecaster',
      'expense-auditor',
      'invoice-reconciler',
      'pdf-toolkit',
      'plain-notes',
    ]);
    expect(ids(results(matches(search, 'invoices', false).docs, state({ q: 'invoices' })))[0]).toBe(
      'invoice-reconciler',
    );
  });

  it('says which words a skill matched when it matched only some of the query', () => {
    const { docs, notes } = matches(search, 'audit the purchase orders', false);
    // Every word (audit, purchase, orders) first, then the skills matching fewer.
    expect(docs[0]!.id).toBe('invoice-reconciler');
    expect(notes.has('invoice-reconciler')).toBe(false);
    expect(notes.get('expense-auditor')).toBe('Matches 1 of 3 words: audit');
    expect(new Set(notes.keys())).toEqual(new Set(docs.slice(1).map((d) => d.id)));
    expect(matches(search, '', false).notes.size).toBe(0);
    // Only the cards shown need a note: the same skills in the same order, the first ones noted.
    const shown = matches(search, 'audit the purchase orders', false, undefined, 1);
    expect(notes.size).toBeGreaterThan(0);
    expect(ids(shown.docs)).toEqual(ids(docs));
    expect(shown.notes.size).toBe(0); // the first skill matched every word
  });

  it('counts the words as typed when the skill matched a word the catalog writes as one', () => {
    const { search } = buildSearchIndexes([
      entry('payroll-runner', 'Runs payroll for a small company.', ['payroll']),
      entry('tax-filer', 'Files quarterly taxes.', ['taxes']),
    ]);
    const joined = SkillSearch.load(JSON.parse(JSON.stringify(search)));
    // "pay roll" is searched as `payroll` too: the skill has every word typed, so no note.
    expect(matches(joined, 'pay roll', false).notes.has('payroll-runner')).toBe(false);
    expect(matches(joined, 'pay roll taxes', false).notes.get('payroll-runner')).toBe('Matches 2 of 3 words: payroll');
    expect(matches(joined, 'pay roll taxes', false).notes.get('tax-filer')).toBe('Matches 1 of 3 words: taxes');
  });

  it('says when no skill shares a word with the query and its results are close in meaning alone', () => {
    // Closeness as a meaning index gives it (standard deviations): the PDF skill stands out.
    const meaning = {
      slotIds: ENTRIES.map((e) => e.id),
      closeness: () => Float32Array.from(ENTRIES, (e) => (e.id === 'pdf-toolkit' ? 3 : 0)),
    };
    const alone = matches(search, 'scanned paperwork extraction pipeline', false, meaning);
    expect(ids(alone.docs)).toEqual(['pdf-toolkit']);
    expect(alone.meaningAlone).toBe(true);
    expect(resultsSummary(alone.docs.length, 'scanned paperwork extraction pipeline', 0, alone.meaningAlone)).toBe(
      '1 skill close in meaning to “scanned paperwork extraction pipeline”; none shares a word with it',
    );
    // A word some skill has, even in its body only, is no longer meaning alone.
    expect(matches(search, 'scanned paperwork quokkanomics pipeline', false, meaning).meaningAlone).toBe(false);
    // Before the body index is read, it cannot tell: a word may be in a body.
    expect(matches(search, 'scanned paperwork extraction pipeline', true, meaning).meaningAlone).toBe(false);
  });

  it('finds a body-only word only with the body index', () => {
    expect(ids(matches(search, 'quokkanomics', false).docs)).toEqual(['expense-auditor']);
    expect(ids(matches(search, 'quokkanomics', true).docs)).toEqual([]);
    expect(ids(matches(searchIndex(false), 'quokkanomics', false).docs)).toEqual([]);
  });

  it('keeps only skills with every chosen tag and the chosen domain', () => {
    const all = matches(search, '', false).docs;
    expect(ids(results(all, state({ tags: ['accounting'] })))).toEqual(['budget-forecaster', 'invoice-reconciler']);
    expect(ids(results(all, state({ tags: ['accounting', 'audit'] })))).toEqual(['invoice-reconciler']);
    expect(ids(results(all, state({ domain: 'documents' })))).toEqual(['pdf-toolkit']);
    // Domain counts are worked out without the chosen domain, so every domain keeps its count.
    expect(ids(results(all, state({ domain: 'documents' }), { ignore: 'domain' }))).toHaveLength(5);
  });

  it('keeps only skills in the chosen folder, by the folders cards.json gives', () => {
    const all = matches(search, '', false).docs;
    const folders = new Map([
      ['invoice-reconciler', 'finance-tools'],
      ['budget-forecaster', 'finance-tools'],
      ['pdf-toolkit', 'documents'],
      ['expense-auditor', ''],
    ]);
    expect(ids(results(all, state({ folder: 'finance-tools' }), { folders }))).toEqual([
      'budget-forecaster',
      'invoice-reconciler',
    ]);
    // With a tag too: both must hold.
    expect(ids(results(all, state({ folder: 'finance-tools', tags: ['audit'] }), { folders }))).toEqual([
      'invoice-reconciler',
    ]);
    expect(ids(results(all, state({ folder: 'finance-tools' }), { folders, ignore: 'folder' }))).toHaveLength(5);
    // A query narrows within the folder.
    const matched = matches(search, 'forecast', false).docs;
    expect(ids(results(matched, state({ q: 'forecast', folder: 'finance-tools' }), { folders }))).toEqual([
      'budget-forecaster',
    ]);
  });

  it("keeps only skills from the chosen registry, and counts registries without it (an aggregator's site)", () => {
    const fromAcme = (e: SearchEntry): SearchEntry => ({ ...e, registry: 'acme' });
    const mixed = ENTRIES.map((e) => (e.domain === 'finance' ? e : fromAcme(e)));
    const { search } = buildSearchIndexes(mixed);
    const all = matches(SkillSearch.load(JSON.parse(JSON.stringify(search))), '', false).docs;
    expect(ids(results(all, state({ registry: 'acme' })))).toEqual(['pdf-toolkit', 'plain-notes']);
    // With a domain too: both must hold.
    expect(ids(results(all, state({ registry: 'acme', domain: 'finance' })))).toEqual([]);
    const chosen = state({ registry: 'acme', tags: ['accounting'] });
    expect(ids(results(all, chosen))).toEqual([]);
    // Its counts leave the chosen registry out: they say what switching would give.
    const base = results(all, chosen, { ignore: 'registry' });
    expect(facetEntries(base, registryOfDoc, ['acme'])).toEqual([{ value: 'local', count: 2, selected: false }]);
    expect(facetEntries(all, registryOfDoc, [])).toEqual([
      { value: 'local', count: 3, selected: false },
      { value: 'acme', count: 2, selected: false },
    ]);
  });

  it('sorts by update time, newest first, then by name', () => {
    const updated = new Map([
      ['pdf-toolkit', '2026-03-01T00:00:00Z'],
      ['expense-auditor', '2026-03-01T00:00:00Z'],
      ['plain-notes', '2026-05-01T00:00:00Z'],
    ]);
    expect(ids(results(matches(search, '', false).docs, state({ sort: 'updated' }), { updatedAt: updated }))).toEqual([
      'plain-notes',
      'expense-auditor',
      'pdf-toolkit',
      'budget-forecaster',
      'invoice-reconciler',
    ]);
  });

  it('counts facet values over the results: selected first, then by count and name', () => {
    const docs = results(matches(search, '', false).docs, state({ domain: 'finance' }));
    expect(facetEntries(docs, tagsOfDoc, ['forecasting'])).toEqual([
      { value: 'forecasting', count: 1, selected: true },
      { value: 'accounting', count: 2, selected: false },
      { value: 'audit', count: 2, selected: false },
      { value: 'expenses', count: 1, selected: false },
      { value: 'invoices', count: 1, selected: false },
    ]);
    expect(facetEntries(matches(search, '', false).docs, domainOfDoc, [])).toEqual([
      { value: 'finance', count: 3, selected: false },
      { value: 'documents', count: 1, selected: false },
    ]);
  });

  it('suggests removing a filter only when one is chosen', () => {
    const state = readState('?q=zzxqvw');
    expect(emptyText(state)).toBe('No skill matches. Try fewer or other words.');
    for (const filtered of [
      '?q=zzxqvw&tag=pdf',
      '?q=zzxqvw&domain=finance',
      '?q=zzxqvw&folder=git',
      '?q=zzxqvw&registry=acme',
    ])
      expect(emptyText(readState(filtered))).toBe('No skill matches. Try fewer words or remove a filter.');
  });

  it('says how many skills a query found', () => {
    expect(resultsSummary(1, '')).toBe('1 skill');
    expect(resultsSummary(3, '  pdf ')).toBe('3 skills for “pdf”');
    // An aggregator's counts read as counts: as the MCP server writes them.
    expect(resultsSummary(1650, '')).toBe('1,650 skills');
    expect(resultsSummary(134, 'review my pull request', 1433)).toBe(
      '134 skills for “review my pull request” and 1,433 weaker matches',
    );
  });
});
