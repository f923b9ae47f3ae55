/**
 * MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`) against `skillpress mcp`: it lists
 * the tools (with its schema-portability check), calls each one, verifies every skill of
 * `skills/list` against SEP-2640 and the advertised digests, and gets the prompts, in both eras.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, ERAS, FIXTURE, fixtureFeed, NODE, PNG, ROOT, type FixtureFeed } from './helpers.ts';

const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The Inspector starts itself and the server on every run (seconds each), so the full tour runs
 * in the 2025 era and the 2026-07-28 era gets the listing, one call and the SEP-2640 check.
 */
describe.each(ERAS)('MCP Inspector CLI (%s era)', (era) => {
  const full = era === 'legacy';
  let tmp: FixtureFeed;
  let dist: string;

  const inspect = async (...args: string[]): Promise<Run> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        NODE,
        [INSPECTOR, '--cli', NODE, CLI, 'mcp', '--feed', dist, '--protocol-era', era, '-q', ...args],
        {
          cwd: ROOT,
          maxBuffer: 32 * 1024 * 1024,
          env: { ...process.env, MCP_CATALOG_PATH: path.join(tmp.dir, 'inspector.json') },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };

  beforeAll(async () => {
    tmp = await fixtureFeed();
    dist = tmp.dist;
  });
  afterAll(() => tmp?.remove());

  test('tools/list passes the strict schema-portability check', async () => {
    const run = await inspect('--method', 'tools/list', '--strict', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const { result } = JSON.parse(run.stdout) as { result: { tools: Array<{ name: string }> } };
    const { tools } = result;
    expect(tools.map((t) => t.name)).toEqual([
      'skills_list',
      'skills_search',
      'view_skill',
      'read_skill_file',
      'best_skill',
    ]);
  });

  test('every tool can be called and returns structured content', async () => {
    const calls: Array<[string, string[]]> = [
      ['read_skill_file', ['name=pdf-processing', 'path=assets/logo.png']],
      ['skills_list', []],
      ['skills_search', ['query=pdf']],
      ['view_skill', ['name=trino-debug']],
      ['best_skill', ['query=slow trino query']],
    ];
    for (const [tool, args] of full ? calls : calls.slice(0, 1)) {
      const run = await inspect(
        '--method',
        'tools/call',
        '--tool-name',
        tool,
        ...(args.length ? ['--tool-arg', ...args] : []),
        '--format',
        'json',
      );
      expect(run.code, `${tool}: ${run.stderr}`).toBe(0);
      const { result } = JSON.parse(run.stdout) as {
        result: { isError?: boolean; structuredContent: Record<string, any> };
      };
      expect(result.isError, tool).toBeFalsy();
      expect(result.structuredContent, tool).toBeTypeOf('object');
      if (tool === 'read_skill_file')
        expect(Buffer.from(result.structuredContent.blob, 'base64').equals(PNG)).toBe(true);
      if (tool === 'best_skill') expect(result.structuredContent.skill.name).toBe('trino-debug');
    }
  });

  test('skills/list --verify: every skill conforms to SEP-2640 and every digest checks out', async () => {
    const run = await inspect('--method', 'skills/list', '--verify', '--require-digests');
    // The per-skill reports (stdout) say which file failed and why: kept in the message.
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    const reports = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; ok: boolean; outcome: string; files: unknown[] });
    expect(reports.map((r) => [r.name, r.ok, r.outcome])).toEqual(
      Object.keys(FIXTURE)
        .sort()
        .map((n) => [n, true, 'verified']),
    );
    expect(reports.find((r) => r.name === 'pdf-processing')!.files).toHaveLength(
      Object.keys(FIXTURE['pdf-processing']!).length,
    );
  });

  test.runIf(full)('resources and prompts', async () => {
    const dir = await inspect(
      '--method',
      'resources/directory/read',
      '--uri',
      'skill://pdf-processing/scripts',
      '--format',
      'json',
    );
    const prompt = await inspect(
      '--method',
      'prompts/get',
      '--prompt-name',
      'skill_context',
      '--prompt-args',
      'name=trino-debug',
      '--format',
      'json',
    );
    expect(dir.code, dir.stderr).toBe(0);
    expect(dir.stdout).toContain('skill://pdf-processing/scripts/extract.py');
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('Trino query optimization expert');
  });
});
