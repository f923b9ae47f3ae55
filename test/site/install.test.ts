/** The snippets a skill page shows: short enough to sit above SKILL.md, and still valid JSON. */
import { describe, expect, it } from 'vitest';
import { withShortArrays } from '../../src/site/install.ts';

describe('withShortArrays', () => {
  it('puts an array of plain values on one line and keeps the JSON equal', () => {
    const value = {
      mcpServers: { local: { command: 'skillpress', args: ['mcp', '--feed', 'https://x/feed/v1/index.json'] } },
    };
    const short = withShortArrays(JSON.stringify(value, null, 2));
    expect(short).toContain('"args": ["mcp", "--feed", "https://x/feed/v1/index.json"]');
    expect(short.split('\n')).toHaveLength(8);
    expect(JSON.parse(short)).toEqual(value);
  });

  it('leaves strings with brackets or quotes as they are', () => {
    const value = { args: ['a]b', 'say "hi"'] };
    const pretty = JSON.stringify(value, null, 2);
    expect(JSON.parse(withShortArrays(pretty))).toEqual(value);
  });
});
