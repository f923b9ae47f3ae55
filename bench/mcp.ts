/**
 * MCP server benchmark: start-up beside a bare `node` and skilljack-mcp, then `skillpress mcp`
 * over feeds of 1,000 and 10,000 generated skills.
 *
 *   npm run bench:mcp                               # start-up on skills/, then 1,000 and 10,000 skills
 *   npm run bench:mcp -- 1000                       # chosen sizes
 *   npm run bench:mcp -- --startup --catalog <dir>  # only start-up, on a skills folder of your choice
 *   npm run bench:mcp -- --skilljack <dir>          # skilljack-mcp 0.5.1 from its package folder
 *   npm run bench:mcp -- --prepare                  # only generate and build the feeds (reused by later runs)
 *
 * Start-up: spawn → answered `tools/list` (bench/lib/startup.ts), the median of `--starts` (15)
 * starts taken in rounds, for a bare `node` answering JSON, `skillpress mcp` as installed (the
 * bundled bin, lib/bin/), `skillpress mcp` from the TypeScript sources (SKILLPRESS_SOURCES=1),
 * and skilljack-mcp 0.5.1 on the same skills folder (installed from npm into .cache/bench-mcp/,
 * or `--skilljack`; left out with a note when neither works), each as a ratio to the bare node.
 *
 * For each size it prints:
 * - cold start: spawn → first `tools/list` answer over stdio (median of 5 starts; the process
 *   spawn and Node's own start are included, as a client sees them), and its ratio to a bare
 *   node started after each of them;
 * - up-front context: bytes of the `tools/list` result + the `instructions` string;
 * - skills_search latency, p50/p95 over 300 queries after 100 other warm-up queries (a running
 *   server, JIT-compiled): in process (search + excerpts, what the tool handler does) and as a
 *   client sees it (a `tools/call` round trip over stdio);
 * - RSS of the server process after those searches (VmRSS, and the VmHWM peak).
 *
 * Skills come from bench/lib/search-entries.ts (a Zipf vocabulary, realistic text statistics),
 * written as skill folders with 3 files each beside SKILL.md and built with the real
 * `skillpress build --no-site`. Generated catalogs and feeds are kept in .cache/bench-mcp/ and
 * reused by later runs.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FeedCatalog } from '../src/mcp/catalog.ts';
import { DirStore } from '../src/feed-reader/index.ts';
import { searchSkills } from '../src/mcp/tools/index.ts';
import { realisticEntries } from './lib/search-entries.ts';
import {
  BARE_NODE,
  findSkilljack,
  measureStartups,
  SKILLJACK,
  startOnce,
  type Server,
  type StartupRow,
} from './lib/startup.ts';
import type { SearchEntry } from '../src/search/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = process.execPath;
const CLI = path.join(ROOT, 'scripts/skillpress.mjs');
const WORK = path.join(ROOT, '.cache/bench-mcp');
const FORMAT = 1; // bump when the generated catalog changes
const STARTS = 5;
const QUERIES = 300;
/** Queries run before measuring, not measured: the JIT compiles the search path (a server answers many searches). */
const WARM_UP = 100;

const TARGETS = { startupRatio: 5, coldStartMs1k: 300, searchP95Ms10k: 2, rssMb10k: 150, upFrontKb: 8 };

const { values: flags, positionals } = parseArgs({
  options: {
    prepare: { type: 'boolean' },
    startup: { type: 'boolean' },
    catalog: { type: 'string' },
    skilljack: { type: 'string' },
    'no-skilljack': { type: 'boolean' },
    starts: { type: 'string' },
  },
  allowPositionals: true,
});
const sizes = positionals.filter((a) => /^\d+$/.test(a)).map(Number);
const counts = sizes.length ? sizes : [1_000, 10_000];

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Skill folders from search entries: SKILL.md plus three small files from each entry's paths. */
function writeCatalog(dir: string, entries: SearchEntry[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const e of entries) {
    const skillDir = path.join(dir, e.name);
    mkdirSync(skillDir, { recursive: true });
    const md = [
      '---',
      `name: ${e.name}`,
      `description: ${JSON.stringify(e.description)}`,
      'metadata:',
      `  tags: ${JSON.stringify(e.tags.join(', '))}`,
      `  domain: ${e.domain}`,
      `  version: "${e.version}"`,
      '---',
      '',
      e.body,
      '',
    ].join('\n');
    writeFileSync(path.join(skillDir, 'SKILL.md'), md);
    for (const rel of e.paths.filter((p) => p !== 'SKILL.md').slice(0, 3)) {
      const file = path.join(skillDir, ...rel.split('/'));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(
        file,
        rel.endsWith('.png') ? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) : `# ${rel}\n${e.description}\n`,
      );
    }
  }
}

