/**
 * The commands are listed once, with their summaries (src/cli/command-list.ts: what
 * `skillpress --help` prints); the command tables of README.md and docs/cli.md say the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-list.ts';

const ROOT = new URL('../../', import.meta.url);

/** The rows of a markdown table whose first cell is a command in backticks: [name, what it does]. */
function commandRows(markdownFile: string): Array<[string, string]> {
  const text = readFileSync(new URL(markdownFile, ROOT), 'utf8');
  return [...text.matchAll(/^\| `([a-z-]+)[^`]*` \| ([^|]+) \|/gm)].map(([, name, what]) => [
    name!,
    what!.replaceAll('`', '').trim(),
  ]);
}

/** The commands named in backticks in the first passage of `file` that `pattern` matches (its group 1). */
function namedIn(file: string, pattern: RegExp): string[] {
  const text = readFileSync(new URL(file, ROOT), 'utf8').replace(/\s+/g, ' ');
  const passage = pattern.exec(text)?.[1] ?? '';
  return [...passage.matchAll(/`([a-z-]+)`/g)].map(([, name]) => name!);
}

describe('the command list', () => {
  const listed = COMMANDS.map((c): [string, string] => [c.name, c.summary]);

  it.each(['README.md', 'docs/cli.md'])('%s lists every command, in order, with its summary', (file) => {
    expect(commandRows(file)).toEqual(listed);
  });

  it('README.md and docs/cli.md name every command that takes --json (its usage line says so), in order', async () => {
    const loaded = await Promise.all(COMMANDS.map(async (c) => ({ name: c.name, usage: (await c.load()).usage })));
    const json = loaded.filter((c) => /\[--json\]/.test(c.usage)).map((c) => c.name);
    expect(namedIn('README.md', /`--json` gives machine output \(([^;]*);/)).toEqual(json);
    expect(namedIn('docs/cli.md', /\)\. ([^.]*) take `--json` for machine output/)).toEqual(json);
  });
});
