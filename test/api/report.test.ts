/**
 * The public surface is chosen on purpose: etc/skillpress.api.md lists every name each entry point
 * of package.json exports, with its signature. A change to the surface (a new export, a renamed
 * option, a changed return type) fails here until the report is regenerated (`npm run api`), so it
 * shows as a diff of the report in review. Every function and class of `skillpress` has an
 * `@example`, and every example type-checks against the sources.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiReport, checkExamples, entryPoints, REPORT, withoutExample } from '../../scripts/api-report.ts';

describe('the API report', () => {
  it('covers every entry point of the exports map', () => {
    expect(entryPoints().map((e) => e.name)).toEqual([
      'skillpress',
      'skillpress/search',
      'skillpress/model',
      'skillpress/mcp',
      'skillpress/elasticsearch',
      'skillpress/internal',
    ]);
  });

  it('matches the public surface of the sources (run `npm run api` and review the diff when it does not)', () => {
    const committed = readFileSync(REPORT, 'utf8');
    // Compared as lines, so a failure shows which names changed.
    expect(apiReport().split('\n')).toEqual(committed.split('\n'));
  }, 120_000);

  it('lists no wildcard re-export: the main entry names each export', () => {
    const index = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');
    expect(index).not.toMatch(/export \*/);
  });

  it('has an example on every function and class of the main entry point', () => {
    expect(withoutExample()).toEqual([]);
  }, 120_000);

  it('has examples that type-check: the names and options they use are the real ones', () => {
    expect(checkExamples()).toEqual([]);
  }, 120_000);
});
