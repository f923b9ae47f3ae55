/**
 * Authoring benchmark: `skillpress mcp --skills <folder>` over stdio with the SDK client. Each
 * round calls create_skill with a new skill, then skills_search for it (it must be the first
 * result), then update_skill with a new section and a search for a word only that section has.
 * Reported: the time until the write is answered (the server has rebuilt its feed and reloaded
 * it by then) and until the search finds it.
 *
 *   node bench/authoring.ts                 # the six public catalogs of /work/catalogs (public-six)
 *   node bench/authoring.ts <dir> [<dir>…]  # skills folders of your choice
 *   node bench/authoring.ts --rounds 10
 *   node bench/authoring.ts <dir>… --node-flag --min-semi-space-size=16   # the server under a flag
 *
 * The folders are copied into a temporary folder first (the server writes into its copy);
 * the build cache is in the copy's state folder (`.skillpress/cache/`), warmed by the server's first build.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { table } from './lib/table.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC_SIX = [
  'anthropics+skills',
  'obra+superpowers',
  'trailofbits+skills',
  'K-Dense-AI+claude-scientific-skills',
  'vercel-labs+agent-skills',
  'mattpocock+skills',
].map((c) => `/work/catalogs/${c}`);

const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 5;
// `--node-flag <flag>` (repeatable): a V8 or Node flag the server starts with, e.g. --min-semi-space-size=16.
const nodeFlags = argv.flatMap((a, i) => (argv[i - 1] === '--node-flag' ? [a] : []));
const folders = argv.filter((a, i) => !a.startsWith('--') && !['--rounds', '--node-flag'].includes(argv[i - 1]!));
const sources = folders.length ? folders : PUBLIC_SIX.filter((f) => existsSync(f));
if (sources.length === 0) {
  console.log('bench:authoring: no skills folder given and /work/catalogs is not here; pass folders');
  process.exit(0);
}

const work = mkdtempSync(path.join(tmpdir(), 'skillpress-bench-authoring-'));
const skills = path.join(work, 'skills');
for (const src of sources)
  cpSync(src, path.join(skills, path.basename(src)), { recursive: true, verbatimSymlinks: true });

const ms = (t0: number) => performance.now() - t0;
const structured = (r: CallToolResult) =>
  r.structuredContent as Record<string, unknown> & { results?: Array<{ name: string }> };

const transport = new StdioClientTransport({
  command: path.join(ROOT, 'node_modules/.bin/node'),
  args: [...nodeFlags, path.join(ROOT, 'scripts/skillpress.mjs'), 'mcp', '--skills', skills],
  cwd: ROOT,
  stderr: 'pipe',
});
const client = new Client({ name: 'bench-authoring', version: '1.0.0' });
const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args }, { timeout: 600_000 });
  if (r.isError) throw new Error(`${name}: ${(r.content[0] as { text: string }).text}`);
  return structured(r);
};
const timings = {
  create: [] as number[],
  createFound: [] as number[],
  update: [] as number[],
  updateFound: [] as number[],
};
/** CPU the server spent (user + system, ms, from /proc): a figure the machine's load does not inflate. */
const cpu = { create: [] as number[], update: [] as number[] };
const cpuMs = (): number => {
  const stat = readFileSync(`/proc/${transport.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
let skillCount: number;
try {
  await client.connect(transport);
  const t0 = performance.now();
  skillCount = Number((await call('skills_list', { limit: 1 })).total);
  const firstBuild = ms(t0);
  for (let i = 0; i < rounds; i++) {
    // Made-up words, so each skill is new to the catalog and found only by them.
    const word = `zorblax${i}${Date.now().toString(36)}`;
    const started = performance.now();
    const cpu0 = cpuMs();
    const created = await call('create_skill', {
      name: `bench-${word}`,
      description: `Calibrate the ${word} flux regulator before a warp jump.`,
      body: `# Calibrate the ${word} regulator\n\n## Steps\n\n1. **Do:** read the ${word} gauge.\n2. **Check:** it is in the green band.\n`,
    });
    timings.create.push(ms(started));
    cpu.create.push(cpuMs() - cpu0);
    const found = await call('skills_search', { query: `${word} flux regulator` });
    timings.createFound.push(ms(started));
    if (found.results?.[0]?.name !== created.name)
      throw new Error(`created ${String(created.name)} was not found first`);
    const extra = `quuxinate${i}`;
    const updating = performance.now();
    const cpu1 = cpuMs();
    await call('update_skill', {
      name: created.name,
      body: `# Calibrate the ${word} regulator\n\n## Steps\n\n1. Read the gauge.\n\n## Troubleshooting\n\nIf it drifts, ${extra} the coil.\n`,
    });
    timings.update.push(ms(updating));
    cpu.update.push(cpuMs() - cpu1);
    const again = await call('skills_search', { query: extra });
    timings.updateFound.push(ms(updating));
    if (again.results?.[0]?.name !== created.name) throw new Error(`updated ${String(created.name)} was not found`);
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const max = (xs: number[]) => Math.max(...xs);
  const s = (x: number) => (x / 1000).toFixed(2);
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `load average ${load} on ${cpus().length} cores; ${skillCount} skills (${sources.map((f) => path.basename(f)).join(', ')}); first build and load ${s(firstBuild)} s; ${rounds} rounds${nodeFlags.length ? `; server started with ${nodeFlags.join(' ')}` : ''}\n`,
  );
  console.log(
    table(
      ['step', 'p50 s', 'max s', 'server CPU p50 s'],
      [
        ['create_skill answered', s(p50(timings.create)), s(max(timings.create)), s(p50(cpu.create))],
        ['… and found by skills_search', s(p50(timings.createFound)), s(max(timings.createFound)), ''],
        ['update_skill answered', s(p50(timings.update)), s(max(timings.update)), s(p50(cpu.update))],
        ['… and found by skills_search', s(p50(timings.updateFound)), s(max(timings.updateFound)), ''],
      ],
    ),
  );
  console.log('\nTarget: a write answered and found by skills_search within 3 s on public-six (about 290 skills).');
} finally {
  await client.close();
  rmSync(work, { recursive: true, force: true });
}
