/** Writing skills back: scaffold, create, update, versions and rollback (docs/authoring.md). */
export { scaffoldSkill, TEMPLATES, type ScaffoldOptions, type Template } from './scaffold.ts';
export {
  createSkill,
  updateSkill,
  rollbackSkill,
  skillFolder,
  UnknownSkillError,
  VersionConflictError,
  type AuthorContext,
  type CreateSkillInput,
  type CreateSkillResult,
  type UpdateSkillInput,
  type UpdateSkillResult,
} from './write.ts';
export { listVersions, stateDir, type SkillVersion } from './history.ts';
export { DuplicateIndex, MEANING_THRESHOLD, MEANING_TEXT_FLOOR, type DuplicateMatch } from './duplicate.ts';
export { describeChanges } from './changes.ts';
export { nextVersion } from './skill-md.ts';
export { MAX_FILES_PER_WRITE, type AuthoredFile } from './files.ts';

import { skillFolder } from './write.ts';
import { listVersions as versionsIn, type SkillVersion } from './history.ts';

/**
 * The recorded versions of the skill called `name` in `skills`, newest first.
 *
 * @example
 * ```ts
 * import { skillVersions } from 'skillpress';
 * for (const v of await skillVersions('skills', 'refund-approval')) console.log(v.version, v.date, v.changes);
 * ```
 */
export async function skillVersions(skills: string, name: string): Promise<SkillVersion[]> {
  return versionsIn(skills, name, await skillFolder(skills, name));
}
