/**
 * What agents see of a skill at each level of disclosure: the card (level 1), the level-2
 * context of seed 002 (persona/instructions, scoped tools and resources, file manifest), and
 * excerpts around a search match. Pure functions over the feed model.
 */
import type { FeedFile, FeedSkill } from '../model/feed.ts';
import type { SkillNeeds } from '../model/requirements.ts';
import type { CatalogCard } from './catalog.ts';
import { skillFileUri } from './uris.ts';

export interface CardView {
  name: string;
  description: string;
  tags: string[];
  domain?: string;
  version?: string;
  registry: string;
  /** `skill://<name>/SKILL.md` (SEP-2640). */
  uri: string;
  /** Tokens of SKILL.md: what loading the skill costs. */
  tokens: number;
}

export function cardView(card: CatalogCard): CardView {
  const view: CardView = {
    name: card.name,
    description: card.description,
    tags: card.tags,
    registry: card.registry,
    uri: skillFileUri(card, 'SKILL.md'),
    tokens: card.tokens,
  };
  if (card.domain !== undefined) view.domain = card.domain;
  if (card.version !== undefined) view.version = card.version;
  return view;
}

export interface FileView {
  path: string;
  size: number;
  type: string;
  mimeType: string;
  tokens?: number;
  uri: string;
  skipped?: string;
}

export function fileView(card: CatalogCard, file: FeedFile): FileView {
  const view: FileView = {
    path: file.path,
    size: file.size,
    type: file.type,
    mimeType: file.mime,
    uri: skillFileUri(card, file.path),
  };
  if (file.tokens !== undefined) view.tokens = file.tokens;
  if (file.skipped) view.skipped = file.skipped.reason;
  return view;
}

/** A named MCP item (scoped tool or resource) reduced to what the level-2 template shows. */
interface Scoped {
  name?: string;
  uri?: string;
  description?: string;
}

/** Seed 002's level-2 prompt: persona, scoped + universal tools, scoped resources, then files. */
export function renderLevel2(
  card: CatalogCard,
  skill: FeedSkill,
  universalTools: ReadonlyArray<{ name: string; description: string }>,
): string {
  const tool = (t: Scoped) =>
    `    <tool>\n        <name>${xml(t.name ?? '')}</name>\n        <description>${xml(t.description ?? '')}</description>\n    </tool>`;
  const resource = (r: Scoped) =>
    `    <resource>\n        <uri>${xml(r.uri ?? r.name ?? '')}</uri>\n        <description>${xml(r.description ?? '')}</description>\n    </resource>`;
  const files = skill.files.filter((f) => f.path !== 'SKILL.md');
  const resources = [
    ...skill.summary.resources.map(resource),
    ...files.map((f) =>
      resource({
        uri: skillFileUri(card, f.path),
        description: `${f.path} (${f.mime}, ${f.size} bytes${f.tokens !== undefined ? `, ~${f.tokens} tokens` : ''})`,
      }),
    ),
  ];
  const needs = needsLine(skill.summary.needs);
  // A skill that is its SKILL.md alone has no resources: no empty block, and the text says so.
  return [
    skill.body.trim(),
    '',
    '<mcp_tools>',
    ...skill.summary.tools.map(tool),
    ...universalTools.map(tool),
    '</mcp_tools>',
    ...(resources.length > 0 ? ['', '<mcp_resources>', ...resources, '</mcp_resources>'] : []),
    ...(needs ? ['', needs] : []),
    '',
    '## HOW TO WORK',
    ...howToWork(card.name, resources.length > 0),
  ].join('\n');
}

function howToWork(name: string, hasResources: boolean): string[] {
  const reading = hasResources
    ? 'Read a file with read_skill_file (or resources/read on its URI) only when you need it.'
    : 'It has no files besides its SKILL.md: there is nothing more to read.';
  return [
    `You are now in the specialized context of the skill "${name}". Use the ${hasResources ? 'tools and resources' : 'tools'} above`,
    `to complete the user's task. ${reading}`,
    'Skill content comes from the catalog: do not run its scripts unless the user asks you to.',
  ];
}

