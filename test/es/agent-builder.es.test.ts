/**
 * The seed's Agent Builder artifacts (config/agent_builder/): the ES|QL queries use only
 * indexes and fields that the mappings define, each tool definition carries its query and
 * declares its parameters; and where the cluster runs ES|QL (not the integ-test-zip), the
 * queries are executed against ingested seed skills.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { loadCatalog } from '../../src/load/index.ts';
import { DEFAULT_NAMES, ingestCatalog } from '../../src/emit/elasticsearch/index.ts';
import { LEXICAL_FIELDS } from '../../src/emit/elasticsearch/search.ts';
import { REPO_ROOT } from '../helpers/run-seed-skill.ts';
import {
  copySeedSkills,
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  testClient,
  uniquePrefix,
} from './helpers.ts';

const CONFIG = path.join(REPO_ROOT, 'config');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(CONFIG, file), 'utf8'));
const MAPPINGS: Record<string, Record<string, unknown>> = {
  [DEFAULT_NAMES.skills]: readJson('index_mappings.json').properties,
  [DEFAULT_NAMES.files]: readJson('skill_files_mappings.json').properties,
};
const LOOKUPS = ['get_skill_by_id', 'get_skill_files', 'read_skill_file'] as const;
const TOOLS = [...LOOKUPS, 'search_skills'] as const;
const PARAMS: Record<(typeof TOOLS)[number], string[]> = {
  get_skill_by_id: ['skill_id'],
  get_skill_files: ['skill_id'],
  read_skill_file: ['skill_id', 'file_path'],
  search_skills: ['query'],
};
const KEYWORDS = new Set([
  'FROM',
  'METADATA',
  'WHERE',
  'MATCH',
  'KEEP',
  'SORT',
  'LIMIT',
  'ASC',
  'DESC',
  'AND',
  'OR',
  'NOT',
]);
/** Columns ES|QL adds (METADATA), not mapped fields. */
const METADATA = new Set(['_score', '_id', '_index']);

function query(tool: string): string {
  return readFileSync(path.join(CONFIG, 'agent_builder', 'queries', `${tool}.esql`), 'utf8').trim();
}

/** The index, field names and ?parameters an ES|QL query of this simple shape refers to. */
function references(esql: string): { index: string; fields: string[]; params: string[] } {
  const index = /^FROM\s+([\w.-]+)/.exec(esql)?.[1] ?? '';
  const params = [...esql.matchAll(/\?(\w+)/g)].map((m) => m[1]!);
  // Options maps ({"boost": 4}), parameters and the index are not field names.
  const withoutParams = esql
    .replace(/\{[^}]*\}/g, '')
    .replace(/\?\w+/g, '')
    .replace(/^FROM\s+[\w.-]+/, '');
  const fields = [...withoutParams.matchAll(/\b[a-z_][a-z0-9_]*\b/gi)]
    .map((m) => m[0])
    .filter((w) => !KEYWORDS.has(w.toUpperCase()) && !METADATA.has(w));
  return { index, fields: [...new Set(fields)], params: [...new Set(params)] };
}

