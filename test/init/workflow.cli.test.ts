/**
 * The GitHub Pages workflow `skillpress init` writes and the composite action (action.yml) are
 * valid YAML naming current actions, and their shell steps run as written: bash runs each build
 * step (with the expressions GitHub would substitute) in a git checkout, against a stand-in
 * skillpress that records its arguments and SOURCE_DATE_EPOCH, with the published site (the
 * previous build) served on 127.0.0.1 or not there yet.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

const run = promisify(execFile);
/** The checkout's last commit time (seconds): what SOURCE_DATE_EPOCH should be. */
const COMMITTED = 1_700_000_000;

let runner: string;
let checkout: string;
/** The published site: `/site/feed/v1/index.json` answers, anything else is a 404. */
let site: Server;
let siteUrl: string;
beforeEach(async () => {
  runner = await mkdtemp(path.join(tmpdir(), 'sp-workflow-'));
  const bin = path.join(runner, 'skillpress/node_modules/.bin');
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, 'skillpress'),
    '#!/bin/sh\nprintf "%s\\n" "$@" > "$RUNNER_TEMP/args"\nprintf "%s" "$SOURCE_DATE_EPOCH" > "$RUNNER_TEMP/epoch"\n',
  );
  await chmod(path.join(bin, 'skillpress'), 0o755);
  checkout = path.join(runner, 'checkout');
  await mkdir(checkout);
  const date = `@${COMMITTED} +0000`;
  const git = (...args: string[]) =>
    run('git', args, { cwd: checkout, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  await git('init', '-q', '-b', 'main');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '--allow-empty', '-m', 'skills');
  site = createServer((req, res) => {
    if (req.url === '/site/feed/v1/index.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/site`;
});
afterEach(async () => {
  await new Promise((resolve) => site.close(resolve));
  await rm(runner, { recursive: true, force: true });
});

/** Run one step's script in bash in the checkout as the runner would, with `${{ … }}` already substituted. */
async function runStep(script: string, env: Record<string, string> = {}): Promise<string[]> {
  await run('bash', ['-e', '-c', script], { cwd: checkout, env: { ...process.env, RUNNER_TEMP: runner, ...env } });
  expect(await readFile(path.join(runner, 'epoch'), 'utf8')).toBe(String(COMMITTED));
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
    // The whole history: skill versions are published from skillpress's commits.
    const checkout = (workflow.jobs.build.steps as Array<Step & { with?: object }>).find((s) =>
      s.uses?.includes('checkout'),
    );
    expect(checkout?.with).toEqual({ 'fetch-depth': 0 });
  });

  it('builds for the base path Pages serves, from the published site when there is one, dated by the last commit', async () => {
    const build = (workflow.jobs.build.steps as Step[]).find((s) => s.name === 'Build the catalog')!;
    expect(build.env?.PAGES_URL).toBe('${{ steps.pages.outputs.base_url }}');
    const script = build.run!.replace('${{ steps.pages.outputs.base_path }}', '/team-skills');
    const args = ['build', 'skills', '--out', 'dist', '--base', '/team-skills/'];
    expect(await runStep(script, { PAGES_URL: siteUrl })).toEqual([...args, '--previous', `${siteUrl}/`]);
    // The first deploy: nothing published yet, so no previous build (an explicit --previous would fail).
    expect(await runStep(script, { PAGES_URL: `${siteUrl}/not-yet` })).toEqual(args);
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
    expect(build.env?.PAGES_URL).toBe('${{ steps.pages.outputs.base_url }}');
    const env = { SKILLS: 'catalog', OUT: 'dist', BASE: '/x/', PAGES_URL: siteUrl };
    expect(await runStep(build.run!, env)).toEqual([
      'build',
      '--out',
      'dist',
      '--base',
      '/x/',
      '--skills',
      'catalog',
      '--previous',
      `${siteUrl}/`,
    ]);
    expect(await runStep(build.run!, { ...env, SKILLS: '', BASE: '/', PAGES_URL: `${siteUrl}/not-yet` })).toEqual([
      'build',
      '--out',
      'dist',
      '--base',
      '/',
    ]);
  });
});
