/**
 * Routing benchmark: do agents find the right skill from the words people type?
 *
 *   npm run bench:routing -- <catalogs dir>                 every set whose sources are there
 *   npm run bench:routing -- <catalogs dir> --set public-six --split test
 *   npm run bench:routing -- <catalogs dir> --reuse         reuse the feeds built last time
 *   npm run bench:routing -- <catalogs dir> --dump f.json   also write each request's candidates
 *   npm run bench:routing -- <catalogs dir> --calibrate     refit best_skill's rule on the dev split
 *   npm run bench:routing -- <catalogs dir> --set union --without <owner>+<repo>   the set over its other sources
 *
 * A routing set (bench/routing/<set>.json) names its catalog — public repositories, fetched and
 * extracted into `<catalogs dir>/<owner>+<repo>/` (never vendored here) — and lists realistic
 * requests with the skill(s) that fit, or none. Each set's sources are copied into one skills
 * folder, built with the real pipeline (`build()`, no site; `skills.precedence` = the set's
 * sources in order, as an aggregator would set it) into .cache/bench-routing/<set>/, and served by the MCP server in this process. Per set and split (dev: what the rule was
 * calibrated on; test: held out) it prints:
 * - skills_search (the request as the query): right skill first, in the top 3, empty results;
 * - best_skill with the rule: right (the skill, or none when none fits), none when one fits (and
 *   of those, how many list the right skill among the nearest shown to the agent), wrong skill;
 *   and the same through the sampling path with a test judge that answers with the expected
 *   skill when it is among the candidates the server showed it (else none): the ceiling that
 *   retrieval leaves a perfect model;
 * - latency of both tools in process (p50 / p95).
 * `--calibrate` fits the rule's weights (logistic regression of "the top candidate is right" on
 * its evidence) and threshold (the most right answers with at most 5% wrong) on the dev split of
 * the sets run whose catalogs are no larger than those it was first fitted on, the threshold of
 * large catalogs on the dev split of those of 800 skills or more (the union and its cuts), and
 * prints them for src/route/rule.ts.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { build } from '../src/build.ts';
import { FeedCatalog } from '../src/mcp/catalog.ts';
import { DirStore } from '../src/feed-reader/index.ts';
import { createServer } from '../src/mcp/server.ts';
import { searchSkills } from '../src/mcp/tools/index.ts';
import { NEAREST_SHOWN } from '../src/mcp/tools/best-skill.ts';
import {
  accepts,
  evidenceOf,
  MEANING_WEIGHT,
  retrieve,
  RULE,
  ruleJudge,
  strength,
  withOutcomes,
  type Retrieval,
} from '../src/route/index.ts';
import type { SkillVectors } from '../src/semantic/skill-vectors.ts';
import { fitLogistic } from './lib/logistic.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SETS = path.join(ROOT, 'bench/routing');
const WORK = path.join(ROOT, '.cache/bench-routing');

const RoutingSet = z.object({
  name: z.string(),
  /** Set by --small and --without: the set this one is cut from (its requests, over some of its sources). */
  subsetOf: z.string().optional(),
  description: z.string(),
  sources: z.array(z.string()).min(1),
  requests: z.array(
    z.object({
      id: z.string(),
      request: z.string(),
      expect: z.array(z.string()),
      split: z.enum(['dev', 'test']),
      note: z.string().optional(),
    }),
  ),
});
type RoutingSet = z.infer<typeof RoutingSet>;
type Request = RoutingSet['requests'][number];

interface Outcome {
  request: Request;
  searchRank: number; // 1-based position of the first expected skill in skills_search, 0: absent
  searchEmpty: boolean;
  /** How many results skills_search counts as strong, and how many it found. */
  strong: number;
  total: number;
  /** The right skill is among the results but folded among the weaker ones. */
  rightFolded: boolean;
  /** 1-based rank of the first expected skill for the request's 2 and 3 most telling words as a keyword query; 0: absent. */
  keywordRanks: [number, number];
  rule: string | undefined;
  model: string | undefined;
  searchMs: number;
  bestMs: number;
  retrieval: Retrieval;
  /** The retrieval again with another weight of meaning (for --calibrate). */
  retrieveWith: (meaningWeight: number) => Retrieval;
}

