/**
 * `skillpress build` (with ELASTICSEARCH_URL) and `skillpress ingest` load and date the skills in
 * one shared step: in git, each skill by its folder's last commit, capped by SOURCE_DATE_EPOCH.
 * So running one after the other, in either order, writes nothing the second time, and
 * Elasticsearch's dates are the feed's.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { plainSkillMd, write } from '../feed/fixture.ts';
import {
  deleteIndexesWithPrefix,
  ES_URL,
  prefixedNames,
  removeDirs,
  runCli,
  tempDir,
  testClient,
  uniquePrefix,
} from './helpers.ts';

const ALPHA_AT = 1_600_000_000;
const BETA_AT = 1_650_000_000;
const EPOCH = 1_620_000_000; // between the two commits: caps beta's date
let client: Client;
let repo: string;
const prefix = uniquePrefix('build_ingest');

function git(args: string[], at: number): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: repo,
    env: { ...process.env, GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` },
  });
}

beforeAll(async () => {
  if (!ES_URL) return;
  client = testClient();
  repo = await tempDir('build-ingest');
  execFileSync('git', ['init', '-q', repo]);
  write(repo, 'skills/alpha/SKILL.md', plainSkillMd('alpha'));
  write(repo, 'skills/alpha/references/guide.md', 'The alpha guide.\n');
  git(['add', '.'], ALPHA_AT);
  git(['commit', '-qm', 'alpha'], ALPHA_AT);
  write(repo, 'skills/beta/SKILL.md', plainSkillMd('beta'));
  git(['add', '.'], BETA_AT);
  git(['commit', '-qm', 'beta'], BETA_AT);
});

afterAll(async () => {
  if (!ES_URL) return;
  await deleteIndexesWithPrefix(client, prefix);
  await client.close();
  await removeDirs(repo);
});

const env = (more: NodeJS.ProcessEnv = {}) => ({ ELASTICSEARCH_URL: ES_URL, ...more });
const skills = () => path.join(repo, 'skills');

function build(indexPrefix: string, more: NodeJS.ProcessEnv = {}) {
  const args = ['build', '--skills', skills(), '--out', path.join(repo, 'dist'), '--no-site'];
  return runCli([...args, '--index-prefix', indexPrefix], env(more));
}

function ingest(indexPrefix: string, more: NodeJS.ProcessEnv = {}) {
  return runCli(['ingest', '--skills', skills(), '--index-prefix', indexPrefix], env(more));
}

/** Each skill's `updated_at` in Elasticsearch, and the catalog digest the live index was written with. */
async function indexed(indexPrefix: string): Promise<{ dates: Record<string, string>; digest: unknown }> {
  const index = prefixedNames(indexPrefix).skills;
  await client.indices.refresh({ index });
  const hits = (await client.search<{ skill_id: string; updated_at: string }>({ index, size: 10 })).hits.hits;
  const mapping = await client.indices.getMapping({ index });
  const meta = Object.values(mapping)[0]?.mappings._meta;
  return {
    dates: Object.fromEntries(hits.map((h) => [h._source!.skill_id, h._source!.updated_at])),
    digest: meta?.catalog_digest,
  };
}

/** Each published skill's `updated_at`, from the build's cards.json. */
function feedDates(): Record<string, string> {
  const cards = JSON.parse(readFileSync(path.join(repo, 'dist/feed/v1/cards.json'), 'utf8')) as {
    skills: Array<{ id: string; updated_at: string }>;
  };
  return Object.fromEntries(cards.skills.map((c) => [c.id, c.updated_at]));
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe.skipIf(!ES_URL)('build and ingest write the same catalog', () => {
  it('ingest after build: nothing changed, the commit dates kept', async () => {
    const p = `${prefix}a_`;
    const built = await build(p);
    expect(built.code, built.stdout + built.stderr).toBe(0);
    const first = await indexed(p);
    expect(first.dates).toEqual({ alpha: iso(ALPHA_AT), beta: iso(BETA_AT) });
    expect(first.dates).toEqual(feedDates());

    const again = await ingest(p);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already holds these 2 skill(s) and 3 file(s); nothing changed');
    expect(await indexed(p)).toEqual(first);
  }, 180_000);

  it('build after ingest: unchanged, with SOURCE_DATE_EPOCH capping both alike', async () => {
    const p = `${prefix}b_`;
    const epoch = { SOURCE_DATE_EPOCH: String(EPOCH) };
    const ingested = await ingest(p, epoch);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(ingested.stdout).toContain('ingested 2 skill(s), 3 file(s)');
    const first = await indexed(p);
    expect(first.dates).toEqual({ alpha: iso(ALPHA_AT), beta: iso(EPOCH) });

    const built = await build(p, epoch);
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(built.stderr).toContain('elasticsearch: unchanged at');
    expect(await indexed(p)).toEqual(first);
    expect(feedDates()).toEqual(first.dates);
  }, 180_000);
});
