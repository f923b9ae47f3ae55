/**
 * loadCatalog: walk a folder of skills (find-skills.ts), load each skill (load-skill.ts) and
 * return the typed Catalog with every problem found, in a fixed order.
 *
 * Names are unique in a catalog. Two skills with the same name and the same files (every path
 * and sha256) are one skill committed twice: the first in path order is kept and the copies
 * are a warning (`duplicate-copy`). Two with the same name and different content are an error
 * (`name-unique`) naming both folders and both content digests; the first keeps the name.
 * A catalog that gathers several sources cannot rename their skills: `skills.precedence` lists
 * the folders whose skills keep a shared name, and the others are left out with a warning
 * (`name-shadowed`) rather than an error.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog, Problem, Skill } from '../model/skill.ts';
import { MIB } from '../model/config.ts';
import { DEFAULT_IGNORE, ignoreMatcher } from '../lib/ignore.ts';
import { pMap } from '../lib/p-map.ts';
import type { TokenCounts } from '../lib/token-counts.ts';
import { quotePath } from '../lib/paths.ts';
import { skillDigest } from './read-file.ts';
import type { ValidationMode } from './validate.ts';
import { SKILL_FILE, byCodeUnit, findSkills } from './find-skills.ts';
import { loadSkill, type LoadResult } from './load-skill.ts';
import type { LoadMemo } from './load-memo.ts';

export interface LoadOptions {
  mode?: ValidationMode;
  ignore?: readonly string[];
  maxFileBytes?: number;
  maxDepth?: number;
  /** Registry name given to local skills. */
  registry?: string;
  /** Seconds since the epoch; clamps `updated_at` so builds are reproducible. */
  sourceDateEpoch?: number;
  /** Token counts kept between builds (default: counted afresh). */
  tokens?: TokenCounts;
  /** Skills loaded by earlier calls of this process, reused where their folders did not change. */
  memo?: LoadMemo;
  /** Folders (relative to `root`, `/`-separated) whose skills keep a name shared with skills elsewhere, first listed first (`skills.precedence`). */
  precedence?: readonly string[];
}

/**
 * Load every skill under `root` (a folder holding one folder per skill, each with a SKILL.md)
 * into a typed {@link Catalog}: the skills that load, and every problem found (file, field and
 * rule named), in a fixed order. Nothing is thrown for a bad skill; a missing `root` is a
 * `root-missing` problem.
 *
 * @example
 * ```ts
 * import { loadCatalog } from 'skillpress';
 * const catalog = await loadCatalog('skills', { mode: 'strict' });
 * for (const p of catalog.problems) console.log(`${p.severity} ${p.skill}: ${p.rule}: ${p.message}`);
 * console.log(catalog.skills.map((s) => s.name));
 * ```
 */
export async function loadCatalog(root: string, options: LoadOptions = {}): Promise<Catalog> {
  const opts = {
    mode: options.mode ?? 'lenient',
    maxFileBytes: options.maxFileBytes ?? MIB,
    registry: options.registry ?? 'local',
    sourceDateEpoch: options.sourceDateEpoch,
    tokens: options.tokens,
  };
  const absRoot = path.resolve(root);
  const problems: Problem[] = [];
  const rootStat = await stat(absRoot).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    problems.push({
      severity: 'error',
      skill: '.',
      rule: 'root-missing',
      message: `skills folder ${quotePath(root)} does not exist or is not a folder`,
    });
    return { skills: [], problems };
  }

  const found = await findSkills(
    absRoot,
    { ignore: ignoreMatcher(options.ignore ?? DEFAULT_IGNORE), maxDepth: options.maxDepth ?? 8 },
    problems,
  );
  if (found.length === 0 && problems.length === 0) {
    problems.push({
      severity: 'error',
      skill: '.',
      rule: 'no-skills',
      message: `no SKILL.md found in ${quotePath(root)} or its sub-folders: a skill is a folder holding a SKILL.md file`,
    });
  }
  const memo = options.memo;
  memo?.begin(new Set(found.map((f) => f.abs)));
  const loaded = await pMap(found, (f) => (memo ? memo.load(f, opts, loadSkill) : loadSkill(f, opts)), 16);
  for (const result of loaded) problems.push(...result.problems);
  const precedence = options.precedence ?? [];
  const rank = precedenceRank(precedence);
  problems.push(...unmatchedPrecedence(precedence, rank, found));
  const skills = uniqueNames(loaded, problems, rank);
  return { skills, problems: sortProblems(problems) };
}

export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(
    (a, b) => byCodeUnit(a.skill, b.skill) || byCodeUnit(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0),
  );
}

