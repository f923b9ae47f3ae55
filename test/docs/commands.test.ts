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

describe('the command list', () => {
  const listed = COMMANDS.map((c): [string, string] => [c.name, c.summary]);

  it.each(['README.md', 'docs/cli.md'])('%s lists every command, in order, with its summary', (file) => {
    expect(commandRows(file)).toEqual(listed);
  });
});
