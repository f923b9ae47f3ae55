import { describe, expect, it } from 'vitest';
import { buildSearchIndexes, FIELD_BOOSTS, queryWords, SkillSearch, type SearchEntry } from '../../src/search/index.ts';
import { bodyTerms, extractHeadings, normalizeTerm, tokenizePath, tokenizeText } from '../../src/search/text.ts';

const entry = (e: Partial<SearchEntry> & { id: string }): SearchEntry => ({
  name: e.id,
  description: '',
  tags: [],
  headings: [],
  paths: ['SKILL.md'],
  body: '',
  registry: 'local',
  ...e,
});

const ENTRIES: SearchEntry[] = [
  entry({
    id: 'pdf-processing',
    description: 'Extract text and tables from PDF files, fill forms, merge documents.',
    tags: ['pdf', 'documents'],
    domain: 'office',
    headings: ['Quick start', 'Filling forms'],
    paths: ['SKILL.md', 'scripts/extract.py', 'reference/forms.md'],
    body: '# Quick start\nRun `python scripts/extract.py input.pdf`. Uses pdfplumber for tables.',
    version: '1.2.0',
  }),
  entry({
    id: 'refund-approval',
    description: 'Decide whether a customer refund can be approved under the finance policy.',
    tags: ['finance', 'support'],
    domain: 'finance',
    headings: ['Policy'],
    paths: ['SKILL.md', 'policy/limits.csv'],
    body: 'Check the order total against the limits table. Escalate chargebacks to a human.',
  }),
  entry({
    id: 'data-extraction',
    description: 'Pull structured data out of spreadsheets and CSV exports.',
    tags: ['data', 'csv'],
    paths: ['SKILL.md', 'scripts/parse_csv.py', '日本語 ファイル.md'],
    body: 'Normalizes headers. Mentions pdf only in passing.',
    registry: 'peer-a',
  }),
];

const { search, body } = buildSearchIndexes(ENTRIES);
const roundTrip = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
const full = SkillSearch.load(roundTrip(search), roundTrip(body));
const metaOnly = SkillSearch.load(JSON.stringify(search));

describe('tokenizing', () => {
  it('keeps a hyphenated name whole and in parts', () => {
    expect(tokenizeText('pdf-processing, (tables)')).toEqual(['pdf-processing', 'pdf', 'processing', 'tables']);
  });
  it('splits a path into the word parts of its segments', () => {
    expect(tokenizePath('scripts/extract.py')).toEqual(['scripts', 'extract', 'py']);
  });
  it('stems words so that their forms meet, and keeps names, versions and identifiers whole', () => {
    const stems = (text: string): string[] => tokenizeText(text).map((t) => normalizeTerm(t)!);
    expect(stems('forecasting forecast forecasts')).toEqual(['forecast', 'forecast', 'forecast']);
    expect(new Set(stems('conflicts conflict')).size).toBe(1);
    expect(new Set(stems('tests testing tested')).size).toBe(1);
    expect(stems('pdf-processing v2 gpt4o')).toEqual(['pdf-processing', 'pdf', 'process', 'v2', 'gpt4o']);
  });
  it('spells C#, F#, C++ and .NET as words, so they meet skills named csharp-…, dotnet-…', () => {
    expect(tokenizeText('Our scheduler is C#. (.NET 8, F#, C++)')).toEqual([
      'Our',
      'scheduler',
      'is',
      'csharp',
      'dotnet',
      '8',
      'fsharp',
      'cpp',
    ]);
    // Only whole words: an identifier holding the symbols is tokenized as before.
    expect(tokenizeText('ASP.NET c#b')).toEqual(['ASP.NET', 'ASP', 'NET', 'c#b', 'c', 'b']);
    const langs = SkillSearch.load(
      JSON.stringify(
        buildSearchIndexes([
          entry({ id: 'csharp-async', description: 'Async patterns.' }),
          entry({ id: 'c-style', description: 'C code style.' }),
        ]).search,
      ),
    );
    expect(langs.search('async in C#').map((h) => h.id)).toEqual(['csharp-async']);
  });
  it('reads a request without its contractions and filler: no "re", "ve" or "doesn" left to match', () => {
    expect(queryWords("we're building a server so Claude can query Jira, I've tried and it doesn't work")).toEqual([
      'building',
      'server',
      'Claude',
      'query',
      'Jira',
      'tried',
      'work',
    ]);
    expect(queryWords('pricing_matrix.xlsx tiers')).toEqual(['pricing', 'matrix', 'xlsx', 'tiers']);
  });
  it('drops stop words, repeats and markdown from body terms, and stems them', () => {
    expect(bodyTerms('# The [Guide](https://x.example/a) to **PDF** and pdf')).toBe('guid pdf');
  });
  it('finds headings outside code fences', () => {
    expect(extractHeadings('# One\n```\n# not a heading\n```\n## Two ##\n')).toEqual(['One', 'Two']);
  });
});

