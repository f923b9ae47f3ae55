/**
 * Routing through Elasticsearch: how often `searchElasticsearch`'s hybrid query (BM25 + kNN over
 * `purpose_vector`, scores added) puts the right skill first and in the top 3 for the routing
 * sets' requests, against BM25 alone, kNN alone, other kNN weights, the query before (each
 * request scored by its best single field, `semantic_content` weighted 0.5) and the Agent Builder tool's `MATCH` clauses (no kNN:
 * what it ranks by on a cluster without inference), on a real cluster.
 *
 *   npm run bench:routing -- <catalogs> --set <set>            once, to assemble the set's skills folder
 *   npm run bench:es-routing -- --url http://127.0.0.1:9200 [--set name]…
 *
 * Each set's skills folder (.cache/bench-routing/<set>/skills, with its `skills.precedence`) is
 * ingested into indexes of its own (`bench-routing-<set>-…`, deleted afterwards), as
 * `skillpress ingest` does; every request a skill fits is then searched with each query shape.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { loadConfig, skillsLoadOptions } from '../src/config/load.ts';
import { hybridQuery, KNN_BOOST, LEXICAL_FIELDS } from '../src/emit/elasticsearch/search.ts';
import { ingestCatalog } from '../src/emit/elasticsearch/ingest.ts';
import { loadCatalog } from '../src/load/load-catalog.ts';
import { loadEmbedder } from '../src/semantic/load.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = path.join(ROOT, '.cache/bench-routing');
const SETS = ['public-six', 'awesome-copilot', 'google-skills', 'vercel-labs', 'union'];
/** The kNN weights measured in the `sum` query (the shipped one among them). */
const BOOSTS = [0, 5, KNN_BOOST, 20];

const args = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:9200' }, set: { type: 'string', multiple: true } },
});

interface Request {
  id: string;
  request: string;
  expect: string[];
  split: 'dev' | 'test';
}

type Body = Record<string, unknown>;
type Shape = { name: string; body: (text: string, vector: number[]) => Body };

const SIZE = 10;
/** The shipped query with another kNN weight (0: BM25 alone). */
function withBoost(boost: number): Shape['body'] {
  return (text, vector) => {
    const body = hybridQuery(text, vector, 'sum', SIZE) as { knn: Body };
    return { ...body, knn: boost === 0 ? undefined : { ...body.knn, boost } };
  };
}
/** The query before: each request scored by its best single field, `semantic_content` weighted 0.5, kNN 20. */
function before(text: string, vector: number[]): Body {
  const body = hybridQuery(text, vector, 'sum', SIZE) as { query: { multi_match: Body }; knn: Body };
  const { type: _type, ...match } = body.query.multi_match;
  const fields = ['name^1.5', 'description^4', 'tags^2.5', 'domain^1.5', 'semantic_content^0.5'];
  return { ...body, query: { multi_match: { ...match, fields } }, knn: { ...body.knn, boost: 20 } };
}
/** config/agent_builder/queries/search_skills.esql's MATCH clauses as the query DSL: one match per field, scores added. */
function agentBuilderMatch(text: string): Body {
  const should = LEXICAL_FIELDS.map((spec) => {
    const [field, boost] = spec.split('^') as [string, string];
    const analyzer = field === 'semantic_content' ? {} : { analyzer: 'stop' };
    return { match: { [field]: { query: text, boost: Number(boost), ...analyzer } } };
  });
  return { size: SIZE, _source: ['skill_id'], query: { bool: { should } } };
}
const SHAPES: Shape[] = [
  ...BOOSTS.map((boost): Shape => ({
    name: boost === 0 ? 'BM25 alone' : `BM25 + ${boost} × kNN${boost === KNN_BOOST ? ' (shipped)' : ''}`,
    body: withBoost(boost),
  })),
  { name: 'RRF (where the license offers it)', body: (text, vector) => hybridQuery(text, vector, 'rrf', SIZE) },
  { name: 'kNN alone', body: (text, vector) => ({ ...hybridQuery(text, vector, 'sum', SIZE), query: undefined }) },
  { name: 'before: best single field + 20 × kNN', body: before },
  { name: "Agent Builder's MATCH clauses, no kNN", body: agentBuilderMatch },
];

