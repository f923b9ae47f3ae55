/**
 * The dev loop, on a copy of a real catalog: `startDevServer()` (what `skillpress dev` runs), then
 * one SKILL.md edited on disk, several times; for each edit, the time until the dev server tells
 * open pages to reload (its event stream announces the new served build), then until the edited
 * skill's page, asked for as the reloading page asks, holds the edit; and how the rebuild's time
 * splits over the build's stages and the site's update (its changed SKILL.md rendered).
 *
 *   npm run bench:dev -- <skills folder> [--rounds 5]
 */
import { appendFile, cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDevServer, type BuildStatus } from '../src/serve/dev-server.ts';
import { formatProblem } from '../src/cli/commands/validate.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' } },
});
if (positionals.length !== 1) throw new Error('usage: npm run bench:dev -- <skills folder> [--rounds 5]');
const rounds = Number(values.rounds);
const s = (sec: number): string => `${sec.toFixed(2)} s`;

const work = await mkdtemp(path.join(tmpdir(), 'skillpress-bench-dev-'));
const skills = path.join(work, 'skills');
await cp(path.resolve(positionals[0]!), skills, { recursive: true });
const first = (await readdir(skills, { withFileTypes: true })).find((e) => e.isDirectory())!.name;
// The skill's id is its folder's name in these catalogs (each SKILL.md names its folder).
const skillMd = path.join(skills, first, 'SKILL.md');

let waiting: ((status: BuildStatus) => void) | undefined;
const cwd = process.cwd();
process.chdir(work);
const server = await startDevServer({
  skills,
  port: 0,
  describeProblem: formatProblem,
  onBuild: (status) => waiting?.(status),
});
try {
  const rows: string[] = [];
  // The page is open before the first edit, as it is for someone editing the skill.
  await (await fetch(`${server.url}skills/${first}/`)).text();
  for (let round = 1; round <= rounds; round++) {
    const served = new Promise<BuildStatus>((resolve) => (waiting = resolve));
    const started = performance.now();
    await appendFile(skillMd, `\nEdit ${round}.\n`);
    const status = await served;
    const reload = (performance.now() - started) / 1000;
    const page = await (await fetch(`${server.url}skills/${first}/`)).text();
    if (!page.includes(`Edit ${round}.`))
      throw new Error(`round ${round}: the page of ${first} does not show the edit`);
    const shown = (performance.now() - started) / 1000;
    const st = status.result!.stages;
    const site = status.seconds - (st.load ?? 0) - (st.feed ?? 0) - (st.output ?? 0);
    rows.push(
      `| ${round} | ${s(reload)} | ${s(shown)} | ${s(status.seconds)} | ${s(st.load ?? 0)} | ${s(st.feed ?? 0)} | ${s(st.output ?? 0)} | ${s(site)} |`,
    );
  }
  process.stdout.write(
    `dev loop on ${positionals[0]} (${first}/SKILL.md edited each round)\n\n` +
      '| round | edit → reload sent | edit → page with the edit | rebuild | load | feed | output | site update |\n|---|---|---|---|---|---|---|---|\n' +
      `${rows.join('\n')}\n`,
  );
} finally {
  await server.close();
  process.chdir(cwd);
  await rm(work, { recursive: true, force: true });
}