const args = parseArgs({
  allowPositionals: true,
  options: {
    set: { type: 'string', multiple: true },
    split: { type: 'string', default: 'all' },
    reuse: { type: 'boolean' },
    dump: { type: 'string' },
    calibrate: { type: 'boolean' },
    small: { type: 'boolean' },
    without: { type: 'string', multiple: true },
  },
});
const catalogsDir = args.positionals[0];
if (!catalogsDir) {
  process.stderr.write(
    'usage: npm run bench:routing -- <folder holding <owner>+<repo>/ catalogs> [--set name] [--split dev|test|all] [--reuse] [--dump file]\n',
  );
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** One skills folder holding every source of the set, copied (sources stay read-only). */
function assemble(set: RoutingSet): string {
  const skills = path.join(WORK, set.name, 'skills');
  rmSync(skills, { recursive: true, force: true });
  for (const source of set.sources)
    cpSync(path.join(catalogsDir!, source), path.join(skills, source), { recursive: true });
  return skills;
}

async function feedFor(set: RoutingSet): Promise<string> {
  const out = path.join(WORK, set.name, 'dist');
  const feed = path.join(out, 'feed/v1');
  if (args.values.reuse && existsSync(path.join(feed, 'index.json'))) return feed;
  const config = path.join(WORK, set.name, 'config');
  mkdirSync(config, { recursive: true });
  // As an aggregator would: where sources share a name, the set's first-listed source keeps it.
  writeFileSync(path.join(config, 'skillpress.json'), JSON.stringify({ skills: { precedence: set.sources } }));
  const started = performance.now();
  const result = await build({ skills: assemble(set), out, config, site: false });
  log(
    `${set.name}: built ${result.skills} skills in ${((performance.now() - started) / 1000).toFixed(1)} s (${result.invalid} invalid)`,
  );
  return feed;
}

/** A client whose sampling handler answers with the expected skill when the server showed it, else none. */
async function oracleClient(
  feed: string,
  expected: () => string[],
): Promise<{ client: Client; close: () => Promise<void> }> {
  const catalog = FeedCatalog.load(new DirStore(feed));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(() => createServer(() => catalog, { name: 'skillpress', version: 'bench' }), {
    transport: serverSide,
  });
  const client = new Client({ name: 'routing-bench', version: '1' }, { capabilities: { sampling: {} } });
  client.setRequestHandler('sampling/createMessage', async (req) => {
    const prompt = req.params.messages.map((m) => ('text' in m.content ? m.content.text : '')).join('\n');
    const shown = [...prompt.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]!);
    const pick = expected().find((id) => shown.includes(id)) ?? 'none';
    return { model: 'oracle', role: 'assistant', content: { type: 'text', text: pick }, stopReason: 'endTurn' };
  });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await handle.close()) };
}

async function runSet(set: RoutingSet): Promise<Outcome[]> {
  const feed = await feedFor(set);
  const catalog = await FeedCatalog.load(new DirStore(feed));
  // A set cut to one of its sources: a request fits the skills of that source it listed, none when it listed none there.
  if (set.subsetOf)
    set.requests = set.requests.map((r) => ({ ...r, expect: r.expect.filter((name) => catalog.card(name)) }));
  await catalog.loadBodyIndex();
  const meaning = await catalog.meaningIndex();
  let current: string[] = [];
  const oracle = await oracleClient(feed, () => current);
  const outcomes: Outcome[] = [];
  try {
    for (const request of set.requests.filter((r) => args.values.split === 'all' || r.split === args.values.split)) {
      current = request.expect;
      outcomes.push(await runRequest(catalog, meaning, oracle.client, request));
    }
  } finally {
    await oracle.close();
  }
  return outcomes;
}

