/**
 * Federation: merge skills from peer feeds and SKILL.md URLs into the local catalog.
 * (Placeholder signature; implemented in src/federate/.)
 */
import type { Catalog } from '../model/skill.ts';
import type { SkillpressConfig } from '../model/config.ts';

export interface FederateOptions {
  /** Folder for the conditional-request cache (ETag / Last-Modified and verified bodies). */
  cacheDir: string;
  log?: (line: string) => void;
}

export async function federate(catalog: Catalog, _config: SkillpressConfig, _opts: FederateOptions): Promise<Catalog> {
  return catalog;
}
