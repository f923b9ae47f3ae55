/**
 * Usage recording and summarizing:
 *
 *   npm run bench:usage                      # all three parts
 *   npm run bench:usage -- --only record     # record | summarize | outage
 *   npm run bench:usage -- --events 1000000 --outage-seconds 60
 *
 * - record: `view_skill` round trips to the server in process (the SDK's in-memory transport, the
 *   bundled example skills), p50/p95 over 2,000 calls after 300 warm-up calls: without recording,
 *   recording to a JSON Lines file, and to Elasticsearch (ELASTICSEARCH_URL or 127.0.0.1:9200, a
 *   throw-away index); and `record()` alone.
 * - summarize: `summarizeUsage` over a generated file of N events (500 skills, 2,000 users, 3
 *   versions, a third of them outcome reports with stars) in a child process: seconds and peak RSS.
 * - outage: an Elasticsearch of its own on port 9238 (`.cache/elasticsearch/node-9238`; the
 *   shared one is never touched), a call every 20 ms throughout: 15 s up, `--outage-seconds`
 *   stopped, then started again; p95 of the calls per phase beside the same load without
 *   recording, and whether every event arrived once it was back.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { build } from '../src/build.ts';
import { openFeedStore } from '../src/feed-reader/index.ts';
import { FeedCatalog } from '../src/mcp/catalog.ts';
import { createServer } from '../src/mcp/server.ts';
import { ElasticsearchRecorder, eventLine, FileRecorder, makeEvent, type UsageRecorder } from '../src/usage/index.ts';
import type { UsageEvent } from '../src/model/usage.ts';
import { startElasticsearch, stopElasticsearch } from '../scripts/es.mjs';
import { table } from './lib/table.ts';
import { xorshift32 } from './lib/prng.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ES = process.env.ELASTICSEARCH_URL || 'http://127.0.0.1:9200';
const OWN_PORT = 9238;
const OWN_DIR = path.join(ROOT, '.cache', 'elasticsearch', `node-${OWN_PORT}`);

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    events: { type: 'string', default: '1000000' },
    'outage-seconds': { type: 'string', default: '60' },
  },
});
const tmp = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-usage-'));

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number): string => x.toFixed(3);

async function feed(): Promise<string> {
  const out = path.join(tmp, 'dist');
  const config = path.join(tmp, 'config');
  execFileSync('mkdir', ['-p', config]);
  await build({ skills: path.join(ROOT, 'skills'), out, config, site: false });
  return path.join(out, 'feed', 'v1');
}

/** A client connected in process to a server recording to `recorder` (none: not recording). */
async function connect(feedDir: string, recorder?: UsageRecorder) {
  const catalog = FeedCatalog.load(await openFeedStore(feedDir));
  const skill = (await catalog).cards[0]!.id;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const usage = recorder ? { usage: { recorder, user: 'bench' } } : {};
  const handle = serveStdio(() => createServer(() => catalog, { name: 'bench', version: '0', ...usage }), {
    transport: serverSide,
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(clientSide);
  const call = async (): Promise<number> => {
    const started = performance.now();
    await client.callTool({ name: 'view_skill', arguments: { name: skill } });
    return performance.now() - started;
  };
  return { call, close: async () => (await client.close(), await handle.close()) };
}

/**
 * The three servers are called in turn, one call each, so the machine's noise (other processes,
 * collections) falls on all of them alike.
 */
async function interleaved(feedDir: string, recorders: Array<UsageRecorder | undefined>): Promise<number[][]> {
  const servers = await Promise.all(recorders.map((r) => connect(feedDir, r)));
  for (let i = 0; i < 500; i++) for (const s of servers) await s.call();
  const out = servers.map((): number[] => []);
  for (let i = 0; i < 3000; i++) for (const [k, s] of servers.entries()) out[k]!.push(await s.call());
  for (const s of servers) await s.close();
  return out;
}

async function benchRecord(feedDir: string): Promise<void> {
  const index = `bench_usage_${process.pid}`;
  const es = new ElasticsearchRecorder(ES, { index, spoolDir: path.join(tmp, 'spool') });
  const [none, file, toEs] = await interleaved(feedDir, [
    undefined,
    new FileRecorder(path.join(tmp, 'record.jsonl')),
    es,
  ]);
  await es.flush();
  await es.close();
  await fetch(`${ES}/${index}`, { method: 'DELETE' }).catch(() => undefined);
  const base = pct(none!, 95);
  const row = (label: string, xs: number[]) => [label, ms(pct(xs, 50)), ms(pct(xs, 95)), ms(pct(xs, 95) - base)];
  const rows = [row('not recording', none!), row('JSON Lines file', file!), row(`Elasticsearch (${ES})`, toEs!)];
  const direct = new FileRecorder(path.join(tmp, 'direct.jsonl'));
  const alone: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const event = makeEvent({ type: 'load', skill: 'pdf', via: 'view_skill' }, { user: 'bench' });
    const started = performance.now();
    direct.record(event);
    alone.push(performance.now() - started);
  }
  await direct.close();
  rows.push(['record() alone, file', ms(pct(alone, 50)), ms(pct(alone, 95)), '']);
  console.log(`\n## Recording: view_skill round trip in process (ms, 3,000 calls each, interleaved)\n`);
  console.log(table(['', 'p50', 'p95', 'p95 added'], rows));
  console.log(`\nElasticsearch recorder: ${es.stats.sent} event(s) sent, ${es.stats.spooled} spooled.`);
}

async function writeEvents(file: string, n: number): Promise<void> {
  const next = xorshift32(42);
  const rand = (): number => next() / 2 ** 32;
  const stream = createWriteStream(file);
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < n; i++) {
    const skill = `skill-${Math.floor(rand() * 500)}`;
    const base = {
      v: 1 as const,
      id: `e${i}`,
      at: new Date(start + i * 1000).toISOString(),
      skill,
      version: `1.${Math.floor(rand() * 3)}.0`,
      digest: `sha256:${'0'.repeat(64)}`,
      client: 'bench-client',
      user: `user-${Math.floor(rand() * 2000)}`,
    };
    const event: UsageEvent =
      rand() < 0.33
        ? { ...base, type: 'outcome', outcome: rand() < 0.7 ? 'success' : 'failure', stars: 1 + Math.floor(rand() * 5) }
        : { ...base, type: 'load', via: 'view_skill' };
    if (!stream.write(eventLine(event))) await new Promise<void>((r) => stream.once('drain', () => r()));
  }
  await new Promise<void>((r) => stream.end(() => r()));
}