/** Fingerprint of the code that writes feeds: a feed built by other code is rebuilt. */
function writerFingerprint(): string {
  const hash = createHash('sha256');
  for (const dir of ['src/emit/feed', 'src/search', 'src/model']) {
    for (const f of readdirSync(path.join(ROOT, dir)).sort())
      if (f.endsWith('.ts')) hash.update(readFileSync(path.join(ROOT, dir, f)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** `skillpress build --no-site` of `skills` into `<base>/dist`, with the default configuration. */
function buildFeed(skills: string, base: string): string {
  const dist = path.join(base, 'dist');
  mkdirSync(path.join(base, 'config'), { recursive: true });
  writeFileSync(path.join(base, 'config', 'skillpress.json'), '{}');
  rmSync(dist, { recursive: true, force: true });
  execFileSync(
    NODE,
    [CLI, 'build', '--skills', skills, '--out', dist, '--config', path.join(base, 'config'), '--no-site'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CI: '1' },
    },
  );
  return dist;
}

/** Generates and builds the feed for `count` skills, or reuses the one from an earlier run. */
function feedFor(count: number): { dist: string; entries: SearchEntry[] } {
  const entries = realisticEntries(count);
  const base = path.join(WORK, String(count));
  const dist = path.join(base, 'dist');
  const marker = path.join(base, 'built.json');
  const want = JSON.stringify({ format: FORMAT, count, writer: writerFingerprint() });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want && existsSync(path.join(dist, 'feed/v1/index.json')))
    return { dist, entries };
  let t = performance.now();
  writeCatalog(path.join(base, 'skills'), entries);
  log(`generated ${count} skills in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  buildFeed(path.join(base, 'skills'), base);
  log(`built the feed for ${count} skills in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  writeFileSync(marker, want);
  return { dist, entries };
}

/** A raw JSON-RPC session with a spawned server. */
class Session {
  readonly child;
  readonly started = performance.now();
  #buffer = '';
  #waiting = new Map<number, (message: any) => void>();
  #id = 0;

  constructor(dist: string) {
    this.child = spawn(NODE, [CLI, 'mcp', '--feed', dist], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
        this.#waiting.get(message.id)?.(message);
        this.#waiting.delete(message.id);
      }
    });
  }

  request(method: string, params: unknown = {}): Promise<any> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  notify(method: string): void {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  }

  /** Sends initialize + initialized + tools/list at once, as a client does on start. */
  async open(): Promise<{ init: any; tools: any; ms: number }> {
    const init = this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    this.notify('notifications/initialized');
    const tools = this.request('tools/list');
    const [i, t] = await Promise.all([init, tools]);
    return { init: i.result, tools: t.result, ms: performance.now() - this.started };
  }

  /** Milliseconds from spawn to the first skills_search answer (the feed loaded, the body index read). */
  async firstSearch(query: string): Promise<number> {
    const answer = await this.request('tools/call', { name: 'skills_search', arguments: { query } });
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    return performance.now() - this.started;
  }

  memory(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Queries an agent might send: one to three words from a skill's description or name. */
function queries(entries: SearchEntry[]): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < WARM_UP + QUERIES; i++) {
    const e = entries[(i * 7919) % entries.length]!;
    const words = e.description
      .replace(/[^a-z ]/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 3);
    const n = 1 + (i % 3);
    out.push(
      i % 5 === 0
        ? e.name.split('-')[0]!
        : words.slice(i % Math.max(1, words.length - n), (i % Math.max(1, words.length - n)) + n).join(' '),
    );
  }
  return out;
}

interface Row {
  skills: number;
  coldMedian: number;
  coldMin: number;
  /** Median of a bare node's starts, taken between this size's starts. */
  bareMedian: number;
  firstSearch: number;
  upFront: number;
  toolsBytes: number;
  instructionsBytes: number;
  inP50: number;
  inP95: number;
  wireP50: number;
  wireP95: number;
  rss: number;
  peak: number;
}

async function measure(count: number): Promise<Row> {
  const { dist, entries } = feedFor(count);

  const qs = queries(entries);
  // The measured queries are not the warm-up's, so they are not answered from its caches.
  const warmUp = qs.slice(0, WARM_UP);
  const measured = qs.slice(WARM_UP);
  const colds: number[] = [];
  const bares: number[] = [];
  const firsts: number[] = [];
  let toolsBytes = 0;
  let instructionsBytes = 0;
  for (let i = 0; i < STARTS; i++) {
    const s = new Session(dist);
    const { init, tools, ms } = await s.open();
    colds.push(ms);
    firsts.push(await s.firstSearch(qs[i]!));
    toolsBytes = Buffer.byteLength(JSON.stringify(tools));
    instructionsBytes = Buffer.byteLength(init.instructions ?? '');
    await s.close();
    bares.push(await startOnce(BARE_NODE));
  }
  colds.sort((a, b) => a - b);
  bares.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);

  const catalog = await FeedCatalog.load(new DirStore(path.join(dist, 'feed/v1')));
  await catalog.loadBodyIndex();
  for (const q of warmUp) await searchSkills(catalog, q, 10);
  const inProcess: number[] = [];
  for (const q of measured) {
    const t = performance.now();
    await searchSkills(catalog, q, 10);
    inProcess.push(performance.now() - t);
  }
  inProcess.sort((a, b) => a - b);

  const s = new Session(dist);
  await s.open();
  for (const q of warmUp) await s.request('tools/call', { name: 'skills_search', arguments: { query: q } });
  const wire: number[] = [];
  for (const q of measured) {
    const t = performance.now();
    const answer = await s.request('tools/call', { name: 'skills_search', arguments: { query: q } });
    wire.push(performance.now() - t);
    if (answer.error || answer.result?.isError)
      throw new Error(`skills_search failed for "${q}": ${JSON.stringify(answer).slice(0, 300)}`);
  }
  wire.sort((a, b) => a - b);
  const { rss, peak } = s.memory();
  await s.close();

  return {
    skills: count,
    coldMedian: percentile(colds, 50),
    bareMedian: percentile(bares, 50),
    coldMin: colds[0]!,
    firstSearch: percentile(firsts, 50),
    upFront: toolsBytes + instructionsBytes,
    toolsBytes,
    instructionsBytes,
    inP50: percentile(inProcess, 50),
    inP95: percentile(inProcess, 95),
    wireP50: percentile(wire, 50),
    wireP95: percentile(wire, 95),
    rss,
    peak,
  };
}

