/** Shared pieces of the Elasticsearch suites: the cluster from the global setup, per-suite index names, fixtures. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { createClient, indexNames, type IndexNames } from '../../src/emit/elasticsearch/index.ts';
import { REPO_ROOT, SEED_SKILLS, SKILLS_DIR } from '../helpers/run-seed-skill.ts';

/** '' when the global setup found no way to run Elasticsearch (then the suites skip). */
export const ES_URL = inject('elasticsearchUrl');

/** A random prefix so suites running in parallel on one cluster never see each other's indexes. */
export function uniquePrefix(suite: string): string {
  return `test_${suite}_${randomBytes(3).toString('hex')}_`;
}

export function prefixedNames(prefix: string): IndexNames {
  const names = indexNames();
  return { skills: prefix + names.skills, files: prefix + names.files };
}

export function testClient(url = ES_URL): Client {
  return createClient({ url });
}

/** Delete every index whose name starts with `prefix` (explicit names: no wildcard delete needed). */
export async function deleteIndexesWithPrefix(client: Client, prefix: string): Promise<void> {
  const found = await client.indices.get({ index: `${prefix}*`, expand_wildcards: 'all' });
  const indexes = Object.keys(found);
  if (indexes.length > 0) await client.indices.delete({ index: indexes });
  const templates = await client.indices.getIndexTemplate({ name: `${prefix}*` }, { ignore: [404] });
  for (const t of templates?.index_templates ?? []) await client.indices.deleteIndexTemplate({ name: t.name });
}

/** The concrete indexes behind an alias. */
export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  const res = await client.indices.getAlias({ name: alias }, { ignore: [404] });
  return Object.keys(res ?? {})
    .filter((k) => k !== 'error' && k !== 'status')
    .sort();
}

export async function tempDir(label: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `skillpress-${label}-`));
}

/** A temp skills folder holding only the three seed skills (skills/ holds other examples too). */
export async function copySeedSkills(): Promise<string> {
  const dir = await tempDir('seed');
  for (const s of SEED_SKILLS) await cp(path.join(SKILLS_DIR, s.id), path.join(dir, s.id), { recursive: true });
  return dir;
}

/** Write a skill folder from a map of relative path → content. */
export async function writeSkill(
  root: string,
  name: string,
  files: Record<string, string | Uint8Array>,
): Promise<string> {
  const dir = path.join(root, name);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return dir;
}

export function skillMd(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nBody of ${name}.\n`;
}

export { syntheticCatalog } from './synthetic-catalog.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the real `skillpress` binary. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'scripts', 'skillpress.mjs'), ...args],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ELASTICSEARCH_URL: '',
          ELASTICSEARCH_API_KEY: '',
          ELASTICSEARCH_USERNAME: '',
          ELASTICSEARCH_PASSWORD: '',
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

export async function removeDirs(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