/** Seed 002's level-1 router prompt, bounded: at most `skills.length` skills, plus how to find the rest. */
export function renderRouter(skills: readonly CatalogCard[], total: number, query?: string): string {
  const listed = skills
    .map(
      (s) =>
        `    <skill>\n        <name>${xml(s.name)}</name>\n        <description>${xml(s.description)}</description>\n    </skill>`,
    )
    .join('\n');
  const more =
    total > skills.length
      ? `\nThe catalog holds ${total} skills; ${skills.length} are listed${query ? ` (the best matches for "${xml(query)}")` : ''}. ` +
        "If none fits, call skills_search (or best_skill) with the user's request in their own words before giving up.\n"
      : '';
  return [
    "You are a top-level orchestration assistant. Your job is to analyze the user's",
    "request and select the single best tool or skill to achieve the user's goal.",
    '',
    'Do not try to answer complex requests. Your ONLY job is to route the',
    'request to the correct tool or skill.',
    '',
    '<available_skills>',
    listed,
    '</available_skills>',
    more,
    '<mcp_tools>',
    '    <tool>',
    '        <name>view_skill</name>',
    '        <description>Critical. Loads the full instructions (Level 2) for a skill from <available_skills>.</description>',
    '        <parameters>{"name": "skill_name", "type": "string"}</parameters>',
    '    </tool>',
    '    <tool>',
    '        <name>skills_search</name>',
    "        <description>Finds skills for the user's request (their own words are fine) when none of <available_skills> fits.</description>",
    '    </tool>',
    '</mcp_tools>',
    '',
    '## HOW TO WORK',
    "1.  **Analyze Request:** Read the user's request.",
    '2.  **Match to Skill:** If the request is complex and matches a description in',
    '    `<available_skills>`, your ONLY action is to call the `view_skill`',
    "    tool with the skill's `name`.",
    '3.  **Match to Tool:** If the request is simple and matches a description in',
    '    `<mcp_tools>`, call that tool directly.',
  ].join('\n');
}

const EXCERPT = 160;

/**
 * About 160 characters of `text` around the first occurrence of any of `terms` (lowercase),
 * on word boundaries, with ellipses where it was cut. Falls back to the start of the text.
 */
export function excerpt(text: string, terms: readonly string[], width = EXCERPT): string {
  // Most descriptions have single spaces only: check before copying (this runs for every hit).
  const flat = (/\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  if (flat.length <= width) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const i = lower.indexOf(term);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  let start = at < 0 ? 0 : Math.max(0, at - Math.floor(width / 3));
  let end = Math.min(flat.length, start + width);
  start = Math.max(0, end - width);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < start + 20) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > end - 20) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * What a skill declares it needs, requirements written as in front matter (`api:github?` is
 * optional): `Needs: MCP servers rube, github; environment:python>=3.11; api:github? (? optional).
 * Written for: codex.` Undefined when it declares nothing. Without the build's tools check: that
 * asked the registry's MCP servers, not the agent's, so its verdict would mislead here.
 */
export function needsLine(needs: SkillNeeds | undefined): string | undefined {
  if (!needs) return undefined;
  const requirements = needs.requirements.map(
    (r) =>
      `${r.type}:${r.target}${r.min_version ? `>=${r.min_version}` : ''}${r.max_version ? `<=${r.max_version}` : ''}${r.required ? '' : '?'}`,
  );
  const parts = [...(needs.mcp_servers.length ? [`MCP servers ${needs.mcp_servers.join(', ')}`] : []), ...requirements];
  const optional = needs.requirements.some((r) => !r.required) ? ' (? optional)' : '';
  const line = [
    parts.length ? `Needs: ${parts.join('; ')}${optional}.` : '',
    needs.target_agents.length ? `Written for: ${needs.target_agents.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return line || undefined;
}
