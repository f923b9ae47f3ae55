/**
 * Routing on a small fixture catalog (test/fixtures/routing): the shared ranking and best_skill's
 * rule, in process, over a feed built by the real pipeline. The routing benchmark
 * (`npm run bench:routing`) measures the same on public catalogs of hundreds of skills.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { DirStore } from '../../src/feed-reader/index.ts';
import { retrieve, ruleJudge, RULE } from '../../src/route/index.ts';
import type { SkillVectors } from '../../src/semantic/skill-vectors.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/routing');
const REQUESTS = JSON.parse(readFileSync(path.join(FIXTURES, 'requests.json'), 'utf8')).requests as Array<{
  request: string;
  expect: string[];
}>;

let dir: string;
let catalog: FeedCatalog;
let meaning: SkillVectors;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skillpress-routing-'));
  await build({
    skills: path.join(FIXTURES, 'skills'),
    out: path.join(dir, 'dist'),
    config: SkillpressConfig.parse({}),
    site: false,
  });
  catalog = await FeedCatalog.load(new DirStore(path.join(dir, 'dist/feed/v1')));
  await catalog.loadBodyIndex();
  meaning = await catalog.meaningIndex();
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('routing the fixture requests', () => {
  it.each(REQUESTS.filter((r) => r.expect.length > 0))(
    'ranks the fitting skill first: $request',
    ({ request, expect: want }) => {
      const hits = catalog.search.search(request, { limit: 3 });
      expect(want).toContain(hits[0]?.id);
    },
  );

  it.each(REQUESTS)('best_skill rule never names a wrong skill: $request', ({ request, expect: want }) => {
    const verdict = ruleJudge(retrieve(catalog.search, request));
    if (want.length === 0) expect(verdict.id).toBeUndefined();
    else if (verdict.id !== undefined) expect(want).toContain(verdict.id);
    expect(verdict.confidence).toBeGreaterThanOrEqual(0);
    expect(verdict.confidence).toBeLessThanOrEqual(1);
    // One plain sentence: the rule's formula is in the docs, not in every answer.
    expect(verdict.reason).not.toMatch(/σ|Rule:|evidence/);
    expect(verdict.reason).toMatch(/^[^\n]{10,300}\.$/);
    expect(verdict.reason.match(/\. [A-Z]/g)).toBeNull();
  });

  it("best_skill rule answers requests that say what they need in the catalog's words", () => {
    for (const [request, id] of [
      ['fill in the fields of a PDF form', 'pdf-forms'],
      ['write release notes from the merged pull requests', 'release-notes'],
      ['flaky tests that fail intermittently in CI', 'flaky-tests'],
      ['speed up a slow SQL query with an index', 'sql-tuning'],
    ]) {
      const verdict = ruleJudge(retrieve(catalog.search, request!));
      expect(verdict.id, request).toBe(id);
      expect(verdict.confidence, request).toBeGreaterThanOrEqual(RULE.threshold);
    }
  });

  it('a request of stop words and filler only has nothing to match', () => {
    const r = retrieve(catalog.search, 'please can you help me with this');
    expect(r.words.map((w) => w.word)).toEqual(['please', 'can', 'you', 'help', 'me', 'with', 'this']);
    expect(ruleJudge(retrieve(catalog.search, 'hello')).id).toBeUndefined();
  });
});

describe('ranking by meaning as well as words', () => {
  it('shows the judge the skill a request means when it shares no word with it', () => {
    const request = 'my boss wants a talk for monday, make it look nice';
    expect(retrieve(catalog.search, request).candidates.map((c) => c.id)).not.toContain('slide-deck');
    const deck = retrieve(catalog.search, request, { meaning }).candidates.find((c) => c.id === 'slide-deck');
    expect(deck).toMatchObject({ wordScore: 0, coverage: 0 });
    expect(deck!.meaning).toBeGreaterThan(2);
    // Meaning alone is not enough for the rule: it also brings in skills near requests none fits.
    expect(ruleJudge(retrieve(catalog.search, request, { meaning })).id).toBeUndefined();
    // Word matches rank above it here; alone, its lead and closeness would pass the threshold, and the coverage floor still says none.
    expect(ruleJudge({ ...retrieve(catalog.search, request, { meaning }), candidates: [deck!] }).id).toBeUndefined();
  });

  it.each(REQUESTS.filter((r) => r.expect.length > 0))(
    'keeps the fitting skill first: $request',
    ({ request, expect: want }) => {
      const [top] = retrieve(catalog.search, request, { meaning }).candidates;
      expect(want).toContain(top?.id);
      expect(top?.meaning).toEqual(expect.any(Number));
    },
  );
});
