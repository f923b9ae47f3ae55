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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { federate } from '../src/federate/index.ts';
import { findDuplicates } from '../src/duplicates/index.ts';
import { writeFeed } from '../src/emit/feed/index.ts';
import { loadCatalog } from '../src/load/index.ts';
import { SkillpressConfig } from '../src/model/config.ts';
import { generateCatalog } from './lib/generate-catalog.ts';
import { serveDir } from '../test/federate/helpers/server.ts';

const sizes = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-federation-'));

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);
const rows: string[][] = [];
try {
  for (const skills of sizes.length ? sizes : [100, 1_000]) {
    const generated = await generateCatalog(path.join(work, `catalog-${skills}`), {
      skills,
      filesPerSkill: 10,
      binaryRatio: 0.2,
    });
    const catalog = await loadCatalog(generated.root, { registry: 'peer' });
    const dist = path.join(work, `dist-${skills}`);
    await writeFeed(catalog, {
      outDir: dist,
      config: SkillpressConfig.parse({ registry: { name: 'peer' } }),
      sourceDateEpoch: 1_767_225_600,
    });
    const server = await serveDir(dist);
    // Requests since the last call.
    const taken = (): number => server.requests.splice(0).length;
    const config = SkillpressConfig.parse({ federation: { peers: [{ name: 'peer', url: server.url }] } });
    const cacheDir = path.join(work, `cache-${skills}`);
    const empty = { skills: [], problems: [] };
    try {
      let t0 = performance.now();
      const cold = await federate(empty, config, { cacheDir });
      const coldS = seconds(t0);
      const coldRequests = taken();
      t0 = performance.now();
      await federate(empty, config, { cacheDir });
      const warmS = seconds(t0);
      const warmRequests = taken();
      t0 = performance.now();
      const dups = findDuplicates(catalog.skills, { nearThreshold: 0.85 });
      const dupS = seconds(t0);
      rows.push([
        String(skills),
        String(generated.files),
        String(cold.skills.length),
        `${coldS} s / ${coldRequests}`,
        `${warmS} s / ${warmRequests}`,
        `${dupS} s (${dups.length} pairs)`,
      ]);
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