describe('SkillSearch', () => {
  it('ranks an exact name first and returns the card fields', () => {
    const [first] = full.search('pdf-processing');
    expect(first!.id).toBe('pdf-processing');
    expect(first!.doc).toMatchObject({
      name: 'pdf-processing',
      version: '1.2.0',
      domain: 'office',
      tags: ['pdf', 'documents'],
      registry: 'local',
    });
  });

  it('ranks first a skill whose name the query types in words ("code review" for code-review)', () => {
    const reviews = SkillSearch.load(
      JSON.parse(
        JSON.stringify(
          buildSearchIndexes([
            entry({
              id: 'receiving-code-review',
              description: 'Respond to code review comments on your pull request.',
            }),
            entry({ id: 'code-review', description: 'Review a change.' }),
            entry({ id: 'sql-code-review', description: 'Review SQL code for injection and slow queries.' }),
          ]).search,
        ),
      ),
    );
    expect(reviews.search('code review')[0]?.id).toBe('code-review');
    expect(reviews.search('Code  Review')[0]?.id).toBe('code-review');
    expect(reviews.search('code review comments')[0]?.id).toBe('receiving-code-review');
  });

  it('tolerates typos in a name', () => {
    expect(full.search('pdf-procesing')[0]?.id).toBe('pdf-processing');
    expect(full.search('refnud aproval')[0]?.id).toBe('refund-approval');
  });

  it('says which words matched as written (or another form) and which only by a typo or prefix', () => {
    const [hit] = full.search('refunds chargeba', { limit: 1 });
    expect(hit!.id).toBe('refund-approval');
    expect(hit!.words).toEqual([
      { word: 'refunds', fields: expect.arrayContaining(['name']), exact: true }, // "refund": another form
      { word: 'chargeba', fields: ['body'], exact: false }, // only a prefix of "chargebacks" (the last word)
    ]);
  });

  it('matches prefixes as you type', () => {
    expect(full.search('refu')[0]?.id).toBe('refund-approval');
  });

  it('ranks a name hit above a body-only hit', () => {
    const ids = full.search('pdf').map((h) => h.id);
    expect(ids[0]).toBe('pdf-processing');
    expect(ids).toContain('data-extraction');
    expect(ids.indexOf('pdf-processing')).toBeLessThan(ids.indexOf('data-extraction'));
  });

  it('finds a skill by a file path, its segments and its file name', () => {
    for (const q of ['scripts/extract.py', 'extract.py', 'parse_csv.py', 'policy/limits.csv', '日本語']) {
      const hits = full.search(q, { mode: 'all' });
      expect(hits.length, q).toBeGreaterThan(0);
    }
    // data-extraction also matches every part ("extraction" in its name): both are listed.
    expect(
      full
        .search('scripts/extract.py', { mode: 'all' })
        .map((h) => h.id)
        .sort(),
    ).toEqual(['data-extraction', 'pdf-processing']);
    expect(full.search('reference/forms.md', { mode: 'all' })[0]?.id).toBe('pdf-processing');
    expect(full.search('limits.csv', { mode: 'all' }).map((h) => h.id)).toEqual(['refund-approval']);
  });

  it('allTokens requires every token to match somewhere, body included', () => {
    expect(full.search('finance chargebacks', { mode: 'all' }).map((h) => h.id)).toEqual(['refund-approval']);
    expect(full.search('finance pdfplumber', { mode: 'all' })).toEqual([]);
    expect(
      full
        .search('finance pdfplumber')
        .map((h) => h.id)
        .sort(),
    ).toEqual(['pdf-processing', 'refund-approval']);
  });

  it('searches body text only when the body index is attached', () => {
    expect(metaOnly.hasBody).toBe(false);
    expect(metaOnly.search('chargebacks')).toEqual([]);
    expect(full.hasBody).toBe(true);
    const [hit] = full.search('chargebacks');
    expect(hit!.id).toBe('refund-approval');
    expect(Object.values(hit!.match).flat()).toContain('body');
    const later = SkillSearch.load(search);
    later.attachBody(body);
    expect(later.search('chargebacks')[0]?.id).toBe('refund-approval');
  });

  it('applies filter and limit', () => {
    expect(full.search('pdf', { filter: (d) => d.registry === 'peer-a' }).map((h) => h.id)).toEqual([
      'data-extraction',
    ]);
    expect(full.search('pdf', { limit: 1 })).toHaveLength(1);
  });

  it('returns nothing for an empty or punctuation-only query', () => {
    expect(full.search('')).toEqual([]);
    expect(full.search('  ... ')).toEqual([]);
  });

  it('lists every document and looks one up', () => {
    expect(full.all().map((d) => d.id)).toEqual(['pdf-processing', 'refund-approval', 'data-extraction']);
    expect(full.doc('refund-approval')?.domain).toBe('finance');
    expect(full.size).toBe(3);
  });

  it('rejects something that is not a skillpress index', () => {
    expect(() => SkillSearch.load({ documentCount: 0 })).toThrow(/not a skillpress metadata search index/);
    expect(() => SkillSearch.load(body)).toThrow(/metadata/);
  });

  it('serializes the same entries to the same JSON', () => {
    expect(JSON.stringify(buildSearchIndexes(ENTRIES))).toBe(JSON.stringify({ search, body }));
  });
});

