/**
 * Elasticsearch benchmark: ingest throughput for 1,000 skills × 10 files, and getSkillById
 * latency for a 10-file skill, on the cluster at ELASTICSEARCH_URL (or 127.0.0.1:9200, started
 * with scripts/es.mjs if nothing answers, and stopped afterwards).
 *
 *   npm run bench:es                  # 1,000 skills × 10 files
 *   npm run bench:es -- 200           # another number of skills
 *
 * Each ingest is a full versioned-index write: create, bulk, refresh, alias switch, delete the
 * old indexes. Targets (issue 3): ≥ 5,000 file documents/s; getSkillById p95 < 25 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startElasticsearch, stopElasticsearch } from '../scripts/es.mjs';
import { loadCatalog } from '../src/load/index.ts';
import { createClient, getSkillById, ingestCatalog, type IndexNames } from '../src/emit/elasticsearch/index.ts';
import { generateCatalog } from './lib/generate-catalog.ts';

const TARGET_DOCS_PER_SECOND = 5_000;
const TARGET_P95_MS = 25;
const INGEST_RUNS = 3;
const READS = 400;

const skillCount = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1_000);
const names: IndexNames = { skills: 'bench_agent_skills', files: 'bench_agent_skill_files' };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

let url = process.env.ELASTICSEARCH_URL;
let startedPort: number | undefined;
if (!url) {
  // Finds a node already answering on the port, or starts one (then it is ours to stop).
  const node = await startElasticsearch({ port: 9200 });
  url = node.url;
  if (node.started) startedPort = 9200;
}
const client = createClient({ url });
const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-es-'));
try {
  const generated = await generateCatalog(path.join(work, 'catalog'), {
    skills: skillCount,
    filesPerSkill: 10,
    binaryRatio: 0.2,
  });
  const catalog = await loadCatalog(generated.root);
  const files = catalog.skills.reduce((n, s) => n + s.files.length, 0);
  const mib =
    catalog.skills.reduce((n, s) => n + s.files.reduce((m, f) => m + (f.content?.length ?? 0), 0), 0) / 2 ** 20;

  const ingestSeconds: number[] = [];
  const bulkSeconds: number[] = [];
  for (let run = 0; run < INGEST_RUNS; run++) {
    const t = performance.now();
    let bulkStart = 0;
    let bulkEnd = 0;
    await ingestCatalog(catalog, {
      client,
      names,
      force: true,
      onProgress: (done, total) => {
        if (done === 0) bulkStart = performance.now();
        if (done === total) bulkEnd = performance.now();
      },
    });
    ingestSeconds.push((performance.now() - t) / 1000);
    bulkSeconds.push((bulkEnd - bulkStart) / 1000);
  }
  const best = Math.min(...ingestSeconds);
  const docsPerSecond = files / best;
  const bulkDocsPerSecond = (files + catalog.skills.length) / Math.min(...bulkSeconds);

  const tenFiles = catalog.skills.find((s) => s.files.length === 10)!;
  for (let i = 0; i < 30; i++) await getSkillById(client, tenFiles.id, { names });
  const latencies: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t = performance.now();
    await getSkillById(client, tenFiles.id, { names });
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  const p99 = percentile(latencies, 99);

  const rows = [
    ['measure', 'value', 'target', 'ok'],
    [
      `ingest ${catalog.skills.length} skills × 10 files (${files} file docs, ${mib.toFixed(1)} MiB), best of ${INGEST_RUNS}`,
      `${best.toFixed(2)} s`,
      '',
      '',
    ],
    [
      'ingest throughput, end to end (file documents/s)',
      docsPerSecond.toFixed(0),
      `≥ ${TARGET_DOCS_PER_SECOND}`,
      docsPerSecond >= TARGET_DOCS_PER_SECOND ? 'yes' : 'NO',
    ],
    ['ingest runs, end to end (s)', ingestSeconds.map((s) => s.toFixed(2)).join(', '), '', ''],
    ['bulk phase only (documents/s, best run)', bulkDocsPerSecond.toFixed(0), '', ''],
    [`getSkillById, 10-file skill, p50 (${READS} reads)`, `${p50.toFixed(1)} ms`, '', ''],
    ['getSkillById p95', `${p95.toFixed(1)} ms`, `< ${TARGET_P95_MS} ms`, p95 < TARGET_P95_MS ? 'yes' : 'NO'],
    ['getSkillById p99', `${p99.toFixed(1)} ms`, '', ''],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n') +
      '\n',
  );
  process.stdout.write(
    `\nElasticsearch at ${url}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  process.exitCode = docsPerSecond >= TARGET_DOCS_PER_SECOND && p95 < TARGET_P95_MS ? 0 : 1;
} finally {
  const found = await client.indices.get({ index: 'bench_agent_skill*' }).catch(() => ({}));
  if (Object.keys(found).length > 0) await client.indices.delete({ index: Object.keys(found) });
  await client.close();
  rmSync(work, { recursive: true, force: true });
  if (startedPort) await stopElasticsearch({ port: startedPort });
}