async function runRequest(
  catalog: FeedCatalog,
  meaning: SkillVectors,
  client: Client,
  request: Request,
): Promise<Outcome> {
  let t = performance.now();
  const search = await searchSkills(catalog, request.request, 10);
  const searchMs = performance.now() - t;
  const everything = catalog.search.searchPage(request.request, { limit: Infinity, meaning });
  // skills_search's results are the shared ranking's first: their ids (several skills may share a name) are those hits'.
  const shown = everything.hits.slice(0, search.results.length);
  if (shown.some((h, i) => h.doc.name !== search.results[i]!.name))
    throw new Error(`${request.id}: skills_search and the shared ranking disagree`);
  const searchRank = shown.findIndex((h) => fits(request, { id: h.id, name: h.doc.name })) + 1;
  const rightAt = everything.hits.findIndex((h) => fits(request, { id: h.id, name: h.doc.name }));
  t = performance.now();
  const retrieval = retrieve(catalog.search, request.request, { meaning });
  const rule = ruleJudge(retrieval).id;
  const bestMs = performance.now() - t;
  const viaModel = await client.callTool({ name: 'best_skill', arguments: { query: request.request } });
  const structured = viaModel.structuredContent as {
    skill: { name: string } | null;
    kept_for_people?: string;
    decided_by: string;
  };
  // With no candidate at all there is nothing to ask the model.
  if (structured.decided_by !== 'model' && retrieval.candidates.length > 0)
    throw new Error(`${request.id}: the sampling path was not taken (${JSON.stringify(structured).slice(0, 200)})`);
  const retrieveWith = (meaningWeight: number): Retrieval =>
    retrieve(catalog.search, request.request, { meaning, meaningWeight });
  return {
    request,
    searchRank,
    searchEmpty: search.results.length === 0,
    strong: everything.strong,
    total: everything.total,
    rightFolded: rightAt >= 0 && !everything.hits[rightAt]!.strong,
    keywordRanks: [keywordRank(catalog, meaning, request, 2), keywordRank(catalog, meaning, request, 3)],
    rule,
    // A skill its author keeps for people to start is named, not loaded: the right skill all the same.
    model: structured.skill?.name ?? structured.kept_for_people,
    searchMs,
    bestMs,
    retrieval,
    retrieveWith,
  };
}

/** Whether a skill is one the request expects: by name, or by id where a catalog holds several skills of one name. */
function fits(request: Request, skill: { id: string; name: string }): boolean {
  return request.expect.includes(skill.name) || request.expect.includes(skill.id);
}

/** The request cut to its `n` most telling words (highest idf over the catalog), searched as keywords. */
function keywordRank(catalog: FeedCatalog, meaning: SkillVectors, request: Request, n: number): number {
  const { words } = catalog.search.searchPage(request.request, { limit: 0 });
  const telling = words
    .filter((w) => w.documents > 0)
    .sort((a, b) => a.documents - b.documents)
    .slice(0, n)
    .map((w) => w.word);
  const q = words.map((w) => w.word).filter((w) => telling.includes(w));
  const hits = catalog.search.search(q.join(' '), { limit: 10, meaning });
  return hits.findIndex((h) => fits(request, { id: h.id, name: h.doc.name })) + 1;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
}

const pct = (n: number, of: number): string => (of ? `${n}/${of} (${Math.round((n / of) * 100)}%)` : '–');

/** Right: the expected skill, or none when none fits; `nearestShown`: none when one fits, but the answer lists it among the nearest skills. */
function judged(
  outcomes: Outcome[],
  pick: (o: Outcome, i: number) => string | undefined,
): { right: number; rightFits: number; noneWhenFits: number; nearestShown: number; wrong: number } {
  let right = 0;
  let rightFits = 0;
  let noneWhenFits = 0;
  let nearestShown = 0;
  let wrong = 0;
  for (const [i, o] of outcomes.entries()) {
    const chosen = pick(o, i);
    const oneFits = o.request.expect.length > 0;
    if (
      chosen === undefined
        ? !oneFits
        : o.request.expect.includes(chosen) ||
          o.retrieval.candidates.some((c) => c.id === chosen && o.request.expect.includes(c.name))
    ) {
      right++;
      if (oneFits) rightFits++;
    } else if (chosen === undefined) {
      noneWhenFits++;
      if (candidateRank(o) >= 1 && candidateRank(o) <= NEAREST_SHOWN) nearestShown++;
    } else wrong++;
  }
  return { right, rightFits, noneWhenFits, nearestShown, wrong };
}

