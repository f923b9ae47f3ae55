/**
 * The five catalog tools, one module each. Names use `_` (never `.`) so every client accepts
 * them; descriptions are short and never list skills, so what an agent pays up front does not
 * grow with the catalog. Each returns `structuredContent` matching its output schema plus a
 * short text copy.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { registerBestSkill, type JudgeOptions } from './best-skill.ts';
import { registerReadSkillFile } from './read-skill-file.ts';
import { registerSkillsList } from './skills-list.ts';
import { registerSkillsSearch } from './skills-search.ts';
import { registerViewSkill } from './view-skill.ts';
import type { CatalogRef } from './shared.ts';
import type { Authoring } from '../authoring.ts';
import { registerAuthoringTools } from './authoring.ts';

export type { CatalogRef } from './shared.ts';
export { UNIVERSAL_TOOLS } from './view-skill.ts';
export { searchSkills, type SearchResult } from './skills-search.ts';
export { JUDGE_TIMEOUT_MS, type JudgeOptions, type JudgeState } from './best-skill.ts';

/** The catalog tools; create_skill and update_skill too when the server writes a skills folder (`authoring`). */
export function registerTools(
  server: McpServer,
  catalog: CatalogRef,
  judge: JudgeOptions,
  authoring?: Authoring,
): void {
  registerSkillsList(server, catalog);
  registerSkillsSearch(server, catalog);
  registerViewSkill(server, catalog);
  registerReadSkillFile(server, catalog);
  registerBestSkill(server, catalog, judge);
  if (authoring) registerAuthoringTools(server, authoring);
}
