/** One catalog Skill → its card (level 1) and its full feed JSON (levels 2 and 3). */
import path from 'node:path';
import type { Problem, Skill, SkillFile } from '../../model/skill.ts';
import { FEED_VERSION, type Card, type FeedFile, type FeedSkill } from '../../model/feed.ts';
import { fileBytes } from '../../load/read-file.ts';
import type { TokenCounts } from '../../lib/token-counts.ts';
import { encodePath } from '../../lib/paths.ts';
import type { Signer } from '../../lib/signing.ts';
import { errorMessage } from '../../lib/errors.ts';
import { readSkillNeeds } from '../../load/requirements.ts';
import type { SkillNeeds, ToolsStatus } from '../../model/requirements.ts';

export const SKILL_MD = 'SKILL.md';

/** Token counts of a skill's text files, by sha256. */
export type FileTokens = ReadonlyMap<string, number>;

const isText = (file: SkillFile): file is SkillFile & { content: string } =>
  file.content !== undefined && file.encoding === 'utf-8';

/** Every text file's tokens, through the counts kept between builds. */
export async function fileTokens(files: readonly SkillFile[], counts: TokenCounts): Promise<FileTokens> {
  const tokens = new Map<string, number>();
  for (const f of files) if (isText(f)) tokens.set(f.sha256, await counts.count(f.content, f.sha256));
  return tokens;
}

const tokensOf = (file: SkillFile, tokens: FileTokens): number | undefined =>
  isText(file) ? tokens.get(file.sha256) : undefined;

/** Links of a card, relative to the feed root (`feed/v1/`). */
function cardLinks(id: string, withArchive: boolean): Card['links'] {
  const e = encodeURIComponent(id);
  return {
    skill: `skills/${e}.json`,
    page: `../../skills/${e}/`,
    ...(withArchive
      ? { archive: `../../.well-known/agent-skills/${e}.tar.gz`, zip: `../../.well-known/agent-skills/${e}.zip` }
      : {}),
  };
}

/** Scoped tools/resources (seed 002): a JSON array, or an object holding one under `key`. */
function scopedList(
  skill: Skill,
  fileName: string,
  key: 'tools' | 'resources',
  problems: Problem[],
): Array<Record<string, unknown>> {
  const file = skill.files.find((f) => f.path === fileName);
  if (!file || file.content === undefined || file.encoding !== 'utf-8') return [];
  const report = (message: string): void => {
    problems.push({ severity: 'warning', skill: skill.id, file: fileName, rule: `${key}-json`, message });
  };
  let data: unknown;
  try {
    data = JSON.parse(file.content);
  } catch (err) {
    report(`not valid JSON (${errorMessage(err)}); its ${key} are not listed in the feed`);
    return [];
  }
  const list = Array.isArray(data) ? data : (data as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) {
    report(`expected a JSON array, or an object with a "${key}" array`);
    return [];
  }
  const items = list.filter(
    (x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x),
  );
  if (key === 'tools') {
    const named = items.filter((t) => typeof t.name === 'string');
    if (named.length < items.length)
      report(`${items.length - named.length} tool(s) without a "name" string were left out`);
    return named;
  }
  return items;
}

function sourceUrl(skill: Skill): string | undefined {
  if (skill.source.kind === 'peer') return skill.source.feed_url;
  if (skill.source.kind === 'url') return skill.source.skill_md_url;
  return undefined;
}

/** What a skill needs, from its front matter, with the tools check's result when there is one. */
export function skillNeeds(skill: Skill, toolsStatus?: ToolsStatus): SkillNeeds {
  const { needs } = readSkillNeeds(skill.frontmatter);
  const status = toolsStatus ?? skill.tools_status;
  return status ? { ...needs, tools_status: status } : needs;
}

export interface SkillJsonResult {
  card: Card;
  skill: FeedSkill;
  problems: Problem[];
}

/**
 * The origin's signed statement: made here for this registry's own skills (when it has a key),
 * and for an imported skill the one its peer published, unchanged.
 */
function originSignature(skill: Skill, signer: Signer | undefined): FeedSkill['origin_signature'] {
  if (skill.source.kind === 'peer') return skill.source.origin_signature;
  return signer?.sign({ registry: skill.registry, id: skill.id, digest: skill.digest });
}

