/**
 * `skillpress search` as a user runs it: the real binary on a built feed. It lists what
 * `skills_search` answers for the request (same order, same scores), `--best` what `best_skill`'s
 * rule answers and why, and bad arguments get exit 2 with the rule broken.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedCatalog } from '../../src/mcp/catalog.ts';
import { openFeedStore } from '../../src/feed-reader/open.ts';
import { searchSkills } from '../../src/mcp/tools/index.ts';
import { CLI, fixtureFeed, NODE, ROOT, type FixtureFeed } from '../mcp/helpers.ts';

function skillpress(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(NODE, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let fixture: FixtureFeed;
beforeAll(async () => {
  fixture = await fixtureFeed();
}, 60_000);
afterAll(() => fixture?.remove());

describe('skillpress search', () => {
  it('lists the skills skills_search answers, in its order, as a table or its JSON', async () => {
    const request = 'my trino sql query is slow, explain the plan';
    const json = skillpress('search', ...request.split(' '), '--feed', fixture.dist, '--json');
    expect(json.code, json.stderr).toBe(0);
    const catalog = await FeedCatalog.load(await openFeedStore(fixture.dist));
    expect(JSON.parse(json.stdout)).toEqual(await searchSkills(catalog, request, 10));
    const table = skillpress('search', request, '--feed', fixture.feed, '--limit', '1');
    expect(table.stdout).toMatch(
      /^\d+ skill\(s\) match "my trino sql query is slow, explain the plan" .*the first 1:\n/,
    );
    expect(table.stdout.split('\n')[2]).toMatch(/^1 +trino-debug +[\d.]+ +\d+% +Debug and optimize slow Trino SQL/);
  });

  it("--best answers as best_skill's rule: the skill and why, or none, with the candidates", () => {
    const fits = skillpress(
      'search',
      'check this expense report against the meal allowance policy',
      '--best',
      '--feed',
      fixture.dist,
    );
    expect(fits.code, fits.stderr).toBe(0);
    expect(fits.stdout).toMatch(/^Best skill: expense-policy \(confidence 0\.\d+\)\.\n"expense-policy" matches/);
    expect(fits.stdout).toMatch(/\n1 +expense-policy /);
    const none = skillpress(
      'search',
      'book a table for two at an italian restaurant tonight',
      '--best',
      '--json',
      '--feed',
      fixture.dist,
    );
    expect(JSON.parse(none.stdout)).toMatchObject({ skill: null, reason: expect.any(String) });
  });

  it("an aggregator's own feed (federation.reexport off): says where the imported skills are, and prints no empty table", async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'sp-search-view-'));
    try {
      await cp(fixture.feed, path.join(dist, 'feed', 'v1'), { recursive: true });
      await cp(fixture.feed, path.join(dist, 'catalog', 'v1'), { recursive: true });
      const r = skillpress('search', 'zqxjv', '--feed', dist);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('No skill matches "zqxjv".\n');
      const view = path.join(dist, 'catalog', 'v1');
      expect(r.stderr).toContain(
        `skillpress search: ${view} also holds the skills imported from peers (the site's catalog; federation.reexport is off): search it with --feed ${view}`,
      );
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('bad arguments, or no feed where --feed points: exit 2 naming the rule or where it looked', () => {
    expect(skillpress('search', '--feed', fixture.dist)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/missing <request>/),
    });
    expect(skillpress('search', 'pdf', '--limit', '0', '--feed', fixture.dist)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--limit must be an integer from 1 to 100 \(got "0"\)/),
    });
    expect(skillpress('search', 'pdf', '--es', 'http://127.0.0.1:9', '--best')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--es searches Elasticsearch: leave out --feed and --best/),
    });
    const missing = skillpress('search', 'pdf', '--feed', `${fixture.dir}/nothing-here`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--feed .*nothing-here: no feed at .*nothing-here.*run `skillpress build` first/);
    // A folder without a feed is the same mistake; the default, dist, is named as such.
    const noFeed = spawnSync(NODE, [CLI, 'search', 'pdf'], { cwd: fixture.skills, encoding: 'utf8' });
    expect(noFeed.status).toBe(2);
    expect(noFeed.stderr).toMatch(/^skillpress search: --feed dist \(the default\): no feed at dist: /);
  });

  it('mcp pointed at a folder without a feed stops the same way (exit 2), before serving anything', () => {
    const mcp = spawnSync(NODE, [CLI, 'mcp', '--feed', `${fixture.dir}/nothing-here`], {
      encoding: 'utf8',
      input: '',
    });
    expect(mcp.status).toBe(2);
    expect(mcp.stdout).toBe('');
    expect(mcp.stderr).toMatch(/^skillpress mcp: --feed .*nothing-here: no feed at .*run `skillpress build` first/);
  });

  it('mcp --skills naming no folder is a usage error (exit 2), said once, before building or serving', () => {
    const mcp = spawnSync(NODE, [CLI, 'mcp', '--skills', `${fixture.dir}/no-skills-here`], {
      encoding: 'utf8',
      input: '',
    });
    expect(mcp.status).toBe(2);
    expect(mcp.stdout).toBe('');
    expect(mcp.stderr).toMatch(
      /^skillpress mcp: --skills .*no-skills-here: not a folder; give the folder that holds your skills\nusage: /,
    );
  });
});