/** 1-based position of the first expected skill among best_skill's candidates; 0: absent. */
function candidateRank(o: Outcome): number {
  return o.retrieval.candidates.findIndex((c) => fits(o.request, c)) + 1;
}

function report(set: RoutingSet, outcomes: Outcome[], split: string): string[] {
  const fitting = outcomes.filter((o) => o.request.expect.length > 0);
  const none = outcomes.length - fitting.length;
  const rule = judged(outcomes, (o) => o.rule);
  const model = judged(outcomes, (o) => o.model);
  const row = (label: string, j: typeof rule) =>
    `| ${set.name} | ${split} | ${label} | ${pct(j.right, outcomes.length)} | ${pct(j.noneWhenFits, fitting.length)} | ${j.nearestShown}/${j.noneWhenFits} | ${pct(j.rightFits + j.nearestShown, fitting.length)} | ${pct(j.wrong, outcomes.length)} |`;
  return [
    `| ${set.name} | ${split} | ${fitting.length} + ${none} none | ${pct(fitting.filter((o) => o.searchRank === 1).length, fitting.length)} | ${pct(fitting.filter((o) => o.searchRank >= 1 && o.searchRank <= 3).length, fitting.length)} | ${pct(fitting.filter((o) => o.searchEmpty).length, fitting.length)} | ${quantile(
      outcomes.map((o) => o.strong),
      0.5,
    )} of ${quantile(
      outcomes.map((o) => o.total),
      0.5,
    )} | ${fitting.filter((o) => o.rightFolded).length} | ${quantile(
      outcomes.map((o) => o.searchMs),
      0.5,
    ).toFixed(1)} / ${quantile(
      outcomes.map((o) => o.searchMs),
      0.95,
    ).toFixed(1)} ms |`,
    row('rule', rule),
    row('sampling (test judge)', model),
    `| ${set.name} | ${split} | ${pct(fitting.filter((o) => candidateRank(o) === 1).length, fitting.length)} | ${pct(fitting.filter((o) => candidateRank(o) >= 1 && candidateRank(o) <= 3).length, fitting.length)} | ${pct(fitting.filter((o) => candidateRank(o) >= 1).length, fitting.length)} | ${quantile(
      outcomes.map((o) => o.bestMs),
      0.5,
    ).toFixed(1)} / ${quantile(
      outcomes.map((o) => o.bestMs),
      0.95,
    ).toFixed(1)} ms |`,
    ...([0, 1] as const).map(
      (k) =>
        `| ${set.name} | ${split} | ${k + 2} | ${pct(fitting.filter((o) => o.keywordRanks[k] === 1).length, fitting.length)} | ${pct(fitting.filter((o) => o.keywordRanks[k] >= 1 && o.keywordRanks[k] <= 3).length, fitting.length)} |`,
    ),
  ];
}