async function runSet(client: Client, set: string, embed: (text: string) => number[]): Promise<string[]> {
  const dir = path.join(WORK, set);
  if (!existsSync(path.join(dir, 'skills')))
    throw new Error(`${dir}/skills: run npm run bench:routing -- <catalogs> --set ${set} first`);
  const config = await loadConfig(path.join(dir, 'config'));
  const catalog = await loadCatalog(path.join(dir, 'skills'), { ...skillsLoadOptions(config), registry: 'bench' });
  const names = {
    skills: `bench-routing-${set.replace(/[^a-z0-9-]/g, '-')}-skills`,
    files: `bench-routing-${set.replace(/[^a-z0-9-]/g, '-')}-files`,
  };
  const started = performance.now();
  const ingested = await ingestCatalog(catalog, { client, names, force: true });
  process.stderr.write(
    `${set}: ingested ${ingested.skills} skills in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const requests = (
    JSON.parse(readFileSync(path.join(ROOT, 'bench/routing', `${set}.json`), 'utf8')) as { requests: Request[] }
  ).requests.filter((r) => r.expect.length > 0);
  const rows: string[] = [];
  try {
    const ranks = await Promise.all(
      requests.map(async (r) => {
        const vector = embed(r.request);
        const perShape: number[] = [];
        for (const shape of SHAPES) {
          // A shape the cluster refuses (RRF on a basic license) is reported as not measured.
          const res = await client
            .search<{ skill_id: string }>({ index: names.skills, ...shape.body(r.request, vector) })
            .catch(() => undefined);
          if (!res) {
            perShape.push(Number.NaN);
            continue;
          }
          perShape.push(res.hits.hits.findIndex((h) => r.expect.includes(h._source!.skill_id)) + 1);
        }
        return { r, perShape };
      }),
    );
    for (const split of ['dev', 'test'] as const) {
      const of = ranks.filter((x) => x.r.split === split);
      SHAPES.forEach((shape, i) => {
        if (of.some((x) => Number.isNaN(x.perShape[i]))) {
          rows.push(`| ${set} | ${split} | ${shape.name} | refused by the cluster | |`);
          return;
        }
        const first = of.filter((x) => x.perShape[i] === 1).length;
        const top3 = of.filter((x) => x.perShape[i]! >= 1 && x.perShape[i]! <= 3).length;
        rows.push(`| ${set} | ${split} | ${shape.name} | ${pct(first, of.length)} | ${pct(top3, of.length)} |`);
      });
    }
  } finally {
    await client.indices
      .delete({ index: `${names.skills}*,${names.files}*`, ignore_unavailable: true })
      .catch(() => undefined);
    await client.indices.deleteAlias({ index: '_all', name: [names.skills, names.files] }).catch(() => undefined);
  }
  return rows;
}

const pct = (n: number, of: number): string => (of ? `${n}/${of} (${Math.round((n / of) * 100)}%)` : '–');

async function main(): Promise<void> {
  const client = new Client({ node: args.values.url, requestTimeout: 120_000 });
  if (
    !(await client.cluster.health().then(
      () => true,
      () => false,
    ))
  ) {
    process.stderr.write(`bench:es-routing: no Elasticsearch at ${args.values.url} (npm run es:start, or --url)\n`);
    process.exitCode = 1;
    return void (await client.close());
  }
  const embedder = await loadEmbedder();
  const embed = (text: string): number[] => Array.from(embedder.embed(text));
  const rows: string[] = [];
  try {
    for (const set of args.values.set ?? SETS) {
      if (!existsSync(path.join(WORK, set, 'skills'))) {
        process.stderr.write(`${set}: skipped (no ${path.join(WORK, set, 'skills')}; run bench:routing on it first)\n`);
        continue;
      }
      rows.push(...(await runSet(client, set, embed)));
    }
  } finally {
    await client.close();
  }
  console.log(
    '| set | split | query | right skill first | in the top 3 |\n|---|---|---|---:|---:|\n' + rows.join('\n'),
  );
}

await main();
