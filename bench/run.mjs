// Run every benchmark in bench/ (or those named on the command line) one after another.
// Each prints its own table; together they give the figures the issues ask for.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
let failed = 0;
for (const name of benches) {
  process.stdout.write(`\n## bench/${name}.ts\n\n`);
  const r = spawnSync(process.execPath, [`${dir}${name}.ts`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