async function main(): Promise<void> {
  const files = readdirSync(SETS)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const sets = files.map((f) => RoutingSet.parse(JSON.parse(readFileSync(path.join(SETS, f), 'utf8'))));
  const named = sets.filter((s) => !args.values.set || args.values.set.includes(s.name));
  const cut = args.values.without ? named.flatMap((set) => withoutSources(set, args.values.without!)) : named;
  const chosen = args.values.small ? cut.flatMap(smallCatalogs) : cut;
  const searchRows: string[] = [];
  const bestRows: string[] = [];
  const candidateRows: string[] = [];
  const outcomeRows: string[] = [];
  const keywordRows: string[] = [];
  const dump: unknown[] = [];
  const all: Outcome[] = [];
  for (const set of chosen) {
    const missing = set.sources.filter((s) => !existsSync(path.join(catalogsDir!, s)));
    if (missing.length) {
      log(`${set.name}: skipped, ${missing.join(', ')} not found in ${catalogsDir}`);
      continue;
    }
    const outcomes = await runSet(set);
    all.push(...outcomes);
    outcomeRows.push(outcomeEffect(set, outcomes, 'dev', 'test'), outcomeEffect(set, outcomes, 'all', 'all'));
    for (const split of args.values.split === 'all' ? ['dev', 'test'] : [args.values.split]) {
      const [search, rule, model, candidates, keywords2, keywords3] = report(
        set,
        outcomes.filter((o) => o.request.split === split),
        split,
      );
      searchRows.push(search!);
      bestRows.push(rule!, model!);
      candidateRows.push(candidates!);
      keywordRows.push(keywords2!, keywords3!);
    }
    dump.push(
      ...outcomes.map((o) => ({
        set: set.name,
        ...o.request,
        searchRank: o.searchRank,
        candidateRank: candidateRank(o),
        rule: o.rule ?? null,
        model: o.model ?? null,
        retrieval: o.retrieval,
      })),
    );
  }
  console.log('\nskills_search, the request as the query (requests that one skill fits):\n');
  console.log(
    '| set | split | requests | right skill first | in the top 3 | empty | strong of all results (median) | right skill among the weaker | p50 / p95 |',
  );
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  console.log(searchRows.join('\n'));
  console.log("\nskills_search, the request's 2 or 3 most telling words (rarest in the catalog) as a keyword query:\n");
  console.log('| set | split | words | right skill first | in the top 3 |');
  console.log('|---|---|---:|---:|---:|');
  console.log(keywordRows.join('\n'));
  console.log(
    "\nbest_skill's candidates, ranked by words and meaning (requests that one skill fits; rule + retrieval time in process):\n",
  );
  console.log('| set | split | right skill first | in the top 3 | among the 5 | p50 / p95 |');
  console.log('|---|---|---:|---:|---:|---:|');
  console.log(candidateRows.join('\n'));
  console.log('\nbest_skill (all requests; right = the skill, or none when none fits):\n');
  console.log(
    `| set | split | judge | right | none when one fits | …listed among the ${NEAREST_SHOWN} nearest | right or listed (requests one fits) | wrong skill |`,
  );
  console.log('|---|---|---|---:|---:|---:|---:|---:|');
  console.log(bestRows.join('\n'));
  console.log(
    "\nbest_skill's rule with usage figures (src/route/usage.ts): outcomes simulated from the sets' labels (the rule's pick reported a success when right, a failure when wrong), the success rates applied to the held-out split (dev → test) and to the same requests asked again (all → all):\n",
  );
  console.log(
    '| set | outcomes → judged | skills with a success rate | right, without → with | wrong skill, without → with | picks unchanged without figures |',
  );
  console.log('|---|---|---:|---:|---:|---:|');
  console.log(outcomeRows.join('\n'));
  console.log(
    "\nbest_skill's rule, the confidence it states against how often its skill was right (every set and split run):\n",
  );
  console.log('| answers | count | stated confidence (mean) | right |');
  console.log('|---|---:|---:|---:|');
  console.log(reliabilityRows(all).join('\n'));
  if (args.values.dump) writeFileSync(args.values.dump, JSON.stringify(dump, null, 1));
  if (args.values.calibrate) calibrate(all.filter((o) => o.request.split === 'dev'));
}

/** The rule's answers with a skill, by the confidence they state, and its close calls apart: is the confidence honest? */
function reliabilityRows(outcomes: Outcome[]): string[] {
  const answered = outcomes.flatMap((o) => {
    const j = ruleJudge(o.retrieval);
    return j.id === undefined
      ? []
      : [{ j, right: o.retrieval.candidates.some((c) => c.id === j.id && fits(o.request, c)) }];
  });
  const bands: [string, (a: (typeof answered)[number]) => boolean][] = [
    [`close calls (leads the runner-up by under ${RULE.closeLead * 100}%)`, (a) => a.j.runnerUp !== undefined],
    ...[0.6, 0.7, 0.8, 0.9].map((lo): [string, (a: (typeof answered)[number]) => boolean] => [
      `others, confidence ${lo.toFixed(1)}–${(lo + 0.1).toFixed(1)}`,
      (a) => a.j.runnerUp === undefined && a.j.confidence >= lo && (a.j.confidence < lo + 0.1 || lo === 0.9),
    ]),
  ];
  return bands.map(([label, inBand]) => {
    const band = answered.filter(inBand);
    const stated = band.reduce((sum, a) => sum + a.j.confidence, 0) / (band.length || 1);
    return `| ${label} | ${band.length} | ${band.length ? stated.toFixed(2) : '–'} | ${pct(band.filter((a) => a.right).length, band.length)} |`;
  });
}

