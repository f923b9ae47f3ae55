/**
 * `skillpress search <request…>`: what an agent gets for a request, from the terminal — the
 * built feed ranked as `skills_search` ranks it (words and meaning), `--best` the answer of
 * `best_skill`'s rule with its candidates, or `--es` the hybrid query over `agent_skills`.
 */
import { EXIT, feedArgumentError, parse, UsageError, type Command } from '../args.ts';
import type { FeedCatalog } from '../../mcp/catalog.ts';
import type { FeedStore } from '../../feed-reader/store.ts';
import type { HybridHit } from '../../emit/elasticsearch/search.ts';
import { ES_OPTIONS, esConnection, esNames } from './ingest.ts';
import { alignColumns } from '../columns.ts';

const LIMIT_MAX = 100;

export const search: Command = {
  usage:
    'skillpress search <request…> [--feed dist | https://site/] [--best] [--es URL] [--ca-file path] [--index-prefix p] [--limit n=10] [--json]',
  async run(argv) {
    const { values, positionals } = parse(
      argv,
      {
        ...ES_OPTIONS,
        feed: { type: 'string' },
        best: { type: 'boolean' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
      },
      Infinity,
    );
    const request = positionals.join(' ').trim();
    if (!request) throw new UsageError('missing <request>: the words to search for');
    const limit = Number(values.limit ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX)
      throw new UsageError(`--limit must be an integer from 1 to ${LIMIT_MAX} (got "${values.limit}")`);
    if (values.es !== undefined) {
      if (values.best || values.feed) throw new UsageError('--es searches Elasticsearch: leave out --feed and --best');
      return searchIndex(request, limit, values);
    }
    const { FeedCatalog } = await import('../../mcp/catalog.ts');
    const store = await openFeedArgument(values.feed);
    const catalog = await FeedCatalog.load(store);
    await pointAtCatalogView(store);
    const out = values.best ? await best(catalog, request) : await ranked(catalog, request, limit);
    process.stdout.write(values.json ? `${JSON.stringify(out.json, null, 2)}\n` : out.text);
    return EXIT.ok;
  },
};

/** The feed `--feed` names (default `dist`); a local folder holding none is a usage error. */
async function openFeedArgument(given: string | undefined): Promise<FeedStore> {
  const location = given ?? 'dist';
  const { openFeedStore } = await import('../../feed-reader/open.ts');
  try {
    return await openFeedStore(location);
  } catch (err) {
    throw feedArgumentError(err, location, given === undefined ? ' (the default)' : '');
  }
}

/** An aggregator's own feed lacks the skills it imports without re-exporting them: say where they are. */
async function pointAtCatalogView(store: FeedStore): Promise<void> {
  const { catalogViewBeside } = await import('../../feed-reader/catalog-view.ts');
  const view = await catalogViewBeside(store);
  if (view)
    process.stderr.write(
      `skillpress search: ${view} also holds the skills imported from peers (the site's catalog; federation.reexport is off): search it with --feed ${view}\n`,
    );
}

interface Printed {
  json: unknown;
  text: string;
}

/** The feed ranked as `skills_search` ranks it. */
async function ranked(catalog: FeedCatalog, request: string, limit: number): Promise<Printed> {
  const { searchSkills } = await import('../../mcp/tools/skills-search.ts');
  const found = await searchSkills(catalog, request, limit);
  const head =
    found.total === 0
      ? `No skill matches "${request}".`
      : found.meaningAlone
        ? `No skill shares a word with "${request}"; ${found.total} are close to it in meaning alone, the first ${found.results.length}:`
        : `${found.total} skill(s) match "${request}" (${found.strong} strongly); the first ${found.results.length}:`;
  const rows = found.results.map((r, i) => [
    String(i + 1),
    r.name,
    r.score.toFixed(3),
    percent(r.coverage),
    oneLine(r.description),
  ]);
  return {
    json: found,
    text: lines([
      head,
      ...(rows.length === 0
        ? []
        : alignColumns([['#', 'skill', 'score', 'words', 'description'], ...rows], new Set([0, 2, 3]))),
    ]),
  };
}

/**
 * `best_skill`'s answer by its rule (an agent's model can judge instead, over MCP), with the
 * candidates it weighed: `--json` prints the tool's structured result, each candidate with its
 * success rate in use where the feed has one.
 */
async function best(catalog: FeedCatalog, request: string): Promise<Printed> {
  const [{ bestSkillAnswer, candidatesFor, withSuccessRate }, { ruleJudge }] = await Promise.all([
    import('../../mcp/tools/best-skill.ts'),
    import('../../route/index.ts'),
  ]);
  const { retrieval, search_time_ms } = await candidatesFor(catalog, request, (line) =>
    process.stderr.write(`${line}\n`),
  );
  const rule = ruleJudge(retrieval);
  const decision = withSuccessRate(
    { ...rule, decided_by: 'rule' as const },
    rule.id ? catalog.card(rule.id) : undefined,
  );
  const answer = (await bestSkillAnswer(catalog, request, retrieval, decision, search_time_ms)).structuredContent;
  // A candidate's success rate in use has already lowered its score (src/route/usage.ts): shown beside it.
  const candidates = answer.candidates.map((c, i) => ({
    ...c,
    success_rate: catalog.card(retrieval.candidates[i]!.id)?.success_rate,
  }));
  const kept = 'kept_for_people' in answer ? answer.kept_for_people : undefined;
  const head = kept
    ? `${kept} fits, but its author keeps it for people to start (disable-model-invocation): best_skill names it without answering with it (confidence ${answer.confidence}).`
    : answer.skill
      ? `Best skill: ${answer.skill.name} (confidence ${answer.confidence}).`
      : `No skill fits (confidence ${answer.confidence}).`;
  return {
    json: { ...answer, candidates },
    text: lines([head, decision.reason, '', ...candidateTable(candidates)]),
  };
}

interface WeighedCandidate {
  name: string;
  score: number;
  coverage: number;
  metadata_coverage: number;
  meaning?: number;
  success_rate?: number;
}

/** The candidates best_skill weighed, a line each; success in use only when some skill has figures. */
function candidateTable(candidates: WeighedCandidate[]): string[] {
  const rated = candidates.some((c) => c.success_rate !== undefined);
  const rows = candidates.map((c, i) => [
    String(i + 1),
    c.name,
    c.score.toFixed(3),
    percent(c.coverage),
    percent(c.metadata_coverage),
    c.meaning === undefined ? '-' : c.meaning.toFixed(2),
    ...(rated ? [c.success_rate === undefined ? '-' : percent(c.success_rate)] : []),
  ]);
  // Coverage weighted by each word's rarity, as the rule reads it (the plain table counts words).
  const header = [
    '#',
    'candidate',
    'score',
    'rare-weighted words',
    'in metadata',
    'meaning',
    ...(rated ? ['success in use'] : []),
  ];
  return alignColumns([header, ...rows], new Set([0, 2, 3, 4, 5, 6]));
}

/**
 * Elasticsearch's hits, a line each. Summed, each shows how it was found: its words' BM25 score
 * and its kNN similarity (0–1), `-` where that clause did not match it; fused by rank, only the order.
 */
function esTable(found: { hits: HybridHit[]; method: 'rrf' | 'sum' }, index: string): string[] {
  const summed = found.method === 'sum';
  const byWords = found.hits.filter((h) => h.words !== undefined).length;
  const head = summed
    ? `${found.hits.length} skill(s) from ${index} (BM25 + kNN scores added: ${byWords} matched by words, ${found.hits.length - byWords} by meaning alone):`
    : `${found.hits.length} skill(s) from ${index} (rank fusion):`;
  const scored = (x: number | undefined, digits: number) => (x === undefined ? '-' : x.toFixed(digits));
  const rows = found.hits.map((h, i) => [
    String(i + 1),
    h.name,
    h.score.toFixed(3),
    ...(summed ? [scored(h.words, 2), scored(h.meaning, 3)] : []),
    oneLine(h.description),
  ]);
  const header = ['#', 'skill', 'score', ...(summed ? ['words', 'meaning'] : []), 'description'];
  return [head, ...alignColumns([header, ...rows], new Set(summed ? [0, 2, 3, 4] : [0, 2]))];
}

/** The hybrid query over `agent_skills` (BM25 and kNN over the package model's vectors). */
async function searchIndex(
  request: string,
  size: number,
  values: { es?: string; 'ca-file'?: string; 'index-prefix'?: string; json?: boolean },
): Promise<number> {
  const { assertCatalog, assertReachable, createClient, searchElasticsearch } =
    await import('../../emit/elasticsearch/index.ts');
  // `--es ''`: the URL in ELASTICSEARCH_URL.
  const connection = esConnection({ ...values, es: values.es || undefined });
  const client = createClient(connection);
  try {
    const names = esNames(values);
    await assertReachable(client, connection);
    await assertCatalog(client, connection, names);
    const found = await searchElasticsearch(request, { client, size, names });
    process.stdout.write(values.json ? `${JSON.stringify(found, null, 2)}\n` : lines(esTable(found, names.skills)));
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** A description on one line, cut to what a terminal row holds. */
function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const lines = (all: readonly string[]): string => `${all.join('\n')}\n`;
