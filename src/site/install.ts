/**
 * How a skill is installed or used, as the skill page and the about page show it: the
 * ecosystem's installer first (`npx skills add`, which reads the discovery index), then
 * `skillpress install`, then an MCP client configuration.
 */
import type { Card, FeedIndex, FeedSkill } from '../model/feed.ts';

/** Stands for the site's address when the registry has no `url`; the page script fills it in. */
export const SITE_PLACEHOLDER = '<site-url>';

/** The published site's address (ending in `/`), or the placeholder. */
export function siteAddress(index: FeedIndex): string {
  return index.registry.url?.replace(/\/?$/, '/') ?? SITE_PLACEHOLDER;
}

/** Where a skill installs from: this site, or for an imported skill not re-exported here, the peer's site. */
export function installSource(skill: FeedSkill, site: string, hasArchive: boolean): string {
  const source = skill.summary.source_url;
  const peer = !hasArchive && source ? /^(https?:\/\/.+\/)feed\/v1\/index\.json$/.exec(source)?.[1] : undefined;
  return peer ?? site;
}

export function skillsAddCommand(source: string, card?: Card): string {
  return card ? `npx skills add ${source} --skill ${card.name}` : `npx skills add ${source}`;
}

/** How snippets run skillpress when the config says nothing (`site.command`). */
export const DEFAULT_COMMAND = 'skillpress';

/**
 * skillpress's own commands run the way `site.command` says readers have it (default: the
 * `skillpress` they installed) — never a bare `npx skillpress` unless configured, which would
 * fetch whatever package holds that name on the registry.
 */
export function skillpressInstallCommand(source: string, card: Card, command = DEFAULT_COMMAND): string {
  return `${command} install ${source} ${card.name}`;
}

/**
 * An MCP client's `mcpServers` entry running `skillpress mcp` (as `site.command` says) over the
 * feed of the site at `site`, named after its registry.
 */
export function mcpConfig(registry: string, site: string, command = DEFAULT_COMMAND): string {
  const [program = DEFAULT_COMMAND, ...leading] = command.split(/\s+/);
  return JSON.stringify(
    {
      mcpServers: {
        [registry || 'skills']: {
          command: program,
          args: [...leading, 'mcp', '--feed', `${site}feed/v1/index.json`],
        },
      },
    },
    null,
    2,
  );
}

/**
 * Pretty JSON with each array of plain values on one line (`"args": ["mcp", "--feed", "…"]`):
 * a snippet at the top of a page should be short. Strings with brackets are left as they are.
 */
export function withShortArrays(json: string): string {
  return json.replace(/\[\n(\s*"[^"\n[\]]*",?\n)+\s*\]/g, (array) =>
    JSON.stringify(JSON.parse(array) as unknown[]).replaceAll('","', '", "'),
  );
}
