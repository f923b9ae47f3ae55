/**
 * A skill folder copied to the staging folder, read as a write needs it: loaded with the loader's
 * rules to check a new version, and, before an update, what the skill is now — loaded, or, for a
 * skill the loader refuses (a SKILL.md without a description, which the update may supply), its
 * files as they are, so the update can repair it and still say what changed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidInputError } from '../lib/errors.ts';
import { ignoreMatcher } from '../lib/ignore.ts';
import { loadCatalog } from '../load/index.ts';
import { SKILL_FILE, findSkills } from '../load/find-skills.ts';
import { parseSkillMarkdown } from '../load/frontmatter.ts';
import { readFileFromDisk, skillDigest } from '../load/read-file.ts';
import type { SkillpressConfig } from '../model/config.ts';
import type { Problem, Skill } from '../model/skill.ts';
import type { SkillSnapshot } from './changes.ts';

/** The skill as loaded, and the `--strict` errors it has (an update may keep those, never add one). */
export interface StagedSkill {
  skill: Skill;
  strictErrors: Set<string>;
}

/** What an update starts from: the loaded skill when it loads, else its files as they are. */
export interface Starting {
  skill: Skill | undefined;
  snapshot: SkillSnapshot;
  digest: string;
  strictErrors: Set<string>;
}

type Loads = { lenient: Awaited<ReturnType<typeof loadCatalog>>; strict: Awaited<ReturnType<typeof loadCatalog>> };

const key = (p: Problem) => `${p.rule}\0${p.field ?? ''}\0${p.file ?? ''}`;

async function loadBoth(staged: string, config: SkillpressConfig): Promise<Loads> {
  const load = (mode: 'strict' | 'lenient') =>
    loadCatalog(path.dirname(staged), {
      mode,
      ignore: config.skills.ignore,
      maxFileBytes: config.skills.max_file_bytes,
      maxDepth: 1,
    });
  const [lenient, strict] = await Promise.all([load('lenient'), load('strict')]);
  return { lenient, strict };
}

const strictErrorsOf = (loads: Loads): Problem[] => loads.strict.problems.filter((p) => p.severity === 'error');

/**
 * Loads the staged folder with the loader's rules. Refused: any error the build reports (lenient),
 * and any error of `--strict` not in `tolerated` (an update may keep a fault the skill already
 * had, never add one). Every refusing problem is named: file, line, rule, field.
 */
export async function loadStaged(
  staged: string,
  name: string,
  config: SkillpressConfig,
  tolerated: ReadonlySet<string> | 'all' = new Set(),
): Promise<StagedSkill> {
  const loads = await loadBoth(staged, config);
  const strictErrors = strictErrorsOf(loads);
  const refusing = [
    ...loads.lenient.problems.filter((p) => p.severity === 'error'),
    ...(tolerated === 'all' ? [] : strictErrors.filter((p) => !tolerated.has(key(p)))),
  ];
  if (refusing.length > 0) {
    const unique = [...new Map(refusing.map((p) => [key(p), p])).values()];
    throw new InvalidInputError(`${unique.map(formatProblem).join('; ')}; nothing was written`, {
      rule: unique[0]!.rule,
    });
  }
  return { skill: loadedAs(loads, name), strictErrors: new Set(strictErrors.map(key)) };
}

/** The skill `name` among what the staged folder loaded, or why it is not there. */
function loadedAs(loads: Loads, name: string): Skill {
  const { skills } = loads.lenient;
  const skill = skills.find((s) => s.id === name);
  if (skill) return skill;
  if (skills.length === 1)
    throw new InvalidInputError(
      `the SKILL.md in the folder "${name}" names the skill "${skills[0]!.id}" (rule name-matches-folder): rename the folder to "${skills[0]!.id}", or set name: ${name} in its SKILL.md, then update it; nothing was written`,
      { rule: 'name-matches-folder' },
    );
  throw new InvalidInputError(`the skill did not load as "${name}"; nothing was written`);
}

/**
 * The skill in the staged folder before a change: loaded when the loader takes it, else (refused
 * for an error the change may repair) read as it is. Its `--strict` errors are the ones the
 * change may keep.
 */
export async function startingPoint(staged: string, name: string, config: SkillpressConfig): Promise<Starting> {
  const loads = await loadBoth(staged, config);
  const strictErrors = new Set(strictErrorsOf(loads).map(key));
  if (!loads.lenient.problems.some((p) => p.severity === 'error')) {
    const skill = loadedAs(loads, name);
    return { skill, snapshot: snapshot(skill), digest: skill.digest, strictErrors };
  }
  const files = await filesAsTheyAre(staged, config);
  const raw = await readFile(path.join(staged, SKILL_FILE), 'utf8').catch(() => '');
  const parsed = parseSkillMarkdown(raw);
  const description = parsed.ok && typeof parsed.data.description === 'string' ? parsed.data.description : '';
  return {
    skill: undefined,
    snapshot: {
      description,
      body: parsed.ok ? parsed.body : raw,
      files: new Map([...files].filter(([p]) => p !== SKILL_FILE)),
    },
    digest: skillDigest([...files].map(([p, sha256]) => ({ path: p, sha256 }))),
    strictErrors,
  };
}

/** Every file of the skill in `staged`, path → sha256, found and hashed as the loader does (its walk, its ignore rules). */
async function filesAsTheyAre(staged: string, config: SkillpressConfig): Promise<Map<string, string>> {
  const [found] = await findSkills(
    path.dirname(staged),
    { ignore: ignoreMatcher(config.skills.ignore), maxDepth: 1 },
    [],
  );
  const files = new Map<string, string>();
  for (const rel of found?.files ?? []) {
    const abs = found!.targets.get(rel) ?? path.join(found!.abs, ...rel.split('/'));
    const read = readFileFromDisk(abs, rel, config.skills.max_file_bytes);
    if (read.kind !== 'unreadable') files.set(rel, read.kind === 'stored' ? read.file.sha256 : read.sha256);
  }
  return files;
}

export function snapshot(skill: Skill): SkillSnapshot {
  return {
    description: skill.description,
    body: skill.body,
    files: new Map(skill.files.filter((f) => f.path !== SKILL_FILE).map((f) => [f.path, f.sha256])),
  };
}

const formatProblem = (p: Problem): string =>
  `${p.file ?? SKILL_FILE}${p.line ? `:${p.line}` : ''}: [${p.rule}]${p.field ? ` ${p.field}:` : ''} ${p.message}`;