describe('compact index codec', () => {
  it('round-trips MiniSearch JSON exactly', async () => {
    const { decodeIndex, encodeIndex } = await import('../../src/search/codec.ts');
    const MiniSearch = (await import('minisearch')).default;
    const ms = new MiniSearch({ fields: ['text'], storeFields: ['text'] });
    ms.addAll([
      { id: 'a', text: 'pdf pdf tables' },
      { id: 'b', text: 'tables forms' },
      { id: 'c', text: '' },
    ]);
    const plain = JSON.parse(JSON.stringify(ms.toJSON()));
    const compact = encodeIndex(plain);
    const terms = compact.terms.split('\n');
    const postings = compact.postings.split('\n');
    expect(Object.fromEntries(terms.map((t, i) => [t, postings[i]]))).toEqual({
      pdf: '0:0*2',
      tables: '0:0,1',
      forms: '0:1',
    });
    expect(decodeIndex(JSON.parse(JSON.stringify(compact)))).toEqual(plain);
  });
});

describe('query index (term-index.ts)', () => {
  it('scores, ranks and reports matches exactly as MiniSearch does over the metadata index', async () => {
    const MiniSearch = (await import('minisearch')).default;
    const { decodeIndex } = await import('../../src/search/codec.ts');
    const { normalizePathTerm } = await import('../../src/search/text.ts');
    // A small syllable vocabulary, so that prefixes and typos expand to many terms.
    const syllables = ['ka', 'lo', 'mi', 'tra', 'ven', 'sor', 'pel', 'dri', 'an', 'ex', 'con', 'fig'];
    let seed = 7;
    const pick = (n: number): number =>
      Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
    const word = (): string => Array.from({ length: 1 + pick(4) }, () => syllables[pick(syllables.length)]).join('');
    const words = (n: number): string => Array.from({ length: n }, word).join(' ');
    const entries = Array.from({ length: 300 }, (_, i) =>
      entry({
        id: `s${i}-${word()}`,
        description: words(8 + pick(20)),
        tags: [word(), word()],
        domain: word(),
        headings: [words(2)],
        paths: ['SKILL.md', `scripts/${word()}_${word()}.py`],
      }),
    );
    const built = buildSearchIndexes(entries).search;
    const ours = SkillSearch.load(built);
    const plain = decodeIndex(built.index as Parameters<typeof decodeIndex>[0]) as { index: Array<[string, unknown]> };
    const reference = MiniSearch.loadJSON(JSON.stringify(plain), { fields: Object.keys(FIELD_BOOSTS) });
    const queries = [
      'ka',
      'tra',
      'ven',
      'sorpel',
      'drian',
      'extracon',
      'figkalomi',
      'venxsor',
      'konfig',
      'tralomiven',
      'py',
      'scripts',
    ];
    // Our typo rule: a term the index has is not a typo.
    const known = new Set(plain.index.map(([t]) => t));
    expect(queries.some((q) => known.has(q) && q.length >= 4)).toBe(true);
    expect(queries.some((q) => !known.has(q) && q.length >= 4)).toBe(true);
    for (const q of queries) {
      const want = reference.search(q, {
        tokenize: (t) => [t],
        processTerm: (t) => normalizePathTerm(t),
        prefix: (t) => t.length >= 2,
        fuzzy: (t) => (known.has(t) || t.length < 4 ? 0 : t.length < 8 ? 1 : 2),
        boost: { ...FIELD_BOOSTS },
        weights: { prefix: 0.375, fuzzy: 0.45 },
      });
      const got = ours.search(q, { mode: 'any' });
      expect(want.length, q).toBeGreaterThan(0);
      expect(got.map((h) => h.id).sort(), q).toEqual(want.map((h) => h.id).sort());
      const wanted = new Map(want.map((h) => [h.id, h]));
      for (const h of got) {
        expect(h.score, `${q} ${h.id}`).toBeCloseTo(wanted.get(h.id)!.score, 9);
        expect(Object.fromEntries(Object.entries(h.match).map(([t, f]) => [t, [...f].sort()])), `${q} ${h.id}`).toEqual(
          Object.fromEntries(Object.entries(wanted.get(h.id)!.match).map(([t, f]) => [t, [...f].sort()])),
        );
      }
      // Ranked by score, ties by id.
      expect(got.map((h) => h.score)).toEqual([...got.map((h) => h.score)].sort((a, b) => b - a));
    }
  });

  it('scores a query of several words as the sum of its words (mode any), over their intersection (mode all)', () => {
    // Bodies share common words, so the rarest-first and mask paths see large and small sets.
    const syllables = ['ka', 'lo', 'mi', 'tra', 'ven', 'sor', 'pel', 'dri'];
    let seed = 11;
    const pick = (n: number): number =>
      Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
    const word = (): string => Array.from({ length: 1 + pick(3) }, () => syllables[pick(syllables.length)]).join('');
    const words = (n: number): string => Array.from({ length: n }, word).join(' ');
    const entries = Array.from({ length: 200 }, (_, i) =>
      entry({
        id: `s${String(i).padStart(3, '0')}`,
        description: words(6 + pick(10)),
        tags: [word()],
        body: words(20 + pick(60)),
      }),
    );
    const built = buildSearchIndexes(entries);
    const s = SkillSearch.load(built.search, built.body);
    const scoresOf = (q: string): Map<string, number> =>
      new Map(s.search(q, { mode: 'any' }).map((h) => [h.id, h.score]));
    // Only a query's last word matches as a prefix: score the others alone followed by a word that
    // matches nothing ("xyzw"), so that each is matched as it is in the whole query.
    const alone = (w: string, i: number, all: string[]): Map<string, number> =>
      scoresOf(i === all.length - 1 ? w : `${w} xyzw`);
    for (const q of ['ka lo', 'tra venmi', 'sor pel dri', 'kalo mitra', 'dri ka ven lo', 'venven pelka']) {
      const perWord = q.split(' ').map(alone);
      const union = new Set(perWord.flatMap((m) => [...m.keys()]));
      const any = scoresOf(q);
      expect([...any.keys()].sort(), q).toEqual([...union].sort());
      for (const [id, score] of any)
        expect(score, `${q} ${id}`).toBeCloseTo(
          perWord.reduce((sum, m) => sum + (m.get(id) ?? 0), 0),
          9,
        );
      const all = s.searchPage(q, { mode: 'all' });
      const both = [...union].filter((id) => perWord.every((m) => m.has(id)));
      expect(all.hits.map((h) => h.id).sort(), q).toEqual(both.sort());
      expect(all.total).toBe(both.length);
      for (const h of all.hits) expect(h.score).toBe(any.get(h.id));
      // The limit keeps the best, ties by id.
      const top = s.searchPage(q, { mode: 'all', limit: 5 }).hits.map((h) => h.id);
      expect(top).toEqual(
        [...all.hits]
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
          .slice(0, 5)
          .map((h) => h.id),
      );
    }
  });

  it('finds prefixes and typo neighbours exactly as a brute-force scan does', async () => {
    const { TermIndex } = await import('../../src/search/term-index.ts');
    const { encodeIndex } = await import('../../src/search/codec.ts');
    const words = [
      'extract',
      'extraction',
      'extras',
      'exact',
      'tract',
      'pdf',
      'pdfs',
      'pd',
      'form',
      'forms',
      'from',
      'farm',
      'fort',
      'xtract',
    ];
    const MiniSearch = (await import('minisearch')).default;
    const ms = new MiniSearch({ fields: ['text'] });
    ms.addAll(words.map((w, i) => ({ id: String(i), text: w })));
    const ix = new TermIndex(encodeIndex(JSON.parse(JSON.stringify(ms.toJSON()))));
    expect(ix.terms).toEqual([...words].sort());
    const [from, to] = ix.prefixRange('extra');
    expect(ix.terms.slice(from, to)).toEqual(['extract', 'extraction', 'extras']);
    const distance = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
      for (let j = 1; j <= b.length; j++) d[0]![j] = j;
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
      return d[a.length]![b.length]!;
    };
    for (const [q, max] of [
      ['form', 1],
      ['extrct', 1],
      ['pdf', 1],
      ['xtract', 2],
    ] as const) {
      const got = ix
        .fuzzy(q, max)
        .map(([t, d]) => `${ix.terms[t]}:${d}`)
        .sort();
      const want = ix.terms
        .filter((t) => distance(q, t) <= max)
        .map((t) => `${t}:${distance(q, t)}`)
        .sort();
      expect(got, q).toEqual(want);
    }
    // Many short words over three letters: dense neighbourhoods, every length against every other.
    let seed = 1;
    const random = (n: number): number => Math.floor(((seed = (seed * 48271) % 2147483647) / 2147483647) * n);
    const word = (): string => Array.from({ length: 1 + random(7) }, () => 'abc'[random(3)]).join('');
    const dense = new MiniSearch({ fields: ['text'] });
    dense.addAll(Array.from({ length: 400 }, (_, i) => ({ id: String(i), text: word() })));
    const dix = new TermIndex(encodeIndex(JSON.parse(JSON.stringify(dense.toJSON()))));
    for (let i = 0; i < 60; i++) {
      const q = word();
      const max = 1 + (i % 2);
      const got = dix.fuzzy(q, max).map(([t, d]) => `${dix.terms[t]}:${d}`);
      const want = dix.terms.filter((t) => distance(q, t) <= max).map((t) => `${t}:${distance(q, t)}`);
      expect(got, `${q} within ${max}`).toEqual(want); // in term order
    }
  });

  it('matches body words exactly, and by prefix only from four characters', () => {
    const s = SkillSearch.load(search, body);
    expect(s.search('chargeback').map((h) => h.id)).toEqual(['refund-approval']); // prefix of "chargebacks"
    expect(s.search('escalating').map((h) => h.id)).toEqual(['refund-approval']); // "escalate": the same stem
    expect(s.search('esc')).toEqual([]); // a 3-character prefix of a body word alone
    expect(s.search('human').map((h) => h.id)).toEqual(['refund-approval']);
  });

  it('counts every match but builds only `limit` hits', () => {
    const page = full.searchPage('pdf', { limit: 1 });
    expect(page.total).toBe(full.search('pdf').length);
    expect(page.hits.map((h) => h.id)).toEqual([full.search('pdf')[0]!.id]);
  });

  it('lists every hit in the same order with `detailed`, and says what matched for the first ones only', () => {
    const all = full.searchPage('pdf tables forms');
    const page = full.searchPage('pdf tables forms', { detailed: 1 });
    expect(page.hits.length).toBeGreaterThan(1);
    expect(page.hits.map((h) => [h.id, h.score, h.wordScore, h.strong])).toEqual(
      all.hits.map((h) => [h.id, h.score, h.wordScore, h.strong]),
    );
    expect({ ...page, hits: page.hits.slice(0, 1) }).toEqual({ ...all, hits: all.hits.slice(0, 1) });
    for (const hit of page.hits.slice(1)) expect([hit.words, hit.terms, hit.coverage]).toEqual([[], [], 0]);
  });

  it('reads indexes whose terms are not sorted, and a body index listing skills in another order', () => {
    const unsorted = (x: unknown): unknown => {
      const copy = JSON.parse(JSON.stringify(x));
      const terms: string[] = copy.index.terms.split('\n');
      const postings: string[] = copy.index.postings.split('\n');
      copy.index.terms = [...terms].reverse().join('\n');
      copy.index.postings = [...postings].reverse().join('\n');
      return copy;
    };
    const reordered = buildSearchIndexes([...ENTRIES].reverse()).body;
    const s = SkillSearch.load(unsorted(search), unsorted(reordered));
    expect(s.search('chargebacks').map((h) => h.id)).toEqual(['refund-approval']);
    expect(s.search('pdfplumber').map((h) => h.id)).toEqual(['pdf-processing']);
    expect(s.search('pdf').map((h) => [h.id, h.score])).toEqual(full.search('pdf').map((h) => [h.id, h.score]));
  });
});