/** Whether the author keeps the skill for people to start (`disable-model-invocation: true`, as YAML's boolean or the string). */
const startedByPeople = (skill: Skill): boolean =>
  [true, 'true'].includes(skill.frontmatter['disable-model-invocation'] as boolean | string);

/** Any UTF-16 surrogate: most text holds none, and this is the quicker test. */
const SURROGATE = /[\uD800-\uDFFF]/;
/** A UTF-16 surrogate without its other half: UTF-8 cannot hold it (encoding it gives U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A stored file's bytes as UTF-8 text: its content as it is when that is already the text they
 * decode to (a text file without a lone surrogate), else decoded from its bytes.
 */
const storedText = (file: SkillFile): string =>
  isText(file) && !(SURROGATE.test(file.content) && LONE_SURROGATE.test(file.content))
    ? file.content
    : fileBytes(file).toString('utf8');

/** The card's `folder`: where a local skill sits below the skills folder, when not at the top. */
function folderOf(skill: Skill): { folder?: string } {
  if (skill.source.kind !== 'local') return {};
  const parent = path.posix.dirname(skill.source.dir);
  return parent === '.' || parent === '' ? {} : { folder: parent };
}

export function skillJson(
  skill: Skill,
  opts: { withArchive: boolean; tokens: FileTokens; signer?: Signer },
): SkillJsonResult {
  const problems: Problem[] = [];
  const skillMd = skill.files.find((f) => f.path === SKILL_MD);
  const skillMdText = skillMd?.content !== undefined ? storedText(skillMd) : '';
  const rf = skill.registry_fields;
  const card: Card = {
    id: skill.id,
    name: skill.name,
    ...(skill.title !== undefined ? { title: skill.title } : {}),
    description: skill.description,
    tags: rf.tags,
    ...(rf.domain !== undefined ? { domain: rf.domain } : {}),
    ...folderOf(skill),
    ...(rf.version !== undefined ? { version: rf.version } : {}),
    registry: skill.registry,
    // An imported skill keeps its origin (registry) and the route it came by (federation).
    ...(skill.source.kind === 'peer' && skill.source.via?.length ? { via: skill.source.via } : {}),
    ...(skill.source.kind === 'peer' ? { origin_verified: skill.source.origin_verified === true } : {}),
    updated_at: skill.updated_at,
    digest: skill.digest,
    tokens: skillMd ? (tokensOf(skillMd, opts.tokens) ?? 0) : 0,
    ...(startedByPeople(skill) ? { invocation: 'user' as const } : {}),
    ...(skill.usage ? { usage: skill.usage } : {}),
    links: cardLinks(skill.id, opts.withArchive),
  };
  const files: FeedFile[] = skill.files.map((f) => {
    const tokens = tokensOf(f, opts.tokens);
    return {
      path: f.path,
      size: f.size,
      sha256: f.sha256,
      encoding: f.encoding,
      mime: f.mime,
      type: f.type,
      ...(tokens !== undefined ? { tokens } : {}),
      ...(f.skipped ? { skipped: f.skipped } : { url: `files/${encodeURIComponent(skill.id)}/${encodePath(f.path)}` }),
      ...(f.executable ? { executable: true as const } : {}),
    };
  });
  const needs = skillNeeds(skill);
  const src = sourceUrl(skill);
  const signature = originSignature(skill, opts.signer);
  const feedSkill: FeedSkill = {
    feed_version: FEED_VERSION,
    card,
    ...(signature ? { origin_signature: signature } : {}),
    summary: {
      ...(skill.license !== undefined ? { license: skill.license } : {}),
      ...(skill.compatibility !== undefined ? { compatibility: skill.compatibility } : {}),
      allowed_tools: skill.allowed_tools,
      requirements: needs.requirements,
      needs,
      ...(rf.author !== undefined ? { author: rf.author } : {}),
      ...(rf.owner !== undefined ? { owner: rf.owner } : {}),
      ...(rf.repository_url !== undefined ? { repository_url: rf.repository_url } : {}),
      health: skill.health,
      tools: scopedList(skill, 'tools.json', 'tools', problems) as FeedSkill['summary']['tools'],
      resources: scopedList(skill, 'resources.json', 'resources', problems),
      ...(src !== undefined ? { source_url: src } : {}),
    },
    frontmatter: skill.frontmatter,
    skill_md: skillMdText,
    body: skill.body,
    files,
  };
  return { card, skill: feedSkill, problems };
}