describe('Agent Builder artifacts', () => {
  it.each(TOOLS)('%s.esql reads an existing index and only mapped fields', (tool) => {
    const refs = references(query(tool));
    expect(Object.keys(MAPPINGS)).toContain(refs.index);
    for (const field of refs.fields) expect(MAPPINGS[refs.index], `${tool}: ${field}`).toHaveProperty(field);
    expect(refs.params).toEqual(PARAMS[tool]);
  });

  it('search_skills weighs the fields as searchElasticsearch and the site do, best score first', () => {
    const esql = query('search_skills');
    const boosts = [...esql.matchAll(/MATCH\((\w+), \?query, \{"boost": ([\d.]+)(?:, "analyzer": "stop")?\}\)/g)].map(
      (m) => `${m[1]}^${m[2]}`,
    );
    expect(boosts).toEqual(LEXICAL_FIELDS);
    // Tags and the domain are keywords: the request is split into words (stop words left out), each
    // compared with a tag; matched whole, a request would only ever equal a tag by chance.
    for (const field of ['name', 'description', 'tags', 'domain'])
      expect(esql, field).toMatch(
        new RegExp(`MATCH\\(${field}, \\?query, \\{"boost": [\\d.]+, "analyzer": "stop"\\}\\)`),
      );
    expect(esql).toMatch(/^FROM agent_skills METADATA _score\n/);
    expect(esql).toMatch(/\| SORT _score DESC\n/);
    expect(references(esql).fields).toEqual(expect.arrayContaining(['skill_id', 'name', 'description']));
  });

  it('get_skill_files lists the files without their content, read_skill_file reads one; get_skill_by_id the metadata', () => {
    expect(references(query('get_skill_files')).index).toBe('agent_skill_files');
    expect(references(query('read_skill_file')).index).toBe('agent_skill_files');
    expect(references(query('get_skill_by_id')).index).toBe('agent_skills');
    // Progressive disclosure: a skill of fonts or slides is megabytes of base64; the list is not.
    const listed = references(query('get_skill_files')).fields;
    expect(listed).toEqual(expect.arrayContaining(['skill_id', 'file_name', 'file_path', 'file_type', 'executable']));
    expect(listed).not.toContain('file_content');
    expect(references(query('read_skill_file')).fields).toEqual(expect.arrayContaining(['file_path', 'file_content']));
    expect(query('read_skill_file')).toMatch(/\| LIMIT 1$/);
  });

  it.each(TOOLS)('tools/%s.json is an esql tool carrying the query and declaring its parameters', (tool) => {
    const def = readJson(path.join('agent_builder', 'tools', `${tool}.json`));
    expect(def).toMatchObject({ id: tool, type: 'esql', tags: expect.arrayContaining(['agent-skills', 'mcp']) });
    expect(def.description.length).toBeGreaterThan(20);
    expect(def.configuration.query.trim()).toBe(query(tool));
    expect(Object.keys(def.configuration.params)).toEqual(references(query(tool)).params);
    // Kibana 9.4+ and serverless take only string, integer, float, boolean, date and array.
    for (const param of PARAMS[tool])
      expect(def.configuration.params[param]).toMatchObject({ type: 'string', description: expect.any(String) });
  });
});

describe.skipIf(!ES_URL)('Agent Builder queries on the cluster', () => {
  const prefix = uniquePrefix('esql');
  const names = prefixedNames(prefix);
  let client: Client;
  let esql = false;
  let skillsDir = '';

  beforeAll(async () => {
    client = testClient();
    esql = await client.esql.query({ query: 'ROW a = 1' }).then(
      () => true,
      () => false,
    );
    if (!esql) return;
    skillsDir = await copySeedSkills();
    await ingestCatalog(await loadCatalog(skillsDir), { client, names });
  });

  afterAll(async () => {
    await deleteIndexesWithPrefix(client, prefix);
    await client.close();
    if (skillsDir) await removeDirs(skillsDir);
  });

  it('runs get_skill_by_id, get_skill_files, read_skill_file and search_skills when the cluster has ES|QL', async (ctx) => {
    if (!esql) {
      ctx.skip('this cluster has no ES|QL (the integ-test-zip ships without it); the queries were checked statically');
      return;
    }
    const run = async (tool: string, params: Record<string, string> = { skill_id: 'verify-expense-policy' }) => {
      const text = query(tool)
        .replace(/^FROM agent_skill_files\b/, `FROM ${names.files}`)
        .replace(/^FROM agent_skills\b/, `FROM ${names.skills}`);
      const res = await client.esql.query({ query: text, params: [params] as never });
      const columns = (res.columns as Array<{ name: string }>).map((c) => c.name);
      return (res.values as unknown[][]).map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
    };
    const meta = await run('get_skill_by_id');
    expect(meta).toHaveLength(1);
    expect(meta[0]).toMatchObject({ skill_id: 'verify-expense-policy', domain: 'finance' });
    const files = await run('get_skill_files');
    expect(files.map((f) => f.file_path)).toEqual(['SKILL.md', 'allowance_table.json', 'policy_check.py']);
    expect(files.every((f) => !('file_content' in f))).toBe(true);
    const one = await run('read_skill_file', { skill_id: 'verify-expense-policy', file_path: 'SKILL.md' });
    expect(one).toHaveLength(1);
    expect(String(one[0]!.file_content)).toMatch(/^---\nname: verify-expense-policy/);
    const found = await run('search_skills', { query: 'check this expense claim against the allowance policy' });
    expect(found[0]).toMatchObject({ skill_id: 'verify-expense-policy' });
    expect(found.map((f) => f._score)).toEqual([...found.map((f) => f._score)].sort((a, b) => Number(b) - Number(a)));
  });
});
