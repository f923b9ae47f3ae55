/**
 * A skill's `versions` block in its JSON (schema in src/model/feed.ts): every recorded version,
 * newest first, and for the newest `versions.archives` earlier ones a `.tar.gz` of their files
 * with its sha256, at `.well-known/agent-skills/versions/<id>/<version>.tar.gz`. The discovery
 * index and `links.archive` stay on the latest. An imported skill shows its peer's history,
 * attributed to the peer, without archives (its peer serves those).
 */
import type { Skill } from '../../model/skill.ts';
import { VERSIONS_SCHEMA, type SkillVersionOut, type SkillVersions } from '../../model/feed.ts';
import { DISCOVERY_PATH } from '../../lib/layout.ts';
import { pathProblem } from '../../lib/paths.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { tarGz } from './archive.ts';

/** How the build reads an earlier version's files, and how many earlier versions get archives. */
export interface VersionArchives {
  archives: number;
  files: (skill: Skill, version: string) => Promise<Map<string, Buffer>>;
}

/** Versions that can name a file: digits, letters, `.`, `+`, `-`. */
const ARCHIVABLE = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

export async function versionsBlock(
  skill: Skill,
  options: {
    archives: VersionArchives | undefined;
    mtime: number;
    write: (rel: string, bytes: Buffer) => void;
    imported: boolean;
  },
): Promise<SkillVersions | undefined> {
  const history = skill.history;
  if (!history || history.entries.length === 0) return undefined;
  const latest = skill.registry_fields.version ?? history.entries[0]!.version;
  let left = options.imported ? 0 : (options.archives?.archives ?? 0);
  const out: SkillVersionOut[] = [];
  for (const entry of history.entries) {
    const earlier = entry.digest !== skill.digest && entry.version !== latest;
    const row: SkillVersionOut = { ...entry };
    if (earlier && left > 0 && ARCHIVABLE.test(entry.version) && options.archives) {
      left--;
      row.archive = await archiveOf(skill, entry.version, options);
    }
    out.push(row);
  }
  return { schema: VERSIONS_SCHEMA, latest, registry: history.registry, history: out };
}

async function archiveOf(
  skill: Skill,
  version: string,
  options: { archives: VersionArchives | undefined; mtime: number; write: (rel: string, bytes: Buffer) => void },
): Promise<SkillVersionOut['archive']> {
  const files = await options.archives!.files(skill, version).catch(() => undefined);
  if (!files || files.size === 0) return undefined;
  const entries = [...files].filter(([p]) => pathProblem(p) === undefined).map(([p, bytes]) => ({ path: p, bytes }));
  const bytes = await tarGz(entries, options.mtime);
  const rel = `versions/${encodeURIComponent(skill.id)}/${version}.tar.gz`;
  options.write(`${DISCOVERY_PATH}/${rel}`, bytes);
  return { url: `../../${DISCOVERY_PATH}/${rel}`, sha256: sha256Hex(bytes), bytes: bytes.byteLength };
}
