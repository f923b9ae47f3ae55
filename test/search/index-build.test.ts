/**
 * The search indexes are written directly (src/search/index-build.ts), not through MiniSearch:
 * the feed is reproducible and the site and the MCP server read the same bytes, so the output
 * must be exactly what MiniSearch's `add` + `toJSON` (terms sorted, ./codec.ts) writes. Compared
 * byte for byte on generated catalogs (fast-check: long descriptions with unindexed words, skills
 * with and without a domain, repeated words, empty fields) and on the fixture catalogs, and again
 * after edits, when the terms of unchanged texts come from the previous build.
 */
import path from 'node:path';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { encodeIndex } from '../../src/search/codec.ts';
import { buildSearchIndexes, extractHeadings, FIELD_BOOSTS, type SearchEntry } from '../../src/search/index.ts';
import { BODY_SPEC, metadataDocument, metadataSpec, type IndexSpec } from '../../src/search/index-build.ts';
import { bodyTerms } from '../../src/search/text.ts';
import { loadCatalog } from '../../src/load/index.ts';

const miniSearch = (spec: IndexSpec): MiniSearch<Record<string, unknown>> =>
  new MiniSearch({
    ...spec,
    fields: [...spec.fields],
    storeFields: [...spec.storeFields],
    tokenize: (text, field) => spec.tokenize(text, field!),
    processTerm: (term, field) => spec.processTerm(term, field!),
  });

/** What the indexes were before: MiniSearch builds them, its JSON with sorted terms goes through the codec. */
function reference(entries: readonly SearchEntry[]): string {
  const meta = miniSearch(metadataSpec(Object.keys(FIELD_BOOSTS)));
  const body = miniSearch(BODY_SPEC);
  for (const e of entries) {
    meta.add(metadataDocument(e));
    body.add({ id: e.id, body: bodyTerms(e.body) });
  }
  const serialize = (kind: string, index: MiniSearch<Record<string, unknown>>): unknown => {
    const plain = index.toJSON() as unknown as { index: Array<[string, unknown]> };
    plain.index.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { format: 'skillpress-search', version: 2, kind, index: encodeIndex(plain) };
  };
  return JSON.stringify([serialize('metadata', meta), serialize('body', body)]);
}

const built = (entries: readonly SearchEntry[]): string => {
  const { search, body } = buildSearchIndexes(entries);
  return JSON.stringify([search, body]);
};

const WORDS = [
  'pdf',
  'forms',
  'form',
  'extract',
  'Tables',
  'the',
  'running',
  'runs',
  'kalo-mitra',
  'x',
  'ünïcode',
  '12345678',
];
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));

const entryArb = fc.record({
  id: fc.stringMatching(/^[a-z]{1,8}$/),
  description: fc.oneof(text(0, 12), text(150, 260)),
  tags: fc.array(fc.oneof(text(1, 2), fc.constant('t'.repeat(70))), { maxLength: 3 }),
  domain: fc.option(text(1, 2), { nil: undefined }),
  title: fc.option(text(1, 3), { nil: undefined }),
  origin: fc.option(fc.constant('verified from c'), { nil: undefined }),
  version: fc.option(fc.constant('1.2.0'), { nil: undefined }),
  headings: fc.array(text(0, 3), { maxLength: 3 }),
  paths: fc.array(fc.constantFrom('SKILL.md', 'scripts/extract_tables.py', 'forms/pdf-forms.md'), { maxLength: 3 }),
  body: text(0, 60),
});

const catalogArb = fc.uniqueArray(entryArb, { minLength: 1, maxLength: 25, selector: (e) => e.id }).map((list) =>
  list
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((e): SearchEntry => {
      const entry: SearchEntry = { ...e, name: e.id, registry: 'local' };
      for (const key of ['domain', 'title', 'origin', 'version'] as const) if (e[key] === undefined) delete entry[key];
      return entry;
    }),
);

describe('search indexes written directly', () => {
  it('are byte for byte what MiniSearch writes, on generated catalogs', () => {
    fc.assert(
      fc.property(catalogArb, (entries) => {
        expect(built(entries)).toBe(reference(entries));
      }),
      { numRuns: 150 },
    );
  });

  it('stay so from build to build as skills change (terms of unchanged texts are kept)', () => {
    fc.assert(
      fc.property(catalogArb, fc.array(fc.tuple(fc.nat(), text(1, 5)), { maxLength: 4 }), (entries, edits) => {
        built(entries);
        const edited = entries.map((e) => ({ ...e }));
        for (const [at, words] of edits) {
          const e = edited[at % edited.length]!;
          if (at % 2 === 0) e.description = `${e.description} ${words}`;
          else e.body = `${words}\n${e.body}`;
        }
        expect(built(edited)).toBe(reference(edited));
      }),
      { numRuns: 60 },
    );
  });

  it('are byte for byte what MiniSearch writes, on the fixture catalogs', async () => {
    for (const root of ['../../skills', '../fixtures/routing/skills']) {
      const { skills } = await loadCatalog(path.join(import.meta.dirname, root), { mode: 'lenient' });
      expect(skills.length).toBeGreaterThan(3);
      const entries = [...skills]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((s): SearchEntry => ({
          id: s.id,
          name: s.name,
          description: s.description,
          tags: s.registry_fields.tags,
          ...(s.registry_fields.domain !== undefined ? { domain: s.registry_fields.domain } : {}),
          headings: extractHeadings(s.body),
          paths: s.files.map((f) => f.path),
          body: s.body,
          registry: s.registry,
        }));
      expect(built(entries)).toBe(reference(entries));
    }
  });
});
