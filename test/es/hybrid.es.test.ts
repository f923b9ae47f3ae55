/**
 * Meaning in Elasticsearch without an inference endpoint: ingest fills `purpose_vector` with the
 * static model's embedding of each skill's name and description, and the hybrid query (BM25 +
 * kNN, by RRF where the license offers it, else summed) finds a skill by meaning when the request
 * shares no word with it — and still by words when it does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { ingestCatalog } from '../../src/emit/elasticsearch/index.ts';
import { hybridQuery, KNN_BOOST, searchElasticsearch } from '../../src/emit/elasticsearch/search.ts';
import { loadCatalog } from '../../src/load/index.ts';
import {
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  skillMd,
  tempDir,
  testClient,
  uniquePrefix,
  writeSkill,
} from './helpers.ts';

const SKILLS: Record<string, string> = {
  'dotnet-timezone': 'Handle time zones and daylight saving time transitions correctly in .NET applications.',
  'aws-cost-optimize': 'Find ways to reduce the AWS bill: idle resources, rightsizing, reserved capacity.',
  'sponsor-finder': "Find which of a project's dependencies accept sponsorship or funding, and how to give.",
  'pdf-forms': 'Fill in and extract the fields of PDF forms.',
  'release-notes': 'Write release notes from merged pull requests.',
  'sql-tuning': 'Speed up slow SQL queries with indexes and better plans.',
  'slide-deck': 'Create presentation slides from an outline.',
  'docker-images': 'Make container images smaller and builds faster.',
  // A request's words split between a skill's name and its description (below).
  changelog: 'Write release notes for a new version.',
  'slack-release': 'Announce what shipped to the team channel.',
  standup: "Summarize yesterday's work for the daily standup.",
};

const prefix = uniquePrefix('hybrid');
const names = prefixedNames(prefix);
let client: Client;
let dir: string;

beforeAll(async () => {
  if (!ES_URL) return;
  client = testClient();
  dir = await tempDir('hybrid');
  for (const [name, description] of Object.entries(SKILLS))
    await writeSkill(dir, name, { 'SKILL.md': skillMd(name, description) });
  await ingestCatalog(await loadCatalog(dir), { client, names });
});

afterAll(async () => {
  if (!ES_URL) return;
  await deleteIndexesWithPrefix(client, prefix);
  await client.close();
  await removeDirs(dir);
});

describe.skipIf(!ES_URL)('hybrid search in Elasticsearch, without inference', () => {
  it('stores each skill’s purpose vector, unit length, at ingest', async () => {
    const res = await client.get<{ purpose_vector: number[] }>({ index: names.skills, id: 'sql-tuning' });
    const v = res._source!.purpose_vector;
    expect(v).toHaveLength(256);
    expect(Math.hypot(...v)).toBeCloseTo(1, 3);
  });

  it('finds by meaning a skill that shares no word with the request', async () => {
    const lexical = await client.search({
      index: names.skills,
      query: hybridQuery('the database lookups are sluggish', [], 'sum').query as object,
    });
    expect(lexical.hits.hits.map((h) => h._id)).not.toContain('sql-tuning');
    const { hits, method } = await searchElasticsearch('the database lookups are sluggish', { client, names });
    expect(['rrf', 'sum']).toContain(method);
    expect(hits[0]?.skill_id).toBe('sql-tuning');
  });

  it('ranks by words first a skill holding the request’s words across its name and description', async () => {
    // "slack" and "release" are in slack-release's name, "announce" in its description; changelog's
    // description holds "new" and "release". Scored by the best single field, changelog came
    // first; the words are counted across the fields, as skills_search counts them.
    const query = hybridQuery('announce the new release on slack', [], 'sum').query as object;
    const lexical = await client.search({ index: names.skills, query });
    expect(lexical.hits.hits.map((h) => h._id).slice(0, 2)).toEqual(['slack-release', 'changelog']);
  });

  it('`skillpress search --es` runs the hybrid query from the terminal', async () => {
    const request = ['the', 'database', 'lookups', 'are', 'sluggish'];
    const json = await runCli(['search', ...request, '--es', ES_URL, '--index-prefix', prefix, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { hits: Array<{ skill_id: string }> }).hits[0]?.skill_id).toBe('sql-tuning');
    const table = await runCli(['search', ...request, '--es', ES_URL, '--index-prefix', prefix, '--limit', '3']);
    // Summed (this cluster's license has no RRF): each hit says how it was found, by words and by meaning.
    expect(table.stdout.split('\n')[0]).toMatch(
      /^3 skill\(s\) from \S+ \(BM25 \+ kNN scores added: \d matched by words, \d by meaning alone\):$/,
    );
    expect(table.stdout.split('\n')[1]).toMatch(/^# +skill +score +words +meaning +description$/);
    expect(table.stdout.split('\n')[2]).toMatch(/^1 +sql-tuning +[\d.]+ +- +0\.\d{3} +Speed up slow SQL queries/);
  });

  it('reports, summed, how each hit was found: its words’ BM25 score and its kNN similarity', async () => {
    const byMeaning = await searchElasticsearch('the database lookups are sluggish', { client, names, method: 'sum' });
    // No word in common: found by meaning alone.
    expect(byMeaning.hits[0]).toMatchObject({ skill_id: 'sql-tuning' });
    expect(byMeaning.hits[0]!.words).toBeUndefined();
    expect(byMeaning.hits[0]!.meaning).toBeGreaterThan(0.5);
    expect(byMeaning.hits[0]!.meaning).toBeLessThanOrEqual(1);
    const byBoth = await searchElasticsearch('fill the fields of a PDF form', { client, names, method: 'sum' });
    const top = byBoth.hits[0]!;
    expect(top.skill_id).toBe('pdf-forms');
    expect(top.words).toBeGreaterThan(0);
    // The score is the sum of the two clauses' (the kNN similarity weighted by KNN_BOOST).
    expect(top.score).toBeCloseTo(top.words! + KNN_BOOST * top.meaning!, 3);
  });

  it('a prefix that holds no catalog is said in one line, naming the catalogs the cluster holds', async () => {
    for (const args of [
      ['search', 'pdf'],
      ['get', 'pdf-forms'],
      ['validate-index', '--skills', dir],
    ]) {
      const r = await runCli([...args, '--es', ES_URL, '--index-prefix', 'nope-']);
      expect([args[0], r.code]).toEqual([args[0], 1]);
      expect(r.stderr).toMatch(
        /^skillpress [a-z-]+: no skill catalog nope-agent_skills at \S+; it holds .*agent_skills.* \(--index-prefix \S+\): skillpress ingest \(or build with ELASTICSEARCH_URL\) writes one\n/,
      );
      expect(r.stderr).not.toContain('index_not_found_exception');
    }
  });

  it('ranks the same however many results are asked for: the nearest in meaning are scored, not only `size` of them', async () => {
    const requests = [
      'make a presentation from my notes',
      'the database lookups are sluggish',
      'ship notes for the release',
    ];
    for (const request of requests) {
      const ids = async (size: number) =>
        (await searchElasticsearch(request, { client, names, size, method: 'sum' })).hits.map((h) => h.skill_id);
      const ten = await ids(10);
      expect(await ids(1), request).toEqual(ten.slice(0, 1));
      expect(await ids(3), request).toEqual(ten.slice(0, 3));
      expect((await ids(25)).slice(0, 10), request).toEqual(ten);
    }
    const knnOf = (size: number) => hybridQuery('x', [1], 'sum', size).knn as { k: number };
    expect(knnOf(1).k).toBe(knnOf(10).k);
  });

  it('still ranks by words a request that says the skill’s own words, both ways of combining', async () => {
    for (const method of ['sum', 'rrf'] as const) {
      const found = await searchElasticsearch('fill the fields of a PDF form', { client, names, method }).catch(
        (err: Error) => err,
      );
      // RRF needs a license that offers it; the default way falls back to the sum where it does not.
      if (found instanceof Error) expect(method).toBe('rrf');
      else expect(found.hits[0]?.skill_id).toBe('pdf-forms');
    }
  });
});
