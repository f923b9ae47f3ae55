/**
 * This registry's own skills as every command that publishes them reads them: `build()` (the
 * feed, the site and its Elasticsearch ingest) and `skillpress ingest`. One step for both, so
 * they give each skill the same `updated_at` and `is_enabled`, and so Elasticsearch the same
 * documents and catalog digest: running one after the other writes nothing.
 */
import { loadCatalog } from './load/index.ts';
import type { LoadMemo } from './load/load-memo.ts';
import type { ValidationMode } from './load/validate.ts';
import { disabledNames, markEnabled } from './enable/index.ts';
import { attachHistories, datesFromCommits, type VersionFiles } from './author/publish.ts';
import { skillsLoadOptions } from './config/load.ts';
import type { SkillpressConfig } from './model/config.ts';
import type { Catalog } from './model/skill.ts';
import type { TokenCounts } from './lib/token-counts.ts';

export interface LocalCatalogOptions {
  mode: ValidationMode;
  /** SOURCE_DATE_EPOCH: caps every date (mtimes and commit times alike). */
  sourceDateEpoch?: number;
  tokens?: TokenCounts;
  memo?: LoadMemo;
  log?: (line: string) => void;
}

export interface LocalCatalog {
  /** The local skills, dated and with `is_enabled` set (disabled ones are kept: Elasticsearch holds them). */
  catalog: Catalog;
  /** The skills dated by their folder's last commit (the others by their files' mtimes). */
  datedByCommit: Set<string>;
  /** Earlier versions' files, for the feed's archives. */
  versionFiles: VersionFiles;
}

/**
 * Load the skills folder with the config's `skills.*` rules (ignore, limits, precedence), date
 * each skill by its last commit where git has it whole (`datesFromCommits`), attach recorded
 * versions, and mark the skills `skills.disabled` and disabled bundles switch off.
 */
export async function loadLocalCatalog(
  skillsRoot: string,
  config: SkillpressConfig,
  options: LocalCatalogOptions,
): Promise<LocalCatalog> {
  const loaded = await loadCatalog(skillsRoot, {
    ...skillsLoadOptions(config),
    mode: options.mode,
    registry: config.registry.name,
    sourceDateEpoch: options.sourceDateEpoch,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    ...(options.memo ? { memo: options.memo } : {}),
  });
  const [versionFiles, datedByCommit] = await Promise.all([
    attachHistories(loaded.skills, skillsRoot, config.registry.name, options.log),
    datesFromCommits(loaded.skills, skillsRoot, options.sourceDateEpoch, config.skills.ignore),
  ]);
  const disabled = disabledNames(config.skills.disabled, config.bundles, loaded.skills);
  return { catalog: { ...loaded, skills: markEnabled(loaded.skills, disabled) }, datedByCommit, versionFiles };
}