describe('words that name members of every JavaScript object', () => {
  // "constructor" is an ordinary word in requests about code; "__proto__" and "toString" too.
  const members = buildSearchIndexes([
    entry({
      id: 'class-helper',
      description: 'Adds a constructor to a class and overrides toString.',
      body: 'Never touch __proto__ directly; use the constructor.',
    }),
    entry({ id: 'plain-notes', description: 'Keeps notes in plain text.' }),
  ]);
  const index = SkillSearch.load(roundTrip(members.search), roundTrip(members.body));

  it('finds the skill that has them, and says where, instead of failing', () => {
    const [hit, ...rest] = index.search('add a constructor and toString, avoid __proto__');
    expect(hit?.id).toBe('class-helper');
    expect(rest).toEqual([]);
    expect(hit?.words.find((w) => w.word === 'constructor')?.fields).toEqual(
      expect.arrayContaining(['description', 'body']),
    );
    expect(Object.keys(hit!.match)).toEqual(expect.arrayContaining(['constructor']));
    expect(index.search('constructor', { mode: 'all' }).map((h) => h.id)).toEqual(['class-helper']);
  });

  it('finds nothing for them in a skill that lacks them', () => {
    expect(index.search('constructor').map((h) => h.id)).not.toContain('plain-notes');
    expect(SkillSearch.load(roundTrip(members.search)).search('hasOwnProperty valueOf')).toEqual([]);
  });
});
