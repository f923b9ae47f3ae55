/** The site's skillpress snippets run skillpress the way `site.command` says readers have it. */
import { describe, expect, it } from 'vitest';
import { mcpConfig, skillpressInstallCommand } from '../../src/site/install.ts';
import type { Card } from '../../src/model/feed.ts';

const card = { name: 'pdf-tools' } as Card;

describe('skillpress snippets', () => {
  it('default to the installed `skillpress`', () => {
    expect(skillpressInstallCommand('https://s.example/', card)).toBe(
      'skillpress install https://s.example/ pdf-tools',
    );
    expect(JSON.parse(mcpConfig('acme', 'https://s.example/'))).toEqual({
      mcpServers: { acme: { command: 'skillpress', args: ['mcp', '--feed', 'https://s.example/feed/v1/index.json'] } },
    });
  });

  it('follow site.command, split into the program and its leading arguments for MCP clients', () => {
    const command = 'npx -y skillpress';
    expect(skillpressInstallCommand('https://s.example/', card, command)).toBe(
      'npx -y skillpress install https://s.example/ pdf-tools',
    );
    expect(JSON.parse(mcpConfig('acme', 'https://s.example/', command)).mcpServers.acme).toEqual({
      command: 'npx',
      args: ['-y', 'skillpress', 'mcp', '--feed', 'https://s.example/feed/v1/index.json'],
    });
  });
});
