/**
 * The GitHub Pages workflow `skillpress init` writes and the composite action (action.yml) are
 * valid YAML naming current actions, and their shell steps run as written: bash runs each build
 * step (with the expressions GitHub would substitute) against a stand-in skillpress that records
 * its arguments.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pagesWorkflow } from '../../src/init/workflow.ts';

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  name?: string;
}
const CURRENT = ['checkout@v6', 'setup-node@v6', 'configure-pages@v6', 'upload-pages-artifact@v5', 'deploy-pages@v5'];

let runner: string;
beforeEach(async () => {
  runner = await mkdtemp(path.join(tmpdir(), 'sp-workflow-'));
  const bin = path.join(runner, 'skillpress/node_modules/.bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'skillpress'), '#!/bin/sh\nprintf "%s\\n" "$@" > "$RUNNER_TEMP/args"\n');
  await chmod(path.join(bin, 'skillpress'), 0o755);
});
afterEach(() => rm(runner, { recursive: true, force: true }));

/** Run one step's script in bash as the runner would, with `${{ … }}` already substituted. */
async function runStep(script: string, env: Record<string, string> = {}): Promise<string[]> {
  await promisify(execFile)('bash', ['-e', '-c', script], { env: { ...process.env, RUNNER_TEMP: runner, ...env } });
  return (await readFile(path.join(runner, 'args'), 'utf8')).trimEnd().split('\n');
}

const usesOf = (steps: Step[]): string[] => steps.flatMap((s) => (s.uses ? [s.uses] : []));

describe('the workflow init writes', () => {
  const workflow = parse(
    pagesWorkflow({ packageSpec: 'git+https://example.org/sp.git', skills: 'skills', branch: 'main' }),
  );

  it('uses current actions, in a build job and a deploy job', () => {
    const uses = [...usesOf(workflow.jobs.build.steps), ...usesOf(workflow.jobs.deploy.steps)];
    for (const action of CURRENT) expect(uses).toContain(`actions/${action}`);
    expect(workflow.permissions).toEqual({ contents: 'read', pages: 'write', 'id-token': 'write' });
  });

  it('builds for the base path Pages serves', async () => {
    const build = (workflow.jobs.build.steps as Step[]).find((s) => s.name === 'Build the catalog')!;
    const script = build.run!.replace('${{ steps.pages.outputs.base_path }}', '/team-skills');
    expect(await runStep(script)).toEqual(['build', 'skills', '--out', 'dist', '--base', '/team-skills/']);
  });
});

describe('action.yml', () => {
  it('is a composite action using current actions, whose build step runs as written', async () => {
    const action = parse(await readFile('action.yml', 'utf8'));
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps as Step[];
    for (const action of CURRENT.filter((a) => !a.startsWith('checkout')))
      expect(usesOf(steps)).toContain(`actions/${action}`);
    const build = steps.find((s) => s.name === 'Build the catalog')!;
    expect(await runStep(build.run!, { SKILLS: 'catalog', OUT: 'dist', BASE: '/x/' })).toEqual([
      'build',
      '--out',
      'dist',
      '--base',
      '/x/',
      '--skills',
      'catalog',
    ]);
    expect(await runStep(build.run!, { SKILLS: '', OUT: 'dist', BASE: '/' })).toEqual([
      'build',
      '--out',
      'dist',
      '--base',
      '/',
    ]);
  });
});
