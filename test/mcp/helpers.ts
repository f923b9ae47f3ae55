/**
 * Test helpers for the MCP server: fixture skills in a temp folder, a real feed built from them
 * with the project's pipeline, and a real SDK client talking to the server — in process over the
 * SDK's in-memory transport, or to `skillpress mcp` over stdio.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { build } from '../../src/build.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { openFeedStore } from '../../src/feed-reader/index.ts';
import { createServer } from '../../src/mcp/server.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const NODE = path.join(ROOT, 'node_modules/.bin/node');
export const CLI = path.join(ROOT, 'scripts/skillpress.mjs');

/** A 1×1 PNG plus bytes that are not valid UTF-8: must come back byte-exact. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201ffa0e2a6a50000000049454e44ae426082',
  'hex',
);

export type SkillFiles = Record<string, string | Buffer>;

export const FIXTURE: Record<string, SkillFiles> = {
  'pdf-processing': {
    'SKILL.md': `---\nname: pdf-processing\ndescription: Extract text and tables from PDF files, fill PDF forms and merge documents.\nlicense: Apache-2.0\nmetadata:\n  tags: pdf, documents\n  version: "1.2.0"\n---\n# PDF processing\n\nYou are a document automation expert. Use scripts/extract.py to pull text out of a PDF.\nFor scanned pages run OCR first; see references/ocr.md for the tesseract settings.\n`,
    'scripts/extract.py': 'import sys\nprint("extract", sys.argv[1])\n',
    'references/ocr.md': '# OCR\n\nRun tesseract with --psm 6 for tables.\n',
    'assets/logo.png': PNG,
  },
  'trino-debug': {
    'SKILL.md': `---\nname: trino-debug\ndescription: Debug and optimize slow Trino SQL queries using EXPLAIN ANALYZE plans.\nmetadata:\n  tags: sql, trino\n---\nYou are a Trino query optimization expert. Ask for the query, get its plan with get_explain_plan, then apply the optimization rules.\n`,
    'tools.json': JSON.stringify([
      {
        name: 'get_explain_plan',
        description: 'Runs EXPLAIN ANALYZE on a Trino query.',
        inputSchema: { type: 'object' },
      },
    ]),
    'resources.json': JSON.stringify([
      { uri: 'resource://trino/optimization_rules.md', description: 'Trino optimization rules' },
    ]),
  },
  'expense-policy': {
    'SKILL.md': `---\nname: expense-policy\ndescription: Check an expense report against the travel and meal allowance policy.\nmetadata:\n  tags: finance\n---\nCompare each line of the report with allowance_table.json and flag anything over the limit.\n`,
    'allowance_table.json': '{"meal": 50, "hotel": 200}\n',
  },
};

export async function writeSkills(dir: string, skills: Record<string, SkillFiles>): Promise<void> {
  for (const [name, files] of Object.entries(skills)) {
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(dir, name, ...rel.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
}

/** Builds `<out>/feed/v1` from a skills folder with the real pipeline (`build()`, no site), in process. */
export async function buildFeed(skillsDir: string, outDir: string): Promise<string> {
  // Every default, and no peers to fetch whatever a config found above the skills would say.
  await build({ skills: skillsDir, out: outDir, config: SkillpressConfig.parse({}), site: false });
  return path.join(outDir, 'feed', 'v1');
}

/**
 * Writes `skills` to a temp folder, builds them (no site; `config`, default every default), serves
 * the feed in process and hands the connected client to `use`; the server and the folder are gone
 * after, whatever `use` does.
 */
export async function withServedSkills(
  skills: Record<string, SkillFiles>,
  use: (server: Connected) => Promise<void>,
  options: { era?: Era; config?: SkillpressConfig; pageSize?: number } = {},
): Promise<void> {
  const tmp = await tempDir();
  try {
    const skillsDir = path.join(tmp.dir, 'skills');
    const dist = path.join(tmp.dir, 'dist');
    await writeSkills(skillsDir, skills);
    await build({ skills: skillsDir, out: dist, config: options.config ?? SkillpressConfig.parse({}), site: false });
    const server = await connectInProcess(dist, options.era ?? 'legacy', { pageSize: options.pageSize });
    try {
      await use(server);
    } finally {
      await server.close();
    }
  } finally {
    await tmp.remove();
  }
}

export async function tempDir(prefix = 'skillpress-mcp-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface FixtureFeed {
  dir: string;
  /** `<dir>/skills`: FIXTURE written out. */
  skills: string;
  /** `<dir>/dist`: the build output. */
  dist: string;
  /** `<dir>/dist/feed/v1`. */
  feed: string;
  remove: () => Promise<void>;
}

/** A temp folder with FIXTURE in `skills/` and the feed built from it in `dist/` (removed again if the build fails). */
export async function fixtureFeed(): Promise<FixtureFeed> {
  const tmp = await tempDir();
  try {
    const skills = path.join(tmp.dir, 'skills');
    const dist = path.join(tmp.dir, 'dist');
    await writeSkills(skills, FIXTURE);
    return { ...tmp, skills, dist, feed: await buildFeed(skills, dist) };
  } catch (err) {
    await tmp.remove();
    throw err;
  }
}

export type Era = 'legacy' | 'modern';
export const ERAS: Era[] = ['legacy', 'modern'];
export const MODERN_REVISION = '2026-07-28';

export interface Connected {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawns `skillpress mcp` and connects the SDK client in the given protocol era. */
export async function connect(
  feed: string,
  era: Era,
  extraArgs: string[] = [],
  options: ClientOptions = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: NODE,
    args: [CLI, 'mcp', '--feed', feed, ...extraArgs],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient(era, options);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

type ClientOptions = ConstructorParameters<typeof Client>[1];

function newClient(era: Era, options: ClientOptions = {}): Client {
  return new Client(
    { name: 'skillpress-test', version: '1.0.0' },
    { ...options, ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {}) },
  );
}

/**
 * The server in this process over the SDK's in-memory transport, served by the same era-choosing
 * entry as stdio (`serveStdio`): the tools, prompts and skills extension exactly as `skillpress
 * mcp` serves them, without a child process (feed reloading is tested over stdio).
 */
export async function connectInProcess(
  feed: string,
  era: Era,
  options: ClientOptions & { pageSize?: number } = {},
): Promise<Connected> {
  const { pageSize, ...clientOptions } = options;
  const catalog = FeedCatalog.load(await openFeedStore(feed));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    () => createServer(() => catalog, { name: 'skillpress', version: '0.0.0-test', pageSize }),
    { transport: serverSide },
  );
  const client = newClient(era, clientOptions);
  await client.connect(clientSide);
  return { client, stderr: () => '', close: async () => (await client.close(), await handle.close()) };
}
