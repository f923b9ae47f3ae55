/** Skills registered by URL (seed 001): URL translation, trusted domains, health, cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { federate, rawSkillUrl } from '../../src/federate/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog } from '../../src/model/skill.ts';
import { Cache } from '../../src/feed-reader/cache.ts';
import { problemLines } from '../../src/cli/commands/validate.ts';
import { BAD_PORTS, serveDir, type TestServer } from './helpers/server.ts';
import { skillMd, tempDir } from './helpers/skills.ts';

describe('rawSkillUrl (seed 001 translation rules)', () => {
  it.each([
    [
      'https://github.com/org/repo/blob/main/skills/name/SKILL.md',
      'https://raw.githubusercontent.com/org/repo/main/skills/name/SKILL.md',
    ],
    [
      'https://gitlab.com/org/repo/-/blob/main/skills/name/SKILL.md',
      'https://gitlab.com/org/repo/-/raw/main/skills/name/SKILL.md',
    ],
    ['https://gitlab.com/group/sub/repo/-/blob/v1.2/SKILL.md', 'https://gitlab.com/group/sub/repo/-/raw/v1.2/SKILL.md'],
    [
      'https://bitbucket.org/org/repo/src/main/skills/name/SKILL.md',
      'https://bitbucket.org/org/repo/raw/main/skills/name/SKILL.md',
    ],
    [
      'https://raw.githubusercontent.com/org/repo/main/SKILL.md',
      'https://raw.githubusercontent.com/org/repo/main/SKILL.md',
    ],
    ['https://example.com/skills/x/SKILL.md', 'https://example.com/skills/x/SKILL.md'],
  ])('%s → %s', (input, raw) => {
    expect(rawSkillUrl(input)).toBe(raw);
  });
});

describe('skills registered by URL', () => {
  let tmp: string;
  let server: TestServer;
  const empty: Catalog = { skills: [], problems: [] };
  const now = new Date('2026-03-01T12:00:00Z');

  beforeAll(async () => {
    tmp = await tempDir('skill-url');
    const dir = path.join(tmp, 'www', 'org', 'repo', 'main', 'skills', 'url-skill');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), skillMd({ name: 'url-skill', tags: ['web'] }));
    server = await serveDir(path.join(tmp, 'www'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const config = (urls: string[], trusted = ['127.0.0.1']) =>
    SkillpressConfig.parse({
      registry: { name: 'home' },
      federation: { skill_urls: urls, trusted_domains: trusted, timeout_ms: 2_000 },
    });

  it('fetches a trusted SKILL.md, validates it and marks it healthy; an unchanged one costs one conditional request', async () => {
    const url = `${server.url}/org/repo/main/skills/url-skill/SKILL.md`;
    const cacheDir = path.join(tmp, 'cache-ok');
    const first = await federate(empty, config([url]), { cacheDir, now });
    const skill = first.skills[0]!;
    expect(skill.name).toBe('url-skill');
    expect(skill.registry).toBe('home');
    expect(skill.source).toEqual({ kind: 'url', skill_md_url: url, skill_md_raw_url: url });
    expect(skill.health).toMatchObject({ status: 'healthy', checked_at: now.toISOString() });
    expect(skill.registry_fields.tags).toEqual(['web']);
    expect(skill.updated_at).toBe('2026-01-01T00:00:00.000Z'); // the server's Last-Modified

    const before = server.requests.length;
    const second = await federate(empty, config([url]), { cacheDir, now });
    expect(server.requests.slice(before)).toEqual([
      { path: '/org/repo/main/skills/url-skill/SKILL.md', conditional: true, status: 304 },
    ]);
    expect(second.skills[0]!.health.status).toBe('healthy');
    expect(second.skills[0]!.digest).toBe(skill.digest);
  });

  it('does not fetch a host missing from trusted_domains', async () => {
    const url = `${server.url}/org/repo/main/skills/url-skill/SKILL.md`;
    const before = server.requests.length;
    const result = await federate(empty, config([url], ['raw.githubusercontent.com']), {
      cacheDir: path.join(tmp, 'cache-untrusted'),
      now,
    });
    expect(result.skills).toEqual([]);
    expect(server.requests.length).toBe(before);
    expect(result.problems[0]).toMatchObject({ severity: 'warning', rule: 'url-untrusted', skill: `url:${url}` });
    expect(result.problems[0]!.message).toContain('trusted_domains');
  });

  it('does not follow a redirect to an untrusted host', async () => {
    const port = new URL(server.url).port;
    server.override(
      '/redirect/SKILL.md',
      (_req, res) =>
        void res.writeHead(301, { location: `http://localhost:${port}/org/repo/main/skills/url-skill/SKILL.md` }).end(),
    );
    const result = await federate(empty, config([`${server.url}/redirect/SKILL.md`]), {
      cacheDir: path.join(tmp, 'cache-redirect'),
      now,
    });
    expect(result.skills).toEqual([]);
    expect(result.problems[0]!.rule).toBe('url-unreachable');
    expect(result.problems[0]!.message).toContain('refused');
  });

  it('an invalid SKILL.md is reported with the URL and left out', async () => {
    server.override('/bad/SKILL.md', (_req, res) => void res.end('---\nname: Bad Name\n---\nbody\n'));
    const url = `${server.url}/bad/SKILL.md`;
    const result = await federate(empty, config([url]), { cacheDir: path.join(tmp, 'cache-bad'), now });
    expect(result.skills).toEqual([]);
    expect(result.problems.map((p) => p.rule)).toContain('description-required');
    expect(result.problems.every((p) => p.message.startsWith(url) && p.severity === 'warning')).toBe(true);
  });

  it('an unreachable skill is kept from the cache, marked unhealthy, and the build goes on', async () => {
    const dir = path.join(tmp, 'www2', 'skills', 'flaky-skill');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), skillMd({ name: 'flaky-skill' }));
    const flaky = await serveDir(path.join(tmp, 'www2'));
    const url = `${flaky.url}/skills/flaky-skill/SKILL.md`;
    const cacheDir = path.join(tmp, 'cache-flaky');
    await federate(empty, config([url]), { cacheDir, now });
    await flaky.close();

    const later = new Date('2026-03-02T12:00:00Z');
    const neverSeen = `${flaky.url}/skills/other/SKILL.md`;
    const result = await federate(empty, config([url, neverSeen]), { cacheDir, now: later });
    expect(result.skills.map((s) => s.name)).toEqual(['flaky-skill']);
    expect(result.skills[0]!.health).toMatchObject({ status: 'unhealthy', checked_at: later.toISOString() });
    expect(result.problems.map((p) => p.rule).sort()).toEqual(['url-unhealthy', 'url-unreachable']);
  });

  it('a warning names the URL as given, as the build prints it (not url:http:/…/SKILL.md/SKILL.md)', async () => {
    server.override('/feed/v1/files/brainstorming/SKILL.md', () => {}); // hangs
    const url = `${server.url}/feed/v1/files/brainstorming/SKILL.md`;
    const result = await federate(
      empty,
      SkillpressConfig.parse({
        registry: { name: 'home' },
        federation: { skill_urls: [url], trusted_domains: ['127.0.0.1'], timeout_ms: 300 },
      }),
      { cacheDir: path.join(tmp, 'cache-hangs'), now },
    );
    expect(problemLines(result.problems, 'skills')).toEqual([
      `url:${url}: warning [url-unreachable] ${url}: no complete answer within 300 ms; never fetched before, so the skill is left out`,
    ]);
  });

  it("a URL on a port Node's fetch refuses: said so, and no cached copy stands in for it", async () => {
    const blocked = await serveDir(path.join(tmp, 'www'), BAD_PORTS); // listening, never reached
    try {
      const skillPath = '/org/repo/main/skills/url-skill/SKILL.md';
      const cacheDir = path.join(tmp, 'cache-bad-port');
      await federate(empty, config([`${server.url}${skillPath}`]), { cacheDir, now });
      // The copy fetched from the reachable server, kept as if fetched from the blocked port once.
      const cache = new Cache(cacheDir);
      const { entry } = (await cache.lastAnswer(`${server.url}${skillPath}`))!;
      const { tag: _, ...fields } = entry;
      await cache.putEntry({ ...fields, url: `${blocked.url}${skillPath}` });

      const url = `${blocked.url}${skillPath}`;
      const result = await federate(empty, config([url]), { cacheDir, now });
      expect(result.skills).toEqual([]);
      expect(result.problems).toEqual([
        {
          severity: 'warning',
          skill: `url:${url}`,
          file: 'SKILL.md',
          rule: 'url-bad-port',
          message: `${url}: Node's fetch refuses port ${new URL(url).port} (a port browsers and Node block); serve it on another port; the skill is left out`,
        },
      ]);
      expect(blocked.requests).toEqual([]);
    } finally {
      await blocked.close();
    }
  });
});