/**
 * What success rates do to the rule: each dev request the rule answered reports a success for
 * its pick when a right one, else a failure; the success rates (every report counts) then
 * re-rank the test split's candidates. Without figures the picks must be exactly the same.
 */
/**
 * Reports a skill needs for a success rate in the simulation: 1, since a set asks for each skill
 * only once or twice (a build's default is 5).
 */
const SIMULATED_MIN_REPORTS = 1;

/**
 * `from` → `to`: the outcomes of the `from` requests give the rates, the `to` requests are judged
 * with them. dev → test: held out; all → all: the same requests asked again (users repeat themselves).
 */
function outcomeEffect(set: RoutingSet, outcomes: Outcome[], from: 'dev' | 'all', to: 'test' | 'all'): string {
  const tally = new Map<string, { ok: number; n: number }>();
  for (const o of outcomes.filter((x) => (from === 'all' || x.request.split === from) && x.rule !== undefined)) {
    const t = tally.get(o.rule!) ?? { ok: 0, n: 0 };
    t.n++;
    if (o.request.expect.includes(o.rule!)) t.ok++;
    tally.set(o.rule!, t);
  }
  // As a build publishes them: no rate below a minimum of reports (analytics.min_reports).
  const rate = (id: string): number | undefined => {
    const t = tally.get(id);
    return t && t.n >= SIMULATED_MIN_REPORTS ? t.ok / t.n : undefined;
  };
  const test = outcomes.filter((o) => to === 'all' || o.request.split === to);
  const without = judged(test, (o) => o.rule);
  const withRates = judged(test, (o) => ruleJudge(withOutcomes(o.retrieval, rate)).id);
  const unchanged = test.filter((o) => ruleJudge(withOutcomes(o.retrieval, () => undefined)).id === o.rule).length;
  const rated = [...tally.values()].filter((t) => t.n >= SIMULATED_MIN_REPORTS).length;
  return `| ${set.name} | ${from} → ${to} | ${rated} | ${pct(without.right, test.length)} → ${pct(withRates.right, test.length)} | ${pct(without.wrong, test.length)} → ${pct(withRates.wrong, test.length)} | ${unchanged}/${test.length} |`;
}

/**
 * --without <source>: the set over its other sources (a catalog of another size, with requests
 * whose right skills were all in the sources left out becoming requests none fits).
 */
function withoutSources(set: RoutingSet, without: string[]): RoutingSet[] {
  const sources = set.sources.filter((s) => !without.includes(s));
  if (sources.length === set.sources.length || sources.length === 0) return [];
  return [{ ...set, name: `${set.name}-without-${without.join('-')}`, subsetOf: set.name, sources }];
}

/** Catalogs of at most this many skills are small (--small). */
const SMALL_CATALOG = 20;

/**
 * --small: each source of a set holding at most SMALL_CATALOG skills, as a set of its own with
 * all the set's requests — those for skills of other sources become requests no skill fits.
 */
function smallCatalogs(set: RoutingSet): RoutingSet[] {
  if (set.sources.length < 2) return [];
  return set.sources.flatMap((source) => {
    const dir = path.join(catalogsDir!, source);
    if (!existsSync(dir) || countSkills(dir) > SMALL_CATALOG) return [];
    return [{ ...set, name: `${set.name}:${source}`, subsetOf: set.name, sources: [source] }];
  });
}

function countSkills(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'SKILL.md').length;
}

