/**
 * Federation against a real HTTP server on 127.0.0.1: a peer publishes a feed, a second
 * registry imports from it in each mode, and an unchanged peer costs one conditional request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { federate } from '../../src/federate/index.ts';
import { fileBytes } from '../../src/load/index.ts';
import { SkillpressConfig } from '../../src/model/config.ts';
import type { Catalog } from '../../src/model/skill.ts';
import { publish } from './helpers/feed.ts';
import { serveDir, type TestServer } from './helpers/server.ts';
import { loadSkills, tempDir, writeSkills } from './helpers/skills.ts';

const BINARY = Uint8Array.from([0, 1, 2, 255, 254, 0, 10]);

let tmp: string;
let server: TestServer;
let local: Catalog;

beforeAll(async () => {
  tmp = await tempDir('federate');
  await writeSkills(path.join(tmp, 'peer-skills'), [
    {
      name: 'pdf-tools',
      tags: ['pdf', 'documents'],
      files: {
        'scripts/extract.py': 'print("hi")\n',
        'assets/logo.bin': BINARY,
        'references/deep/日本語 ファイル.md': '# ref\n',
      },
    },
    { name: 'csv-clean', tags: ['data'], files: { 'empty.txt': '' } },
    { name: 'shared-name', tags: ['data'] },
    { name: 'hidden', visibility: 'private' },
  ]);
  await chmod(path.join(tmp, 'peer-skills', 'pdf-tools', 'scripts', 'extract.py'), 0o755);
  await publish(path.join(tmp, 'peer-skills'), path.join(tmp, 'peer-dist'), 'acme');
  server = await serveDir(path.join(tmp, 'peer-dist'));
  await writeSkills(path.join(tmp, 'local-skills'), [
    { name: 'local-one' },
    { name: 'shared-name', description: 'The local one wins.' },
  ]);
  local = await loadSkills(path.join(tmp, 'local-skills'), 'home');
});

afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

function config(peer: Record<string, unknown>) {
  return SkillpressConfig.parse({
    registry: { name: 'home' },
    federation: { peers: [{ name: 'acme', url: server.url, ...peer }] },
  });
}

const names = (c: Catalog) => c.skills.map((s) => `${s.registry}/${s.name}`).sort();

describe('federate', () => {
  it('mode all: imports every public skill with the peer as registry, byte-exact', async () => {
    const result = await federate(local, config({ mode: 'all' }), { cacheDir: path.join(tmp, 'cache-all') });
    expect(names(result)).toEqual(['acme/csv-clean', 'acme/pdf-tools', 'home/local-one', 'home/shared-name']);

    const pdf = result.skills.find((s) => s.name === 'pdf-tools')!;
    // The peer signs nothing: imported, and marked unverified.
    expect(pdf.source).toEqual({
      kind: 'peer',
      peer: 'acme',
      feed_url: `${server.url}/feed/v1/index.json`,
      origin_verified: false,
    });
    expect(pdf.registry_fields.tags).toEqual(['pdf', 'documents']);
    for (const file of pdf.files) {
      const original = await readFile(path.join(tmp, 'peer-skills', 'pdf-tools', file.path));
      expect(fileBytes(file).equals(original), file.path).toBe(true);
    }
    expect(pdf.files.find((f) => f.path === 'assets/logo.bin')!.encoding).toBe('base64');
    expect(pdf.files.filter((f) => f.executable).map((f) => f.path)).toEqual(['scripts/extract.py']); // re-exported as published
    expect(result.skills.find((s) => s.name === 'csv-clean')!.files.find((f) => f.path === 'empty.txt')!.size).toBe(0);
  });

  it('a name clash keeps the local skill and reports the peer', async () => {
    const result = await federate(local, config({ mode: 'all' }), { cacheDir: path.join(tmp, 'cache-clash') });
    const kept = result.skills.filter((s) => s.name === 'shared-name');
    expect(kept).toHaveLength(1);
    expect(kept[0]!.registry).toBe('home');
    expect(kept[0]!.description).toBe('The local one wins.');
    const clash = result.problems.find((p) => p.rule === 'federation-name-clash')!;
    expect(clash.severity).toBe('warning');
    expect(clash.skill).toBe('peer:acme');
    expect(clash.message).toContain('peer "acme"');
    expect(clash.message).toContain('"shared-name" is already a local skill');
  });

  it('mode allowlist: imports only the listed skills and reports listed names the peer lacks', async () => {
    const result = await federate(local, config({ mode: 'allowlist', skills: ['csv-clean', 'not-there'] }), {
      cacheDir: path.join(tmp, 'cache-allow'),
    });
    expect(names(result)).toEqual(['acme/csv-clean', 'home/local-one', 'home/shared-name']);
    expect(result.problems.find((p) => p.rule === 'peer-skill-missing')?.message).toContain('not-there');
  });

  it('mode allowlist: a listed name the peer lacks is answered with the nearest names it has', async () => {
    const result = await federate(local, config({ mode: 'allowlist', skills: ['csv-clen'] }), {
      cacheDir: path.join(tmp, 'cache-allow-typo'),
    });
    expect(result.problems.find((p) => p.rule === 'peer-skill-missing')?.message).toBe(
      'peer "acme", skills/csv-clen: listed in the allowlist but not in the peer feed (did you mean "csv-clean"?)',
    );
  });

  it('mode tags: imports skills with any of the tags', async () => {
    const result = await federate(local, config({ mode: 'tags', tags: ['PDF'] }), {
      cacheDir: path.join(tmp, 'cache-tags'),
    });
    expect(names(result)).toEqual(['acme/pdf-tools', 'home/local-one', 'home/shared-name']);
    expect(result.problems.filter((p) => p.skill === 'peer:acme')).toEqual([]);
  });

  it("mode tags matching none of the peer's skills: a warning that lists the tags it does use", async () => {
    const result = await federate(local, config({ mode: 'tags', tags: ['pdfs', 'Spreadsheet'] }), {
      cacheDir: path.join(tmp, 'cache-tags-none'),
    });
    expect(names(result)).toEqual(['home/local-one', 'home/shared-name']);
    const warning = result.problems.find((p) => p.rule === 'peer-no-tagged-skill');
    expect(warning).toMatchObject({ severity: 'warning', skill: 'peer:acme', file: 'cards.json' });
    expect(warning?.message).toMatch(/none of its \d+ skill\(s\) has a tag of tags \[pdfs, Spreadsheet\]/);
    expect(warning?.message).toMatch(/its most used tags: .*pdf \(1\)/);
  });

  it('never imports a private skill', async () => {
    const result = await federate(local, config({ mode: 'all' }), { cacheDir: path.join(tmp, 'cache-private') });
    expect(result.skills.some((s) => s.name === 'hidden')).toBe(false);
  });

  it('an unchanged peer costs exactly one conditional request on the next build', async () => {
    const cacheDir = path.join(tmp, 'cache-again');
    const first = await federate(local, config({ mode: 'all' }), { cacheDir });
    const before = server.requests.length;
    const logs: string[] = [];
    const second = await federate(local, config({ mode: 'all' }), { cacheDir, log: (l) => logs.push(l) });
    const sent = server.requests.slice(before);
    expect(sent).toEqual([{ path: '/feed/v1/index.json', conditional: true, status: 304 }]);
    expect(second.skills).toEqual(first.skills);
    expect(logs.join('\n')).toContain('1 request(s), index not modified');
  });

  it('a changed peer costs the index plus only the items whose digest changed', async () => {
    const skills = path.join(tmp, 'changing-skills');
    const dist = path.join(tmp, 'changing-dist');
    await writeSkills(skills, [
      { name: 'stays-same', files: { 'a.txt': 'a\n' } },
      { name: 'gets-edited', files: { 'b.txt': 'b\n', 'c.txt': 'c\n' } },
    ]);
    await publish(skills, dist, 'acme');
    const changing = await serveDir(dist);
    try {
      const cfg = SkillpressConfig.parse({ federation: { peers: [{ name: 'acme', url: changing.url }] } });
      const cacheDir = path.join(tmp, 'cache-changing');
      await federate(local, cfg, { cacheDir });
      await writeSkills(skills, [{ name: 'gets-edited', files: { 'b.txt': 'b, edited\n', 'c.txt': 'c\n' } }]);
      await rm(dist, { recursive: true });
      await publish(skills, dist, 'acme');
      const before = changing.requests.length;
      const result = await federate(local, cfg, { cacheDir });
      expect(
        changing.requests
          .slice(before)
          .map((r) => r.path)
          .sort(),
      ).toEqual(['/feed/v1/files/gets-edited/b.txt', '/feed/v1/index.json', '/feed/v1/skills/gets-edited.json']);
      const edited = result.skills.find((s) => s.name === 'gets-edited')!;
      expect(fileBytes(edited.files.find((f) => f.path === 'b.txt')!).toString()).toBe('b, edited\n');
    } finally {
      await changing.close();
    }
  });

  it('follows a redirect on the same host', async () => {
    server.override(
      '/moved/feed/v1/index.json',
      (_req, res) => void res.writeHead(301, { location: '/feed/v1/index.json' }).end(),
    );
    const result = await federate(
      local,
      config({ url: `${server.url}/moved`, mode: 'allowlist', skills: ['csv-clean'] }),
      { cacheDir: path.join(tmp, 'cache-moved') },
    );
    expect(names(result)).toContain('acme/csv-clean');
    expect(result.problems.filter((p) => p.skill === 'peer:acme')).toEqual([]);
  });

  it('accepts the feed index URL itself as well as the site root', async () => {
    const result = await federate(
      local,
      config({ url: `${server.url}/feed/v1/index.json`, mode: 'allowlist', skills: ['pdf-tools'] }),
      {
        cacheDir: path.join(tmp, 'cache-url'),
      },
    );
    expect(names(result)).toContain('acme/pdf-tools');
  });

  it("accepts the site's feed page (…/feed/) and the feed folder, as mcp --feed does", async () => {
    for (const url of [`${server.url}/feed/`, `${server.url}/feed/v1/`]) {
      const cacheDir = path.join(tmp, `cache-${url.length}`);
      const result = await federate(local, config({ url, mode: 'allowlist', skills: ['pdf-tools'] }), { cacheDir });
      expect(names(result), url).toContain('acme/pdf-tools');
      expect(result.problems, url).toEqual([]);
    }
  });

  it('a URL with no feed below it: one warning naming every place tried', async () => {
    const url = `${server.url}/nothing/here/`;
    const result = await federate(local, config({ url, mode: 'all' }), { cacheDir: path.join(tmp, 'cache-none') });
    expect(result.problems.map((p) => p.rule)).toEqual(['peer-http-status']);
    const message = result.problems[0]!.message;
    expect(message).toContain(`${url}feed/v1/index.json`);
    expect(message).toContain(`${url}index.json`);
  });

  it('a peer that cannot be reached: the warning names the URL configured, not only the index URL tried below it', async () => {
    const gone = await serveDir(path.join(tmp, 'peer-dist'));
    await gone.close();
    const url = `${gone.url}/feed/`;
    const result = await federate(local, config({ url, mode: 'all' }), { cacheDir: path.join(tmp, 'cache-gone') });
    expect(result.problems.map((p) => [p.rule, p.message])).toEqual([
      ['peer-network', `peer "acme", index.json: ${url} could not be reached (${url}feed/v1/index.json: ECONNREFUSED)`],
    ]);
  });
});