const folderOf = (skill: Skill): string => (skill.source.kind === 'local' ? skill.source.dir : skill.id);

/** Identity of a skill's content: every listed file's path and sha256. */
const contentDigest = (skill: Skill): string => skillDigest(skill.files);

/** The index of the `skills.precedence` entry holding a skill folder (`/`-separated, as found; `length` when none does). */
type PrecedenceRank = (folder: string) => number;

function precedenceRank(precedence: readonly string[]): PrecedenceRank {
  const entries = precedence.map((f) => f.replace(/\/+$/, ''));
  return (folder) => {
    const i = entries.findIndex((e) => folder === e || folder.startsWith(`${e}/`));
    return i < 0 ? entries.length : i;
  };
}

/** A `skills.precedence` entry that holds no skill is a typo or a source since removed. */
function unmatchedPrecedence(
  precedence: readonly string[],
  rank: PrecedenceRank,
  found: readonly { rel: string }[],
): Problem[] {
  const used = new Set(found.map((f) => rank(f.rel)));
  return precedence.flatMap((entry, i) =>
    used.has(i)
      ? []
      : [
          {
            severity: 'warning' as const,
            skill: '.',
            field: 'skills.precedence',
            rule: 'precedence-folder',
            message: `skills.precedence lists ${quotePath(entry)}, which holds no skill (or only skills an earlier entry holds): check the folder's name, relative to the skills folder`,
          },
        ],
  );
}

/**
 * One skill per name: copies are dropped with a warning, clashes are errors unless
 * `skills.precedence` settles them. The first in precedence, then path order, keeps the name;
 * the kept skills come back in path order (the order loaded results come in).
 */
function uniqueNames(loaded: readonly LoadResult[], problems: Problem[], rank: PrecedenceRank): Skill[] {
  const first = new Map<string, { skill: Skill; digest: string; rank: number; copies: string[] }>();
  const ranked = loaded
    .filter((r): r is LoadResult & { skill: Skill } => r.skill !== undefined)
    .map((r) => ({ ...r, rank: rank(folderOf(r.skill)) }))
    .sort((a, b) => a.rank - b.rank); // stable: path order within a rank
  for (const { skill, nameLine, rank: skillRank } of ranked) {
    const digest = contentDigest(skill);
    const kept = first.get(skill.id);
    if (!kept) first.set(skill.id, { skill, digest, rank: skillRank, copies: [] });
    else if (kept.digest === digest) kept.copies.push(folderOf(skill));
    else problems.push(nameClash(skill, nameLine, digest, kept, kept.rank < skillRank));
  }
  for (const { skill, copies } of first.values()) {
    if (copies.length === 0) continue;
    problems.push({
      severity: 'warning',
      skill: folderOf(skill),
      file: SKILL_FILE,
      rule: 'duplicate-copy',
      message: `"${skill.id}" is committed ${copies.length + 1} times with the same files (every path and sha256): ${copies.map((c) => `"${c}"`).join(', ')} ${copies.length === 1 ? 'is a copy' : 'are copies'} of this one and ${copies.length === 1 ? 'is' : 'are'} left out; remove the copies, or keep them in sync`,
    });
  }
  const keptSkills = new Set([...first.values()].map((k) => k.skill));
  return loaded.flatMap((r) => (r.skill && keptSkills.has(r.skill) ? [r.skill] : []));
}

/** The problem of a skill left out because another with other content has its name. */
function nameClash(
  skill: Skill,
  nameLine: number | undefined,
  digest: string,
  kept: { skill: Skill; digest: string },
  byPrecedence: boolean,
): Problem {
  const name = `name "${skill.id}"${skill.title ? ` (written "${skill.title}", normalized)` : ''}`;
  const both = `the skill in "${folderOf(kept.skill)}" (content ${kept.digest}); this one has different content (${digest})`;
  const where = { skill: folderOf(skill), file: SKILL_FILE, line: nameLine, field: 'name' };
  if (byPrecedence)
    return {
      severity: 'warning',
      ...where,
      rule: 'name-shadowed',
      message: `${name} is also used by ${both}; skills.precedence puts that folder first, so it keeps the name and this one is left out: rename this one to publish both`,
    };
  return {
    severity: 'error',
    ...where,
    related: folderOf(kept.skill),
    rule: 'name-unique',
    message:
      `${name} is already used by ${both}: ` +
      'names must be unique in a catalog, so this one is left out; rename one of them (and its folder), make them the same, or list the folder whose skill should keep the name in skills.precedence',
  };
}