/** Meaning weights tried by --calibrate. */
const MEANING_WEIGHTS = [0, 0.1, 0.2, 0.3, 0.4];

/** Fits the rule on these outcomes, for each weight of meaning, and prints the best parameters for src/route/{retrieve,rule}.ts. */
function calibrate(outcomes: Outcome[]): void {
  console.log(
    `\ncalibrated on ${outcomes.length} dev requests (right: the skill, or none when none fits; wrong skill at most 5%):`,
  );
  for (const weight of MEANING_WEIGHTS) {
    const retrievals = outcomes.map((o) => o.retrieveWith(weight));
    const { rule, right } = fitRule(outcomes, retrievals);
    console.log(`meaning weight ${weight}: right ${right}: ${JSON.stringify(rule)}`);
  }
  console.log(`in use: meaning weight ${MEANING_WEIGHT}, ${JSON.stringify(RULE)}`);
}

/**
 * The weights and `threshold` are fitted on catalogs no larger than those they were first fitted
 * on (`RULE.fittedCatalog`); `largeThreshold`, with those weights, on catalogs of
 * `RULE.largeCatalog` skills or more (each threshold: the most right answers with at most 5% wrong).
 */
function fitRule(outcomes: Outcome[], retrievals: Retrieval[]): { rule: typeof RULE; right: number } {
  const single = retrievals.flatMap((r, i) => (r.catalogSize <= RULE.fittedCatalog ? [i] : []));
  const large = retrievals.flatMap((r, i) => (r.catalogSize >= RULE.largeCatalog ? [i] : []));
  const rows: number[][] = [];
  const labels: number[] = [];
  for (const i of single) {
    const [top, second] = retrievals[i]!.candidates;
    if (!top) continue;
    const e = evidenceOf(top, second);
    rows.push([e.coverage, e.metadataCoverage, e.lead, e.meaning]);
    labels.push(outcomes[i]!.request.expect.includes(top.name) ? 1 : 0);
  }
  // Run on the union alone, the weights stay those in use.
  const fit = rows.length ? fitLogistic(rows, labels) : { weights: Object.values(RULE.weights), bias: RULE.bias };
  const round = (x: number): number => Math.round(x * 100) / 100;
  const [coverage, metadataCoverage, lead, meaning] = fit.weights.map(round) as [number, number, number, number];
  const rule = { ...RULE, weights: { coverage, metadataCoverage, lead, meaning }, bias: round(fit.bias) };
  const small = bestThreshold(single, outcomes, retrievals, (t) => ({ ...rule, threshold: t }));
  const big = bestThreshold(large, outcomes, retrievals, (t) => ({ ...rule, largeThreshold: t }));
  return {
    rule: {
      ...rule,
      threshold: small?.threshold ?? RULE.threshold,
      largeThreshold: big?.threshold ?? RULE.largeThreshold,
    },
    right: (small?.right ?? 0) + (big?.right ?? 0),
  };
}

/** The threshold with the most right answers and at most 5% wrong skills on the outcomes at `indexes` (undefined: none). */
function bestThreshold(
  indexes: number[],
  outcomes: Outcome[],
  retrievals: Retrieval[],
  ruleAt: (threshold: number) => typeof RULE,
): { threshold: number; right: number } | undefined {
  if (indexes.length === 0) return undefined;
  const subset = indexes.map((i) => outcomes[i]!);
  let best = { threshold: 1, right: -1 };
  for (let t = 0.3; t <= 0.95; t += 0.025) {
    const j = judged(subset, (_, k) => pickWith(retrievals[indexes[k]!]!, ruleAt(t)));
    if (j.wrong <= 0.05 * subset.length && j.right > best.right)
      best = { threshold: Math.round(t * 1000) / 1000, right: j.right };
  }
  return best;
}

function pickWith(retrieval: Retrieval, rule: typeof RULE): string | undefined {
  const [top, second] = retrieval.candidates;
  if (!top) return undefined;
  const e = evidenceOf(top, second);
  return accepts(e, strength(e, rule), rule, retrieval.catalogSize) ? top.name : undefined;
}

await main();
