/**
 * `skillpress build` as a user runs it: the real binary in a child process, on the feed fixture
 * (every kind of file, private and group skills). Exit codes, the summary, atomic replacement
 * of the output folder, change tracking against the folder or a --previous URL, and the site
 * built beside the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildJson } from '../../src/cli/commands/build.ts';
import { Changes, FeedIndex } from '../../src/model/feed.ts';
import { unwritableFolder, UNWRITABLE_SKIP } from '../helpers/unwritable-folder.ts';
import { makeFixture, skillMd, write, type Fixture } from '../feed/fixture.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const node = path.join(repo, 'node_modules/.bin/node');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `timeout`: killed after so many ms (a build that could hang must not outlive its test). */
function skillpress(cwd: string, args: string[], env: Record<string, string> = {}, timeout?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [path.join(repo, 'scripts/skillpress.mjs'), ...args], {
      cwd,
      env: { ...process.env, CI: 'true', SOURCE_DATE_EPOCH: '1700000000', ...env },
      ...(timeout ? { timeout, killSignal: 'SIGKILL' as const } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let fx: Fixture;
const build = (out: string, ...more: string[]): Promise<Run> =>
  skillpress(fx.dir, [
    'build',
    '--skills',
    fx.skills,
    '--out',
    out,
    '--config',
    fx.config,
    '--no-site',
    '--json',
    ...more,
  ]);
const result = (r: Run): BuildJson => JSON.parse(r.stdout) as BuildJson;
const changes = (out: string) =>
  Changes.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/changes.json'), 'utf8')));

beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => {
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('skillpress build', () => {
  it('writes the feed and discovery index and reports withheld and skipped files', async () => {
    const out = path.join(fx.dir, 'dist');
    const r = await build(out);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r)).toMatchObject({
      ok: true,
      skills: 2,
      files: 11,
      skipped_files: 1,
      withheld: 2,
      imported: 0,
      invalid: 0,
    });
    expect(existsSync(path.join(out, 'feed/v1/index.json'))).toBe(true);
    expect(existsSync(path.join(out, '.well-known/agent-skills/index.json'))).toBe(true);
    // The staging folder is gone: only what the test made is left beside the output.
    expect(readdirSync(fx.dir).filter((n) => n.includes('staging'))).toEqual([]);
  });

  it('prints problems and a summary for people', async () => {
    const r = await skillpress(fx.dir, [
      'build',
      '--skills',
      fx.skills,
      '--out',
      path.join(fx.dir, 'dist-text'),
      '--config',
      fx.config,
      '--no-site',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // A path the terminal or editor can open from where the command ran: the skills folder's own path first.
    expect(r.stdout).toContain(`${fx.skills}/kitchen-sink/big.bin: warning [file-too-large]`);
    expect(r.stdout).toMatch(/built 2 skill\(s\), 11 file\(s\) \(1 listed but not stored\)/);
    expect(r.stdout).toMatch(/withheld \(private\/group\): 2/);
  });

  it('takes the skills folder as its argument, as validate does', async () => {
    const r = await skillpress(fx.dir, [
      'build',
      fx.skills,
      '--out',
      path.join(fx.dir, 'dist-positional'),
      '--config',
      fx.config,
      '--no-site',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r)).toMatchObject({ ok: true, skills: 2, skills_root: fx.skills });
  });

  it('counts a skill committed in two folders apart from duplicates under other names', async () => {
    cpSync(path.join(fx.skills, 'kitchen-sink'), path.join(fx.skills, 'vendored', 'kitchen-sink'), { recursive: true });
    try {
      const r = await skillpress(fx.dir, [
        'build',
        '--skills',
        fx.skills,
        '--out',
        path.join(fx.dir, 'dist-repeated'),
        '--config',
        fx.config,
        '--no-site',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('warning [duplicate-copy]');
      expect(r.stdout).toMatch(/built 2 skill\(s\)/);
      expect(r.stdout).toMatch(
        /committed in several folders: 1 \(each published once\); similar pairs under other names: 0 \(both published\);/,
      );
      expect(r.stdout).toMatch(/^ {2}by rule: warnings: .*\bduplicate-copy 1\b/m);
      // --quiet lists no warning, and its summary still counts them.
      const quiet = await skillpress(fx.dir, [
        'build',
        ...['--skills', fx.skills, '--out', path.join(fx.dir, 'dist-repeated'), '--config', fx.config],
        ...['--no-site', '--quiet'],
      ]);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stdout).not.toContain('warning [');
      expect(quiet.stdout).toMatch(/^ {2}by rule: warnings: .*\bduplicate-copy 1\b/m);
      const json = result(await build(path.join(fx.dir, 'dist-repeated-json')));
      expect(json).toMatchObject({ skills: 2, repeated: 1, duplicates: 0 });
    } finally {
      rmSync(path.join(fx.skills, 'vendored'), { recursive: true });
    }
  });

  it('exits 1 when a skill is rejected, and still publishes the valid ones', async () => {
    write(fx.skills, 'broken-skill/SKILL.md', '---\nname: broken-skill\n---\nNo description.\n');
    try {
      const out = path.join(fx.dir, 'dist-broken');
      const r = await build(out);
      expect(r.code).toBe(1);
      const res = result(r);
      expect(res).toMatchObject({ ok: false, skills: 2, invalid: 1 });
      expect(res.problems.some((p) => p.skill === 'broken-skill' && p.severity === 'error')).toBe(true);
      expect(
        FeedIndex.parse(JSON.parse(readFileSync(path.join(out, 'feed/v1/index.json'), 'utf8'))).counts.skills,
      ).toBe(2);
    } finally {
      rmSync(path.join(fx.skills, 'broken-skill'), { recursive: true });
    }
  });

  it('counts skills left out by a name clash apart from invalid ones, and says how skills.precedence settles it', async () => {
    write(fx.skills, 'broken-skill/SKILL.md', '---\nname: broken-skill\n---\nNo description.\n');
    write(fx.skills, 'vendor-a/pdf/SKILL.md', skillMd('pdf', 'Use for PDFs.'));
    write(fx.skills, 'vendor-b/pdf/SKILL.md', skillMd('pdf', 'Use for PDF files.'));
    const args = ['build', '--skills', fx.skills, '--config', fx.config, '--no-site'];
    try {
      const r = await skillpress(fx.dir, [...args, '--out', path.join(fx.dir, 'dist-clash')]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/built 3 skill\(s\), .* s; 2 left out \(errors above\): exit 1\n/);
      expect(r.stdout).toContain('invalid skills: 1; left out by name clashes: 1\n');
      expect(r.stdout).toMatch(
        /\n1 skill\(s\) left out: their names clash with another folder's \(name-unique\); choose which folder wins with skills\.precedence in skillpress\.json, e\.g\. "skills": \{ "precedence": \["vendor-a", "vendor-b"\] \}\n$/,
      );
      // --json keeps `invalid` (every skill left out for an error) and adds `name_clashes`.
      const json = result(await skillpress(fx.dir, [...args, '--out', path.join(fx.dir, 'dist-clash'), '--json']));
      expect(json).toMatchObject({ ok: false, skills: 3, invalid: 2, name_clashes: 1 });
    } finally {
      for (const f of ['broken-skill', 'vendor-a', 'vendor-b']) rmSync(path.join(fx.skills, f), { recursive: true });
    }
  });

  it('reports a skill published twice under two names as a duplicate', async () => {
    const copy = readFileSync(path.join(fx.skills, 'kitchen-sink', 'SKILL.md'), 'utf8').replace(
      'name: kitchen-sink',
      'name: kitchen-copy',
    );
    write(fx.skills, 'kitchen-copy/SKILL.md', copy);
    try {
      const r = await build(path.join(fx.dir, 'dist-dup'));
      expect(r.code, r.stderr).toBe(0);
      const res = result(r);
      expect(res.duplicates).toBe(1);
      const dup = res.problems.find((p) => p.rule.startsWith('duplicate'))!;
      expect(dup.severity).toBe('warning');
      expect(dup.message).toContain('"kitchen-copy"');
      expect(dup.message).toContain('"kitchen-sink"');
    } finally {
      rmSync(path.join(fx.skills, 'kitchen-copy'), { recursive: true });
    }
  });

  it('replaces the previous build and lists what changed since it', async () => {
    const out = path.join(fx.dir, 'dist-rebuild');
    expect((await build(out)).code).toBe(0);
    await writeFile(path.join(out, 'stale-file.txt'), 'from an older build');
    write(fx.skills, 'added-later/SKILL.md', skillMd('added-later', 'Added after the first build.'));
    try {
      const r = await build(out);
      expect(r.code, r.stderr).toBe(0);
      expect(result(r).changes).toEqual({ added: 1, updated: 0, removed: 0 });
      const c = changes(out);
      expect(c.previous_generated_at).toBeDefined();
      expect(c.changes.map((x) => [x.id, x.change])).toEqual([['added-later', 'added']]);
      expect(existsSync(path.join(out, 'stale-file.txt'))).toBe(false);
    } finally {
      rmSync(path.join(fx.skills, 'added-later'), { recursive: true });
    }
  });

  it('reads the previous build from a URL with --previous', async () => {
    const served = path.join(fx.dir, 'dist-served');
    write(fx.skills, 'only-in-served/SKILL.md', skillMd('only-in-served', 'Present in the served build only.'));
    expect((await build(served)).code).toBe(0);
    rmSync(path.join(fx.skills, 'only-in-served'), { recursive: true });

    const server: Server = createServer((req, res) => {
      const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      readFile(path.join(served, ...rel.split('/').filter((s) => s && s !== '..'))).then(
        (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const out = path.join(fx.dir, 'dist-from-url');
      const r = await build(out, '--previous', `http://127.0.0.1:${port}/`);
      expect(r.code, r.stderr).toBe(0);
      expect(changes(out).changes.map((x) => [x.id, x.change])).toEqual([['only-in-served', 'removed']]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses to replace a folder that holds something other than a build', async () => {
    const out = path.join(fx.dir, 'not-a-build');
    await mkdir(out);
    await writeFile(path.join(out, 'precious.txt'), 'keep me');
    const r = await build(out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not empty and holds no previous skillpress build/);
    expect(readFileSync(path.join(out, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('leaves a published build alone when the skills folder is mistyped (exit 2) or holds no skill (exit 1)', async () => {
    const out = path.join(fx.dir, 'published');
    expect(existsSync(path.join((await build(out), out), 'feed/v1/cards.json'))).toBe(true);
    const before = readFileSync(path.join(out, 'feed/v1/cards.json'), 'utf8');
    // Named as typed, whether given as --skills or as the command's argument.
    for (const given of [['--skills', path.join(fx.dir, 'skils')], [path.join(fx.dir, 'skils')]]) {
      const typo = await skillpress(fx.dir, ['build', ...given, '--out', out, '--config', fx.config, '--no-site']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toMatch(
        /^skillpress build: \S*skils: skills folder "\S*skils" does not exist or is not a folder; nothing was written/m,
      );
    }
    // The same typo in skillpress.json names the config's key, not an option the user never gave.
    const typoConfig = path.join(fx.dir, 'typo-config');
    await mkdir(typoConfig);
    await writeFile(path.join(typoConfig, 'skillpress.json'), JSON.stringify({ skills: { root: 'skils' } }));
    const fromConfig = await skillpress(typoConfig, ['build', '--out', out, '--no-site']);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toMatch(
      /^skillpress build: skills\.root skils \(skillpress\.json\): .*nothing was written/m,
    );
    expect(fromConfig.stderr).not.toContain('--skills skils');
    // A repository keeping its skills elsewhere (trailofbits/skills: plugins/<plugin>/skills/<name>/) is told where.
    const plugins = path.join(fx.dir, 'plugin-repo');
    await mkdir(plugins);
    // Its own config, of defaults: the fixture's, above it, would be found otherwise.
    await writeFile(path.join(plugins, 'skillpress.json'), '{}\n');
    for (const [plugin, name] of [
      ['audit', 'audit-one'],
      ['fuzz', 'fuzz-one'],
    ]) {
      await mkdir(path.join(plugins, 'plugins', plugin!, 'skills', name!), { recursive: true });
      await writeFile(
        path.join(plugins, 'plugins', plugin!, 'skills', name!, 'SKILL.md'),
        `---\nname: ${name}\ndescription: One of a plugin's skills.\n---\nBody.\n`,
      );
    }
    const elsewhere = await skillpress(plugins, ['build', '--out', out, '--no-site']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(
      'nothing was written (SKILL.md files are in "plugins": skillpress build plugins, or set skills.root to "plugins" in skillpress.json)',
    );
    await mkdir(path.join(fx.dir, 'empty'));
    const empty = await skillpress(fx.dir, [
      'build',
      '--skills',
      path.join(fx.dir, 'empty'),
      '--out',
      out,
      '--config',
      fx.config,
      '--no-site',
    ]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no skill to publish from .*empty.*left as it is/);
    expect(readFileSync(path.join(out, 'feed/v1/cards.json'), 'utf8')).toBe(before);
  });

  it('with --strict, does not ingest into Elasticsearch while a skill is invalid, and reports an unreachable one in its JSON', async () => {
    // One invalid skill and --strict: nothing is written to Elasticsearch (the address is never contacted).
    // Without --strict the valid skills are ingested (test/es/published.es.test.ts).
    const mixed = path.join(fx.dir, 'mixed-skills');
    write(mixed, 'ok-skill/SKILL.md', skillMd('ok-skill', 'A valid skill.'));
    write(mixed, 'broken-skill/SKILL.md', '---\nname: broken-skill\n---\nNo description.\n');
    const skipped = await skillpress(
      fx.dir,
      [
        'build',
        '--skills',
        mixed,
        '--out',
        path.join(fx.dir, 'es-skipped'),
        '--config',
        fx.config,
        '--no-site',
        '--strict',
        '--json',
      ],
      { ELASTICSEARCH_URL: 'http://127.0.0.1:9' },
    );
    expect(skipped.code).toBe(1);
    expect(result(skipped)).toMatchObject({
      skills: 1,
      elasticsearch: { skipped: expect.stringMatching(/1 invalid skill\(s\) and --strict/) },
    });
    // A valid catalog and an address where nothing answers: the error is in the JSON summary.
    const valid = path.join(fx.dir, 'valid-skills');
    write(valid, 'ok-skill/SKILL.md', skillMd('ok-skill', 'A valid skill.'));
    const unreachable = await skillpress(
      fx.dir,
      ['build', '--skills', valid, '--out', path.join(fx.dir, 'es-out'), '--config', fx.config, '--no-site', '--json'],
      { ELASTICSEARCH_URL: 'http://127.0.0.1:9' },
    );
    expect(unreachable.code).toBe(1);
    expect(result(unreachable)).toMatchObject({ ok: false, skills: 1, elasticsearch: { error: expect.any(String) } });
  });

  it('builds the site with the feed beside it', async () => {
    const out = path.join(fx.dir, 'dist-site');
    const r = await skillpress(fx.dir, ['build', '--skills', fx.skills, '--out', out, '--config', fx.config, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(out, 'index.html'))).toBe(true);
    expect(existsSync(path.join(out, 'feed/v1/search.json'))).toBe(true);
    expect(existsSync(path.join(out, '.well-known/agent-skills/kitchen-sink.tar.gz'))).toBe(true);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('kitchen-sink');
  }, 180_000);

  it.skipIf(UNWRITABLE_SKIP)(
    'builds the feed and the site from a working folder where .cache cannot be made: its work goes to a temporary folder, said and removed',
    async () => {
      const cwd = await unwritableFolder(fx.dir);
      // The temporary folder is made in TMPDIR: one of the test's own, to see it removed.
      const temp = path.join(fx.dir, 'tmp-read-only-cwd');
      await mkdir(temp);
      const out = path.join(fx.dir, 'dist-read-only-cwd');
      const args = ['build', '--skills', fx.skills, '--out', out, '--config', fx.config, '--json'];
      const r = await skillpress(cwd, args, { TMPDIR: temp }, 150_000);
      expect(r.code, r.stderr).toBe(0);
      expect(result(r)).toMatchObject({ ok: true, skills: 2 });
      // Astro's prerender bundle, which it writes in the working directory when it can.
      expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('kitchen-sink');
      const said = r.stderr.split('\n').filter((line) => line.startsWith('cache: '));
      expect(said).toEqual([
        expect.stringMatching(/^cache: .*\.cache cannot be made or written \(E[A-Z]+\); not used/),
      ]);
      expect(readdirSync(temp).filter((name) => name.startsWith('skillpress-cache-'))).toEqual([]);
    },
    180_000,
  );
});