/** Start-up on `skills` (a skills folder): the servers side by side, and the table. */
async function startupTable(skills: string): Promise<void> {
  assertBundleCurrent();
  const dist = buildFeed(skills, path.join(WORK, 'startup'));
  const feed = ['mcp', '--feed', dist];
  const servers: Server[] = [
    { label: '`skillpress mcp`, as installed (bundled bin)', command: NODE, args: [CLI, ...feed] },
    {
      label: '`skillpress mcp` from the TypeScript sources',
      command: NODE,
      args: [CLI, ...feed],
      env: { SKILLPRESS_SOURCES: '1' },
    },
  ];
  const skilljack = flags['no-skilljack'] ? { missing: '--no-skilljack' } : findSkilljack(flags.skilljack, WORK);
  if ('bin' in skilljack) {
    servers.push({
      label: `skilljack-mcp ${SKILLJACK.version}`,
      command: NODE,
      args: [skilljack.bin, path.resolve(skills)],
      env: { SKILLS_DIR: undefined, MAX_FILE_SIZE_MB: undefined },
    });
  }
  const rows = await measureStartups(servers, Number(flags.starts ?? 15));
  const skillCount = JSON.parse(readFileSync(path.join(dist, 'feed/v1/index.json'), 'utf8')).counts.skills as number;
  console.log(
    `Start-up on ${skills} (${skillCount} skills), Node ${process.versions.node}: spawn → answered tools/list, ${flags.starts ?? 15} starts each in rounds.`,
  );
  console.log('');
  printStartup(rows);
  if ('missing' in skilljack) console.log(`\nskilljack-mcp ${SKILLJACK.version} left out: ${skilljack.missing}.`);
  console.log('');
}

function printStartup(rows: StartupRow[]): void {
  console.log('| server | median ms | min ms | × bare node (median) |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.label} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio.toFixed(2)} |`);
}

/** The bin runs the sources when lib/bin/ is missing or older than them: say so rather than time the wrong thing. */
function assertBundleCurrent(): void {
  const which = spawnSync(NODE, [CLI, '--version'], {
    env: { ...process.env, SKILLPRESS_DEBUG: '1' },
    encoding: 'utf8',
  }).stderr;
  if (!which.includes('lib/bin/main.js')) {
    log(`bench:mcp: the bin would not run its bundle (${which.trim()}); run \`npm run build:lib\` first`);
    process.exit(1);
  }
}

if (flags.prepare) {
  for (const count of counts) feedFor(count);
  process.exit(0);
}

await startupTable(flags.catalog ?? path.join(ROOT, 'skills'));
if (flags.startup) process.exit(0);

const rows: Row[] = [];
for (const count of counts) rows.push(await measure(count));

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
console.log(
  '| skills | cold start → tools/list ms (median / min; × bare node) | → first skills_search ms | tools/list + instructions bytes | skills_search in-process p50 / p95 ms | skills_search over stdio p50 / p95 ms | RSS MB (after searches / peak) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.skills.toLocaleString('en')} | ${f1(r.coldMedian)} / ${f1(r.coldMin)}; ${f2(r.coldMedian / r.bareMedian)}× | ${f1(r.firstSearch)} | ${r.upFront} (${r.toolsBytes} + ${r.instructionsBytes}) | ${f2(r.inP50)} / ${f2(r.inP95)} | ${f2(r.wireP50)} / ${f2(r.wireP95)} | ${f1(r.rss)} / ${f1(r.peak)} |`,
  );
}
console.log('');
console.log(
  `Load average while measuring: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} (${process.env.CI ? 'CI' : 'local'}; 2 cores here — timings scale with contention).`,
);
console.log('');
console.log(
  `Targets: start-up ≤ skilljack-mcp's on the same skills and ≤ ${TARGETS.startupRatio}× a bare node; cold start < ${TARGETS.coldStartMs1k} ms at 1,000 skills; search p95 < ${TARGETS.searchP95Ms10k} ms at 10,000; RSS < ${TARGETS.rssMb10k} MB at 10,000; tools/list + instructions ≤ ${TARGETS.upFrontKb} KB at any size.`,
);
