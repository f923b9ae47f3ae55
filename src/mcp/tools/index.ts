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
import { registerReportOutcome } from './report-outcome.ts';
import type { CatalogRef } from './shared.ts';
import type { UsageHook } from '../usage.ts';
import type { Authoring } from '../authoring.ts';
import { registerAuthoringTools } from './authoring.ts';

export type { CatalogRef } from './shared.ts';
export { UNIVERSAL_TOOLS } from './view-skill.ts';
export { searchSkills, type SearchResult } from './skills-search.ts';
export { JUDGE_TIMEOUT_MS, type JudgeOptions, type JudgeState } from './best-skill.ts';

/**
 * The catalog tools; `report_skill_outcome` too when usage is recorded (`usage`), and
 * create_skill and update_skill when the server writes a skills folder (`authoring`).
 */
export function registerTools(
  server: McpServer,
  catalog: CatalogRef,
  judge: JudgeOptions,
  extras: { usage?: UsageHook | undefined; authoring?: Authoring | undefined } = {},
): void {
  const { usage, authoring } = extras;
  registerSkillsList(server, catalog);
  registerSkillsSearch(server, catalog);
  registerViewSkill(server, catalog, usage);
  registerReadSkillFile(server, catalog);
  registerBestSkill(server, catalog, judge, usage);
  if (usage) registerReportOutcome(server, catalog, usage);
  if (authoring) registerAuthoringTools(server, authoring);
}
