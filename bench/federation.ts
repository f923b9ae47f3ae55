/**
 * Federation and duplicates benchmark: a generated catalog (100 / 1,000 skills × 10 files) is
 * published with writeFeed, served over HTTP on 127.0.0.1, and imported with federate():
 * cold (empty cache: every part and file fetched and verified) and warm (unchanged peer: one
 * conditional request, everything else re-verified from the cache). Then findDuplicates over
 * the same skills (identical content + TF-IDF cosine).
 *
 *   node bench/federation.ts            # 100 and 1000
 *   node bench/federation.ts 1000
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { federate } from '../src/federate/index.ts';
import { findDuplicates } from '../src/duplicates/index.ts';
import { writeFeed } from '../src/emit/feed/index.ts';
import { loadCatalog } from '../src/load/index.ts';
import { SkillpressConfig } from '../src/model/config.ts';
import { generateCatalog } from './lib/generate-catalog.ts';

const sizes = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-federation-'));

async function serve(root: string) {
  let requests = 0;
  const server = createServer(async (req, res) => {
    requests++;
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const body = await readFile(file).catch(() => undefined);
    if (!body) return void res.writeHead(404).end();
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, 'content-length': body.byteLength }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    taken: () => {
      const n = requests;
      requests = 0;
      return n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);
const rows: string[][] = [];
try {
  for (const skills of sizes.length ? sizes : [100, 1_000]) {
    const generated = await generateCatalog(path.join(work, `catalog-${skills}`), { skills, filesPerSkill: 10, binaryRatio: 0.2 });
    const catalog = await loadCatalog(generated.root, { registry: 'peer' });
    const dist = path.join(work, `dist-${skills}`);
    await writeFeed(catalog, { outDir: dist, config: SkillpressConfig.parse({ registry: { name: 'peer' } }), sourceDateEpoch: 1_767_225_600 });
    const server = await serve(dist);
    const config = SkillpressConfig.parse({ federation: { peers: [{ name: 'peer', url: server.url }] } });
    const cacheDir = path.join(work, `cache-${skills}`);
    const empty = { skills: [], problems: [] };
    try {
      let t0 = performance.now();
      const cold = await federate(empty, config, { cacheDir });
      const coldS = seconds(t0);
      const coldRequests = server.taken();
      t0 = performance.now();
      await federate(empty, config, { cacheDir });
      const warmS = seconds(t0);
      const warmRequests = server.taken();
      t0 = performance.now();
      const dups = findDuplicates(catalog.skills, { nearThreshold: 0.85 });
      const dupS = seconds(t0);
      rows.push([String(skills), String(generated.files), String(cold.skills.length), `${coldS} s / ${coldRequests}`, `${warmS} s / ${warmRequests}`, `${dupS} s (${dups.length} pairs)`]);
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const head = ['skills', 'files', 'imported', 'cold import / requests', 'warm import / requests', 'findDuplicates'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(head));
console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
for (const r of rows) console.log(line(r));