async function benchSummarize(n: number): Promise<void> {
  const file = path.join(tmp, 'events.jsonl');
  await writeEvents(file, n);
  const script = `
    const { summarizeUsage } = await import(${JSON.stringify(path.join(ROOT, 'src/usage/index.ts'))});
    const started = performance.now();
    const s = await summarizeUsage([${JSON.stringify(file)}]);
    const seconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage();
    console.log(JSON.stringify({ seconds, cpu: (user + system) / 1e6, events: s.events, skills: Object.keys(s.skills).length, maxRss: process.resourceUsage().maxRSS }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    cpu: number;
    events: number;
    skills: number;
    maxRss: number;
  };
  const size = (await import('node:fs')).statSync(file).size;
  console.log(`\n## Summarizing ${n.toLocaleString('en')} events (${(size / 2 ** 20).toFixed(0)} MB of JSON Lines)\n`);
  console.log(
    table(
      // CPU seconds: what the summary costs when the machine is not shared (wall seconds include waiting for a core).
      ['events read', 'skills', 'seconds', 'CPU seconds', 'events/s', 'peak RSS (MB)'],
      [
        [
          String(r.events),
          String(r.skills),
          r.seconds.toFixed(2),
          r.cpu.toFixed(2),
          Math.round(r.events / r.seconds).toLocaleString('en'),
          (r.maxRss / 1024).toFixed(0),
        ],
      ],
    ),
  );
}

/** Calls every 20 ms until `until()`; returns their durations. */
async function steady(call: () => Promise<number>, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    out.push(await call());
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

async function benchOutage(feedDir: string, outage: number): Promise<void> {
  const url = `http://127.0.0.1:${OWN_PORT}`;
  await startElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
  const index = 'bench_usage_outage';
  await fetch(`${url}/${index}`, { method: 'DELETE' }).catch(() => undefined);
  const plain = await connect(feedDir);
  const baseline = await steady(plain.call, 15);
  await plain.close();
  const recorder = new ElasticsearchRecorder(url, { index, spoolDir: path.join(tmp, 'outage-spool'), retryMs: 2000 });
  const server = await connect(feedDir, recorder);
  const up = await steady(server.call, 15);
  const stopping = stopElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
  const down = await steady(server.call, outage);
  await stopping;
  const starting = startElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
  const back: number[] = [];
  while (!(await Promise.race([starting.then(() => true), new Promise((r) => setTimeout(() => r(false), 0))])))
    back.push(...(await steady(server.call, 1)));
  back.push(...(await steady(server.call, 10)));
  const calls = up.length + down.length + back.length;
  await server.close();
  await recorder.close();
  await fetch(`${url}/${index}/_refresh`, { method: 'POST' });
  const stored = ((await (await fetch(`${url}/${index}/_count`)).json()) as { count: number }).count;
  await stopElasticsearch({ port: OWN_PORT, dir: OWN_DIR });
  const row = (label: string, xs: number[]) => [
    label,
    String(xs.length),
    ms(pct(xs, 50)),
    ms(pct(xs, 95)),
    ms(Math.max(...xs)),
  ];
  console.log(`\n## Elasticsearch stopped for ${outage} s under a call every 20 ms (view_skill, ms)\n`);
  console.log(
    table(
      ['phase', 'calls', 'p50', 'p95', 'max'],
      [
        row('not recording', baseline),
        row('recording, cluster up', up),
        row('cluster stopped', down),
        row('starting again and after', back),
      ],
    ),
  );
  console.log(
    `\nEvents: ${calls} recorded, ${stored} in the index after it was back (${recorder.stats.spooled} went through the spool).`,
  );
}

try {
  const only = values.only;
  const feedDir = only === 'summarize' ? '' : await feed();
  if (!only || only === 'record') await benchRecord(feedDir);
  if (!only || only === 'summarize') await benchSummarize(Number(values.events));
  if (!only || only === 'outage') await benchOutage(feedDir, Number(values['outage-seconds']));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
