/**
 * `skillpress dev` started as a user starts it (the CLI, in a project folder, on a free port),
 * with what it writes kept for the test to wait on and read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFixtureSkills } from './fixture.ts';
import { stopChild } from '../../helpers/stop-child.ts';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface DevProcess {
  child: ChildProcess;
  /** All it wrote to stderr (build lines, warnings, problems) so far. */
  stderr(): string;
  /** All it wrote to stdout (`serving at …`) so far. */
  stdout(): string;
  /** Resolves once `stream` holds `text`; rejects when it exits first or after `timeout` ms, with its stderr. */
  shows(stream: 'stderr' | 'stdout', text: string, timeout?: number): Promise<void>;
  /** The address it serves at, once it says so. */
  url(): Promise<string>;
}

/** `skillpress dev --skills skills --port 0` in `cwd`. Stop it with {@link stopDev}. */
export function startDev(cwd: string): DevProcess {
  const child = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    [path.join(REPO, 'scripts/skillpress.mjs'), 'dev', '--skills', 'skills', '--port', '0'],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const written = { stderr: '', stdout: '' };
  child.stderr.on('data', (chunk: Buffer) => (written.stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (written.stdout += chunk.toString()));
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = `exited with ${code ?? signal}`));

  const shows = (stream: 'stderr' | 'stdout', text: string, timeout = 90_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const check = setInterval(() => {
        if (written[stream].includes(text)) {
          clearInterval(check);
          resolve();
        } else if (exit || Date.now() - started > timeout) {
          clearInterval(check);
          const why = exit ?? `not in ${timeout} ms`;
          reject(new Error(`no "${text}" from skillpress dev (${why}):\n${written.stderr}`));
        }
      }, 20);
    });

  return {
    child,
    stderr: () => written.stderr,
    stdout: () => written.stdout,
    shows,
    url: async () => {
      await shows('stdout', 'serving at');
      return /serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(written.stdout)![1]!;
    },
  };
}

/** A project folder in the system's temp folder with the fixture skills in `skills/`. */
export async function fixtureProject(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await writeFixtureSkills(path.join(dir, 'skills'));
  return dir;
}

/** Stops `dev` (when started) and removes `project` (when made). */
export async function stopDev(dev: DevProcess | undefined, project: string | undefined): Promise<void> {
  await stopChild(dev?.child);
  if (project) await rm(project, { recursive: true, force: true });
}
