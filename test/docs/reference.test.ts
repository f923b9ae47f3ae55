/**
 * docs/reference/ is generated (`npm run docs`) from the zod schemas and the loader's rule list:
 * the committed pages must be what the sources give today, and the rule list must name every
 * rule the loader reports, and only those.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_PAGES } from '../../scripts/lib/reference.ts';
import { BUILD_RULES, VALIDATION_RULES } from '../../src/load/rules.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('docs/reference', () => {
  for (const [file, render] of Object.entries(REFERENCE_PAGES)) {
    it(`${file} is current (run \`npm run docs\` after changing its source)`, () => {
      expect(readFileSync(path.join(root, 'docs/reference', file), 'utf8')).toBe(render());
    });
  }

  /** The rule ids the `.ts` files of a folder report. */
  function reportedIn(folder: string): string[] {
    const dir = path.join(root, folder);
    const reported = new Set<string>();
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      // `rule: 'x'` in a problem object, or `'warning' | 'error', 'x'` passed to a reporting helper.
      for (const m of readFileSync(path.join(dir, file), 'utf8').matchAll(/\brule:\s*'([a-z0-9-]+)'|'(?:warning|error)',\s*'([a-z0-9-]+)'/g)) reported.add((m[1] ?? m[2])!);
    }
    return [...reported].sort();
  }

  it('lists exactly the rules the loader reports', () => {
    expect(reportedIn('src/load')).toEqual(Object.keys(VALIDATION_RULES).sort());
  });

  it('lists exactly the rules the duplicate scan adds in a build', () => {
    expect(reportedIn('src/duplicates')).toEqual(Object.keys(BUILD_RULES).sort());
  });
});
