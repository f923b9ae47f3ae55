/**
 * `skillpress dev` leaves no temp folder behind, however it is stopped: Ctrl-C (SIGINT), SIGTERM,
 * and SIGHUP (the terminal closed). Each run gets a TMPDIR of its own, which must be empty after.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureSkills, SKILLS } from './helpers/fixture.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skillpress-dev-signals-'));
  await writeFixtureSkills(path.join(tmp, 'skills'), SKILLS.slice(0, 2));
});

afterAll(() => rm(tmp, { recursive: true, force: true }));

/** skillpress's entries in a temp folder (Node keeps its compile cache there too). */
const ours = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.startsWith('skillpress'));

/** Runs dev until its first build is served, sends `signal`, and returns its exit code and its TMPDIR's entries. */
async function stopWith(
  signal: NodeJS.Signals,
  again = false,
): Promise<{ code: number | null; left: string[]; stderr: string }> {
  const ownTmp = path.join(tmp, `tmp-${signal}${again ? '-again' : ''}`);
  await mkdir(ownTmp);
  const dev = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    [path.join(REPO, 'scripts/skillpress.mjs'), 'dev', '--skills', 'skills', '--port', '0'],
    { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: ownTmp } },
  );
  let stderr = '';
  dev.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    dev.stderr.on('data', () => stderr.includes('dev: build 1:') && resolve());
    void exited.then(() => reject(new Error(`skillpress dev exited early:\n${stderr}`)));
  });
  // While it runs, its builds are in the temp folder.
  expect(await ours(ownTmp)).toEqual([expect.stringMatching(/^skillpress-dev-/)]);
  dev.kill(signal);
  // Impatient: the same signal again while it stops (signals sent at once may arrive as one).
  if (again) setTimeout(() => dev.kill(signal), 20);
  return { code: await exited, left: await ours(ownTmp), stderr };
}

describe('skillpress dev, stopped', () => {
  for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
    it(`removes its temp folders on ${signal}`, async () => {
      const { code, left, stderr } = await stopWith(signal);
      expect(left, stderr).toEqual([]);
      expect(code).toBe(0);
    }, 120_000);
  }

  it('ends at once on a second signal while it stops, still removing its temp folders', async () => {
    const { code, left, stderr } = await stopWith('SIGINT', true);
    expect(left, stderr).toEqual([]);
    expect(code, stderr).toBe(0);
  }, 120_000);
});
