/**
 * The Elasticsearch options are checked before anything is loaded or sent: a URL without its
 * scheme and an index prefix Elasticsearch would refuse are usage errors (exit 2) that say what to
 * type, in every command that takes them, and from ELASTICSEARCH_URL as from --es.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, NODE, ROOT } from '../mcp/helpers.ts';

const skillpress = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(NODE, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true', ...env } });

describe('Elasticsearch options', () => {
  it('a URL without http:// is a usage error suggesting it, from --es or ELASTICSEARCH_URL', () => {
    for (const args of [['ingest'], ['get', 'pdf'], ['validate-index'], ['search', 'pdf', '--es', '127.0.0.1:9260']]) {
      const given = args.includes('--es') ? args : [...args, '--es', '127.0.0.1:9260'];
      const r = skillpress(given);
      expect([args[0], r.status]).toEqual([args[0], 2]);
      expect(r.stderr).toContain('--es 127.0.0.1:9260: not an http(s) URL (did you mean http://127.0.0.1:9260?)');
    }
    const fromEnv = skillpress(['get', 'pdf'], { ELASTICSEARCH_URL: 'localhost:9200' });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain(
      'ELASTICSEARCH_URL localhost:9200: not an http(s) URL (did you mean http://localhost:9200?)',
    );
  });

  it('an index prefix Elasticsearch refuses is a usage error before the skills are loaded', () => {
    const cases: Array<[string, RegExp]> = [
      ['Proj_', /has capital letters/],
      ['_x', /starts with -, _ or \+/],
      ['team/', /holds a character index names cannot/],
    ];
    for (const [prefix, why] of cases) {
      const r = skillpress(['ingest', '--index-prefix', prefix, '--es', 'http://127.0.0.1:1']);
      expect(r.status, prefix).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain(`--index-prefix ${prefix}: `);
    }
    const build = skillpress(['build', '--no-site', '--out', '/nonexistent-never-written', '--index-prefix', 'Bad']);
    expect(build.status).toBe(2);
  });
});
