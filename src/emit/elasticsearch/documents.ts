/**
 * Catalog → Elasticsearch documents. Pure functions: the same catalog always gives the same
 * documents (timestamps come from the skill, not the clock), so re-ingesting unchanged skills
 * changes nothing a reader can see.
 */
import type { Skill, SkillFile } from '../../model/skill.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { readSkillNeeds } from '../../load/requirements.ts';
import type { CompatibilityRequirement, ToolsStatus } from '../../model/requirements.ts';

/** A document of `agent_skills`: metadata only (no skill_markdown, no resources, as in seed 000). */
export interface SkillDocument {
  skill_id: string;
  name: string;
  description: string;
  short_description: string;
  domain?: string;
  tags: string[];
  author?: string;
  version?: string;
  license?: string;
  compatibility?: string;
  allowed_tools: string[];
  /** What the skill needs (`allowed-tools` parsed, `requires.mcp`, requirements, target agents). */
  tool_references: Array<{ tool: string; server?: string; capabilities: string[] }>;
  required_mcp_servers: string[];
  requirements: CompatibilityRequirement[];
  target_agents: string[];
  tools_status?: ToolsStatus;
  /** False for a disabled skill: kept for internal readers, never published. */
  is_enabled: boolean;
  metadata?: Record<string, string>;
  frontmatter: Record<string, unknown>;
  visibility: string;
  allowed_groups: string[];
  owner?: string;
  repository_url?: string;
  registry: string;
  digest: string;
  file_count: number;
  total_size_bytes: number;
  rating?: number;
  usage_count?: number;
  success_rate?: number;
  semantic_content: string;
  /** The skill's name and description embedded by the static model (unit length); absent when not embedded. */
  purpose_vector?: number[];
  created_at: string;
  updated_at: string;
}

/** A document of `agent_skill_files`: one file, byte-exact in `file_content` (text or base64). */
export interface FileDocument {
  skill_id: string;
  file_name: string;
  file_path: string;
  file_type: string;
  mime_type: string;
  /** Absent when the file was over the size limit (see skip_reason). */
  file_content?: string;
  encoding: 'utf-8' | 'base64';
  sha256: string;
  /** Executable on disk (mode 0755 when restored, as archives and install give it); absent: not. */
  executable?: true;
  file_size_bytes: number;
  skip_reason?: string;
  created_at: string;
}

/** Elasticsearch refuses `_id`s over 512 bytes. */
const MAX_ID_BYTES = 512;

/**
 * `{skill_id}_{file_path}`: the seed's `{skill_id}_{file_name}` for top-level files, while
 * nested files that share a name stay apart. A path too long for an `_id` falls back to its hash.
 */
export function fileDocumentId(skillId: string, filePath: string): string {
  const id = `${skillId}_${filePath}`;
  return Buffer.byteLength(id) <= MAX_ID_BYTES ? id : `${skillId}_sha256-${sha256Hex(filePath)}`;
}

/** The first sentence of the description, at most 160 characters. */
export function shortDescription(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= 160 ? sentence : `${sentence.slice(0, 159).trimEnd()}…`;
}

function numberFrom(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function skillDocument(skill: Skill): SkillDocument {
  const reg = skill.registry_fields;
  const metadata = skill.frontmatter.metadata as Record<string, string> | undefined;
  const { needs } = readSkillNeeds(skill.frontmatter);
  return {
    skill_id: skill.id,
    name: skill.name,
    description: skill.description,
    short_description: shortDescription(skill.description),
    domain: reg.domain,
    tags: reg.tags,
    author: reg.author,
    version: reg.version,
    license: skill.license,
    compatibility: skill.compatibility,
    allowed_tools: skill.allowed_tools,
    tool_references: needs.tools.map(({ tool, server, capabilities }) => ({ tool, server, capabilities })),
    required_mcp_servers: needs.mcp_servers,
    requirements: needs.requirements,
    target_agents: needs.target_agents,
    ...(skill.tools_status ? { tools_status: skill.tools_status } : {}),
    is_enabled: skill.is_enabled !== false,
    metadata,
    // Round-trip through JSON so YAML dates and the like are stored as they serialise.
    frontmatter: JSON.parse(JSON.stringify(skill.frontmatter)) as Record<string, unknown>,
    visibility: reg.visibility,
    allowed_groups: reg.allowed_groups,
    owner: reg.owner,
    repository_url: reg.repository_url,
    registry: skill.registry,
    digest: skill.digest,
    file_count: skill.files.length,
    total_size_bytes: skill.files.reduce((n, f) => n + f.size, 0),
    // Measured figures (analytics.source) win over what an author wrote in the front matter.
    rating: skill.usage ? skill.usage.rating : numberFrom(metadata?.rating),
    usage_count: skill.usage ? skill.usage.usage_count : numberFrom(metadata?.usage_count),
    success_rate: skill.usage ? skill.usage.success_rate : numberFrom(metadata?.success_rate),
    semantic_content: [skill.name, skill.description, reg.domain, reg.tags.join(' '), skill.body]
      .filter(Boolean)
      .join('\n\n'),
    created_at: skill.updated_at,
    updated_at: skill.updated_at,
  };
}

export function fileDocument(skill: Skill, file: SkillFile): FileDocument {
  return {
    skill_id: skill.id,
    file_name: file.name,
    file_path: file.path,
    file_type: file.type,
    mime_type: file.mime,
    file_content: file.content,
    encoding: file.encoding,
    sha256: file.sha256,
    ...(file.executable ? { executable: true as const } : {}),
    file_size_bytes: file.size,
    skip_reason: file.skipped?.reason,
    created_at: skill.updated_at,
  };
}

/** One bulk operation: which alias's index, the `_id`, the source. */
export interface IndexOperation {
  target: 'skills' | 'files';
  id: string;
  doc: SkillDocument | FileDocument;
}

/** Every document of the catalog, skills sorted by id and files by path (a stable order). */
/**
 * `vectorOf`: each skill's purpose vector (`purpose_vector`, for kNN and the hybrid query), or
 * undefined to leave it out — as for a skill whose text has no token (a zero vector, which
 * cosine similarity refuses).
 */
export function* catalogOperations(
  skills: readonly Skill[],
  vectorOf?: (skill: Skill) => number[] | undefined,
): Generator<IndexOperation> {
  const sorted = [...skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const skill of sorted) {
    const doc = skillDocument(skill);
    const vector = vectorOf?.(skill);
    if (vector) doc.purpose_vector = vector;
    yield { target: 'skills', id: skill.id, doc };
    const files = [...skill.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const file of files)
      yield { target: 'files', id: fileDocumentId(skill.id, file.path), doc: fileDocument(skill, file) };
  }
}
