/**
 * createSkill / updateSkill / rollbackSkill: a skill folder written whole or not at all.
 *
 * Every write runs under the skill's lock (lock.ts), builds the new version in a staging folder
 * beside the skills folder (`<parent>/.skillpress/staging-…`, same file system, so the final step
 * is a rename), loads the staged skill with the loader's rules (anything the build would refuse is
 * refused here, named by file, field and rule), swaps it in, and records the version (history.ts).
 * Files come in checked (files.ts); while writing, no path may pass through a link.
 */
import { cp, lstat, mkdir, mkdtemp, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadCatalog } from '../load/index.ts';
import { SKILL_FILE, findSkills, folderNotWalked } from '../load/find-skills.ts';
import { parseSkillMarkdown } from '../load/frontmatter.ts';
import { checkName, suggestName } from '../load/validate.ts';
import { DEFAULT_IGNORE, ignoreMatcher } from '../lib/ignore.ts';
import { InvalidInputError, NotFoundError, UnsafePathError, errorMessage } from '../lib/errors.ts';
import { nearNames } from '../lib/near-names.ts';
import { quotePath } from '../lib/paths.ts';
import { SkillpressConfig } from '../model/config.ts';
import type { Skill } from '../model/skill.ts';
import { describeChanges } from './changes.ts';
import { authoredPathProblem, decodeFiles, checkRemovals, type AuthoredFile } from './files.ts';
import {
  committedAsIs,
  ensureStateDir,
  gitIgnoredBy,
  listVersions,
  recordVersion,
  stateDir,
  versionFiles,
  type SkillVersion,
} from './history.ts';
import { withLock } from './lock.ts';
import { loadStaged, snapshot, startingPoint } from './staged.ts';
import { configDisables } from '../enable/index.ts';
import { composeSkillMarkdown, editSkillMarkdown, nextVersion, versionAfter, versionOf } from './skill-md.ts';
import type { DuplicateIndex, DuplicateMatch } from './duplicate.ts';

/** What every authoring call takes: where the skills are, and the config whose loader rules apply. */
export interface AuthorContext {
  /** The skills folder. */
  skills: string;
  /** Parsed config (default: defaults). Its `skills` limits and ignore rules apply. */
  config?: SkillpressConfig;
}

export interface CreateSkillInput extends AuthorContext {
  /** Default: made from the body's first heading, else the description (the loader's normalization). */
  name?: string;
  description: string;
  body: string;
  files?: AuthoredFile[];
  /** Extra `metadata` fields (strings); `version` is set by skillpress. */
  metadata?: Record<string, string>;
  /** The catalog to check for duplicates (default: the skills folder, loaded); false: no check. */
  duplicates?: DuplicateIndex | false;
  /** A group folder inside the skills folder to create the skill in (`engineering`, made when missing); default: the top. */
  folder?: string;
}

export interface CreateSkillResult {
  name: string;
  /** False when the skill duplicates an existing one: nothing was written, `name` is the existing skill's. */
  created: boolean;
  version?: string;
  /** The skill's folder (absolute). */
  path?: string;
  duplicate?: DuplicateMatch;
  /** The recorded version, with its digest and commit. */
  recorded?: SkillVersion;
}

export interface UpdateSkillInput extends AuthorContext {
  name: string;
  body?: string;
  description?: string;
  files?: AuthoredFile[];
  remove_files?: string[];
  /** What the agent changed and why: recorded with the version's changes. */
  feedback?: string;
  /** The version the change was made against: a newer one on disk is a conflict. */
  base_version?: string;
}

export interface UpdateSkillResult {
  name: string;
  version: string;
  previous_version: string | undefined;
  changes: string[];
  path: string;
  recorded: SkillVersion;
}

/**
 * A write that cannot apply because the skill moved on: the message names the current version.
 *
 * @example
 * ```ts
 * import { updateSkill, VersionConflictError } from 'skillpress';
 * try {
 *   await updateSkill({ skills: 'skills', name: 'refund-approval', body: '# Refunds\n…', base_version: '3' });
 * } catch (err) {
 *   if (err instanceof VersionConflictError) console.log('now at', err.current);
 * }
 * ```
 */
export class VersionConflictError extends InvalidInputError {
  readonly current: string | undefined;
  constructor(name: string, base: string, current: string | undefined) {
    super(
      `Skill "${name}" is at version ${current ?? '1 (unversioned)'}, not ${base}: another update came first. Read it again (view_skill), apply your change to version ${current ?? '1'} and pass base_version "${current ?? '1'}".`,
      { rule: 'version-conflict' },
    );
    this.current = current;
  }
}

const configOf = (ctx: AuthorContext): SkillpressConfig => ctx.config ?? SkillpressConfig.parse({});
const lockFile = (ctx: AuthorContext, name: string) =>
  path.join(stateDir(ctx.skills), 'locks', `${path.basename(path.resolve(ctx.skills))}--${name}.lock`);

/**
 * Creates a skill folder `<skills>/<name>/` holding SKILL.md and `files`, as version 1: checked
 * with the loader's rules, the path rule and the duplicate check (`created: false` with the
 * existing skill's name), written whole, and recorded (a git commit, or the version store).
 *
 * @example
 * ```ts
 * import { createSkill } from 'skillpress';
 * const made = await createSkill({ skills: 'skills', description: 'Refund a double charge.', body: '# Refunds\n…' });
 * console.log(made.created, made.name, made.version); // true 'refund-a-double-charge' '1'
 * ```
 */
export async function createSkill(input: CreateSkillInput): Promise<CreateSkillResult> {
  const config = configOf(input);
  const description = requireText(input.description, 'description');
  const body = requireText(input.body, 'body');
  refuseFrontMatterInBody(body);
  const name = skillNameFor(input.name, body, description);
  const files = decodeFiles(input.files ?? [], limitsOf(config));
  const metadata = { ...stringMap(input.metadata ?? {}, 'metadata'), version: '1' };
  const parent = await groupFolder(input.skills, input.folder, config);
  await refuseGitIgnored(input.skills, input.folder, path.join(parent, name));
  return withLock(lockFile(input, name), `Skill "${name}"`, async () => {
    const target = path.join(parent, name);
    const taken = (await exists(target)) ? target : await findSkillFolder(input.skills, name);
    if (taken) throw alreadyExists(input.skills, name, taken);
    return inStaging(input, name, async (staged) => {
      await mkdir(staged);
      await writeFile(path.join(staged, SKILL_FILE), composeSkillMarkdown({ name, description, body, metadata }));
      await writeFiles(staged, files);
      const { skill } = await loadStaged(staged, name, config);
      refuseDisabled(skill, config, 'new');
      const index = input.duplicates === undefined ? await defaultIndex(input, config) : input.duplicates;
      // A skill whose folder has another name can hold the name too: two would fail the build's unique-name rule.
      const named = index ? index.folderOf(name) : undefined;
      if (named !== undefined) throw alreadyExists(input.skills, name, path.join(path.resolve(input.skills), named));
      const duplicate = index ? index.find(skill) : undefined;
      if (duplicate) return { name: duplicate.name, created: false, duplicate };
      const recorded = await placeNew(input.skills, name, staged, target, skill);
      if (index) index.put(skill);
      return { name, created: true, version: '1', path: target, recorded };
    });
  });
}

/**
 * Refuses to write a skill the config disables: it would be written and committed, yet never
 * served, and the agent would not know why. Says what disables it and how to enable it.
 */
function refuseDisabled(skill: Skill, config: SkillpressConfig, which: 'new' | 'existing'): void {
  const off = configDisables(skill, config);
  if (!off) return;
  const message =
    which === 'new'
      ? `Skill "${skill.id}" would be disabled in this catalog (${off.by} in the config), so it would never be served: choose another name, or enable it first (${off.enable}); nothing was written`
      : `Skill "${skill.id}" is disabled in this catalog (${off.by} in the config), so it is not served: enable it first (${off.enable}); nothing was written`;
  throw new InvalidInputError(message, { rule: 'disabled' });
}

/**
 * Moves a new skill in and records it. When recording fails (git refuses the commit), what this
 * write made is removed again: a skill on disk with no recorded version is half-written.
 */
async function placeNew(skills: string, name: string, staged: string, target: string, skill: Skill) {
  const made = await mkdir(path.dirname(target), { recursive: true });
  await rename(staged, target);
  try {
    return await recordVersion(skills, name, { ...versionOf1(skill), dir: target });
  } catch (err) {
    await rm(target, { recursive: true, force: true });
    // Group folders made for it go too, while empty (another write may have put a skill there since).
    for (let at = path.dirname(target); made && isInsideOrSame(at, made); at = path.dirname(at))
      await rmdir(at).catch(() => undefined);
    throw notRecorded(name, '1', err);
  }
}

const isInsideOrSame = (p: string, dir: string): boolean => p === dir || p.startsWith(dir + path.sep);

/** A write that could not be recorded, undone: one line, git's reason included. */
const notRecorded = (name: string, version: string, err: unknown): Error =>
  new Error(`version ${version} of "${name}" could not be recorded (${errorMessage(err)}); nothing was written`, {
    cause: err,
  });

const versionOf1 = (skill: Skill) => ({
  version: '1',
  date: new Date().toISOString(),
  digest: skill.digest,
  changes: ['created'],
});

/**
 * Applies a change to an existing skill and raises its version (metadata.version: integer + 1,
 * or semver patch + 1); answers the changes. With `base_version`, a newer version on disk is a
 * {@link VersionConflictError}; without it, updates to one skill are serialized.
 *
 * @example
 * ```ts
 * import { updateSkill } from 'skillpress';
 * const { version, changes } = await updateSkill({ skills: 'skills', name: 'refund-approval', body: '# Refunds\n…' });
 * console.log(version, changes); // '4' [ 'body: section "Steps" changed' ]
 * ```
 */
export async function updateSkill(input: UpdateSkillInput): Promise<UpdateSkillResult> {
  // The skill first: a misspelled name is the mistake to name, whatever else the call lacks.
  const dir = await skillFolder(input.skills, input.name);
  const config = configOf(input);
  if (input.description !== undefined) requireNonEmpty(input.description, 'description');
  if (input.body !== undefined) requireNonEmpty(input.body, 'body');
  if (input.body !== undefined) refuseFrontMatterInBody(input.body);
  const files = decodeFiles(input.files ?? [], limitsOf(config));
  const removals = checkRemovals(input.remove_files ?? [], config.skills.ignore);
  if (input.body === undefined && input.description === undefined && files.length === 0 && removals.length === 0)
    throw new InvalidInputError('nothing to change: pass body, description, files or remove_files', {
      rule: 'empty-update',
    });
  return withLock(lockFile(input, input.name), `Skill "${input.name}"`, () =>
    afterKeeping(input, dir, config, async (staged, current, before) => {
      if (before) refuseDisabled(before, config, 'existing');
      checkBaseVersion(input.name, input.base_version, current);
      for (const p of removals) await removeFile(staged, p);
      await writeFiles(staged, files);
      return { description: input.description, body: input.body, feedback: input.feedback };
    }),
  );
}

/**
 * `base` against the version on disk (`current`; none written is 1): an older one is a
 * {@link VersionConflictError} (another update came first); one after it, or no version at all,
 * was never written, and saying "another update came first" would send the agent looking for it.
 */
function checkBaseVersion(name: string, base: string | undefined, current: string | undefined): void {
  const at = current ?? '1';
  if (base === undefined || String(base) === at) return;
  if (versionAfter(String(base), at) === false) throw new VersionConflictError(name, String(base), current);
  throw new InvalidInputError(
    `base_version "${String(base)}": skill "${name}" has no such version; its current version is ${at}${current === undefined ? ' (unversioned)' : ''}. Read it (view_skill), apply your change to version ${at} and pass base_version "${at}".`,
    { rule: 'unknown-version' },
  );
}

/**
 * Restores an earlier version's files as a new version (the version counter keeps counting up).
 *
 * @example
 * ```ts
 * import { rollbackSkill } from 'skillpress';
 * const restored = await rollbackSkill({ skills: 'skills', name: 'refund-approval', version: '2' });
 * console.log(restored.version); // the next version, holding version 2's files
 * ```
 */
export async function rollbackSkill(
  ctx: AuthorContext & { name: string; version: string },
): Promise<UpdateSkillResult> {
  const config = configOf(ctx);
  const dir = await skillFolder(ctx.skills, ctx.name);
  const old = await versionFiles(ctx.skills, ctx.name, dir, ctx.version);
  const oldSkillMd = old.get(SKILL_FILE);
  if (!oldSkillMd) throw new InvalidInputError(`version ${ctx.version} of "${ctx.name}" holds no SKILL.md`);
  return withLock(lockFile(ctx, ctx.name), `Skill "${ctx.name}"`, () =>
    afterKeeping(ctx, dir, config, async (staged) => {
      await rm(staged, { recursive: true, force: true });
      await mkdir(staged);
      await writeFiles(
        staged,
        [...old].map(([p, bytes]) => ({ path: p, bytes })),
      );
      return { feedback: `rolled back to version ${ctx.version}` };
    }),
  );
}

interface Edit {
  description?: string;
  body?: string;
  feedback?: string;
  /** Said of the change in place of the differences (a version that only records what is on disk). */
  note?: string;
}

/** Edits the staged copy; `before` is the skill as it loaded (undefined: it did not load, and the edit may repair it). */
type Editor = (staged: string, current: string | undefined, before: Skill | undefined) => Promise<Edit>;

/** `edit` as a new version, once what is on disk is a recorded version, or will be (`unrecorded`). */
async function afterKeeping(
  ctx: AuthorContext,
  dir: string,
  config: SkillpressConfig,
  edit: Editor,
): Promise<UpdateSkillResult> {
  const onDisk = await unrecorded(ctx, dir, config);
  const result = await rewrite(ctx, dir, config, edit, onDisk.record);
  return { ...result, previous_version: result.previous_version ?? onDisk.version };
}

/** What is on disk: its recorded version, if any, and how to record it when it is not yet. */
interface OnDisk {
  version: string;
  /** Records it as `version`: run once the change passed every check, just before it replaces the files. */
  record?: () => Promise<unknown>;
}

/**
 * What is on disk becomes a recorded version before a change replaces it, so no update or
 * rollback loses it: a skill never recorded (hand-written, or edited and given a version by
 * hand) is recorded as it is, once the change passed its checks (a refused change writes
 * nothing); one edited by hand since its version was recorded, under the same version, is
 * recorded as the next version at once, so an update made against the version before conflicts,
 * as with another agent's update. Left as it is: a skill that git's history holds as it is and
 * that skillpress never recorded (listed as the version before the first recorded one).
 */
async function unrecorded(ctx: AuthorContext, dir: string, config: SkillpressConfig): Promise<OnDisk> {
  const name = path.basename(dir);
  const [versions, current, onDisk] = await Promise.all([
    listVersions(ctx.skills, name, dir),
    readFile(path.join(dir, SKILL_FILE), 'utf8').then(versionOf),
    digestOnDisk(ctx, dir, config),
  ]);
  const label = current ?? '1';
  const recorded = versions.find((v) => v.version === label);
  if (recorded?.digest === onDisk) return { version: label };
  if (recorded) return { version: (await recordHandEdit(ctx, dir, config, label, versions)).version };
  // git holds it: listed from then on as the version before the first recorded one (listVersions).
  if (await committedAsIs(dir)) return { version: label };
  const changes = [versions.length > 0 ? 'written outside skillpress' : 'as written before the first update'];
  const date = new Date().toISOString();
  return {
    version: label,
    record: () => recordVersion(ctx.skills, name, { version: label, date, digest: onDisk, changes, dir }),
  };
}

/** A skill edited by hand under a recorded version: recorded as the next version, its files as they are. */
async function recordHandEdit(
  ctx: AuthorContext,
  dir: string,
  config: SkillpressConfig,
  label: string,
  versions: readonly SkillVersion[],
): Promise<UpdateSkillResult> {
  const next = nextVersion(label);
  if (versions.some((v) => v.version === next))
    throw new InvalidInputError(
      `${quotePath(path.join(dir, SKILL_FILE))} was edited since version ${label} was recorded, and version ${next} is recorded already: set metadata.version above the latest (${versions[0]!.version}) and try again; nothing was written`,
      { rule: 'version-taken' },
    );
  return rewrite(ctx, dir, config, async () => ({ note: `edited outside skillpress after version ${label}` }));
}

/** The content digest of the skill in `dir` as the loader computes it (what versions record). */
function digestOnDisk(ctx: AuthorContext, dir: string, config: SkillpressConfig): Promise<string> {
  return inStaging(ctx, path.basename(dir), async (staged) => {
    await cp(dir, staged, { recursive: true, verbatimSymlinks: true });
    return (await startingPoint(staged, path.basename(dir), config)).digest;
  });
}

/** The shared update path: copy, edit, set the next version, validate, swap, record. */
async function rewrite(
  ctx: AuthorContext,
  dir: string,
  config: SkillpressConfig,
  edit: Editor,
  beforeSwap?: () => Promise<unknown>,
): Promise<UpdateSkillResult> {
  const name = path.basename(dir);
  return inStaging(ctx, name, async (staged) => {
    await cp(dir, staged, { recursive: true, verbatimSymlinks: true });
    const before = await startingPoint(staged, name, config);
    const current = versionOf(await readFile(path.join(dir, SKILL_FILE), 'utf8'));
    const change = await edit(staged, current, before.skill);
    const version = nextVersion(current);
    const skillMd = path.join(staged, SKILL_FILE);
    await writeFile(
      skillMd,
      editSkillMarkdown(await readFile(skillMd, 'utf8'), { ...change, version }, `${name}/SKILL.md`),
    );
    const after = await loadStaged(staged, name, config, before.strictErrors);
    // A skill that did not load before could not be checked against the config until now.
    if (!before.skill) refuseDisabled(after.skill, config, 'existing');
    const changes = change.note ? [change.note] : describeChanges(before.snapshot, snapshot(after.skill));
    if (change.feedback) changes.push(`feedback: ${oneLine(change.feedback)}`);
    await beforeSwap?.();
    const previous = await swapIn(staged, dir);
    const recorded = await recordVersion(ctx.skills, name, {
      version,
      date: new Date().toISOString(),
      digest: after.skill.digest,
      changes,
      dir,
    }).catch(async (err: unknown) => {
      // Not recorded, so not written: the previous version's files come back.
      await swapIn(previous, dir);
      throw notRecorded(name, version, err);
    });
    return { name, version, previous_version: current, changes, path: dir, recorded };
  });
}

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
};

/** Runs `work` on `<staging>/<name>` and removes the staging folder afterwards, whatever happened. */
async function inStaging<T>(ctx: AuthorContext, name: string, work: (staged: string) => Promise<T>): Promise<T> {
  const state = await ensureStateDir(ctx.skills);
  const staging = await mkdtemp(path.join(state, 'staging-'));
  try {
    return await work(path.join(staging, name));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Replaces `dir` with `staged`: two renames; if the second fails, the first is undone. Answers
 * where the old folder went (in the staging folder, removed with it), to swap back.
 */
async function swapIn(staged: string, dir: string): Promise<string> {
  const old = `${staged}.previous`;
  await rename(dir, old);
  try {
    await rename(staged, dir);
  } catch (err) {
    await rename(old, dir);
    throw err;
  }
  return old;
}

/** Writes decoded files below `root`, never through a link: every existing folder on the way is checked. */
async function writeFiles(root: string, files: ReadonlyArray<{ path: string; bytes: Buffer }>): Promise<void> {
  for (const f of files) {
    const target = await safeTarget(root, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    const st = await lstat(target).catch(() => undefined);
    if (st?.isDirectory())
      throw new UnsafePathError(`path ${quotePath(f.path)} is a folder of the skill; nothing was written`);
    if (st) await unlink(target);
    await writeFile(target, f.bytes, { flag: 'wx' });
  }
}

async function removeFile(root: string, rel: string): Promise<void> {
  const target = await safeTarget(root, rel);
  const st = await lstat(target).catch(() => undefined);
  if (!st || st.isDirectory())
    throw new NotFoundError(`remove_files: ${quotePath(rel)} is not a file of the skill; nothing was written`);
  await unlink(target);
}

/**
 * The folder a new skill goes in: the skills folder, or `folder` inside it — a path the loader
 * publishes and walks into, through no link, and not inside a skill (the loader would take the
 * new one for a stray folder of that skill).
 */
export async function groupFolder(
  skills: string,
  folder: string | undefined,
  config: SkillpressConfig,
): Promise<string> {
  const root = path.resolve(skills);
  const rel = folder?.replace(/\/+$/, '');
  if (!rel) return root;
  const problem = authoredPathProblem(rel, config.skills.ignore, true) ?? unservedFolder(root, rel, config);
  if (problem) throw new UnsafePathError(`folder: ${problem}; nothing was written`, { rule: 'path' });
  const dir = await safeTarget(root, `${rel}/${SKILL_FILE}`).then(path.dirname);
  for (let at = dir; at !== root; at = path.dirname(at))
    if (await exists(path.join(at, SKILL_FILE)))
      throw new InvalidInputError(
        `folder ${quotePath(rel)} is inside the skill ${quotePath(await skillNameIn(at))} (${quotePath(path.relative(root, at))}): choose a group folder, not a skill's; nothing was written`,
        { rule: 'nested-skill' },
      );
  return dir;
}

/**
 * Why a skill in the group folder `rel` would never be served: a folder on the way is one the
 * loader does not walk into (its own rule, folderNotWalked), or the skill would lie deeper than
 * skills.max_depth.
 */
function unservedFolder(root: string, rel: string, config: SkillpressConfig): string | undefined {
  const ignore = ignoreMatcher(config.skills.ignore);
  const segments = rel.split('/');
  for (const [i, name] of segments.entries()) {
    const why = folderNotWalked(ignore, path.join(root, ...segments.slice(0, i + 1)), name);
    if (why) return `path ${quotePath(rel)} has "${name}", ${why}: a skill there would never be served`;
  }
  const depth = segments.length + 1;
  if (depth > config.skills.max_depth)
    return `path ${quotePath(rel)} would put the skill ${depth} levels deep, deeper than skills.max_depth (${config.skills.max_depth}): it would never be loaded`;
  return undefined;
}

/** The name of the skill in `dir`: its front matter's, else its folder's. */
async function skillNameIn(dir: string): Promise<string> {
  const parsed = parseSkillMarkdown(await readFile(path.join(dir, SKILL_FILE), 'utf8').catch(() => ''));
  const name = parsed.ok ? parsed.data.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : path.basename(dir);
}

/**
 * Refuses a skill folder git would ignore: the commit recording it would fail, or leave it out,
 * and the skill would stay on disk with no version. Named by the field that put it there.
 */
export async function refuseGitIgnored(skills: string, folder: string | undefined, target: string): Promise<void> {
  const rule = await gitIgnoredBy(skills, path.join(target, SKILL_FILE));
  if (!rule) return;
  const what = folder ? `folder ${quotePath(folder)}` : `skill ${quotePath(path.basename(target))}`;
  throw new InvalidInputError(
    `${what} is ignored by git (${rule}): a skill there would never be committed; nothing was written`,
    { rule: 'git-ignored' },
  );
}

/** `root/rel`, refusing a path whose folders include a link (which could lead out of the skill). */
async function safeTarget(root: string, rel: string): Promise<string> {
  const segments = rel.split('/');
  let at = root;
  for (const segment of segments.slice(0, -1)) {
    at = path.join(at, segment);
    const st = await lstat(at).catch(() => undefined);
    if (!st) break;
    if (st.isSymbolicLink())
      throw new UnsafePathError(
        `path ${quotePath(rel)} goes through a link (${quotePath(segment)}); nothing was written`,
        {
          rule: 'link',
        },
      );
    if (!st.isDirectory())
      throw new UnsafePathError(
        `path ${quotePath(rel)}: ${quotePath(segment)} is a file, not a folder; nothing was written`,
      );
  }
  return path.join(root, ...segments);
}

/**
 * A skill the skills folder does not hold. `near` are the skill folders' names close to it, so
 * each caller (an agent's tool result, the command line) can suggest them in its own words.
 */
export class UnknownSkillError extends NotFoundError {
  readonly skill: string;
  readonly near: readonly string[];
  constructor(skill: string, near: readonly string[]) {
    const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
    super(`Skill "${skill}" not found.${hint} Use skills_search to find the correct name.`, { rule: 'unknown-skill' });
    this.skill = skill;
    this.near = near;
  }
}

/** The folder of the skill called `name`: `<skills>/<name>`, else a folder of that name at any depth. */
export async function skillFolder(skills: string, name: string): Promise<string> {
  const root = path.resolve(skills);
  const valid = name.length > 0 && checkName(name, undefined).length === 0;
  if (valid && (await exists(path.join(root, name, SKILL_FILE)))) return path.join(root, name);
  const found = await skillFolders(root);
  const match = valid ? found.find((dir) => path.basename(dir) === name) : undefined;
  if (match) return match;
  const misfiled = valid ? await folderNaming(found, name) : undefined;
  if (misfiled) throw nameMismatch(root, misfiled, name);
  throw new UnknownSkillError(
    name,
    nearNames(
      name,
      found.map((dir) => path.basename(dir)),
    ),
  );
}

/** The folder among `folders` whose SKILL.md names the skill `name` (a folder named otherwise). */
async function folderNaming(folders: readonly string[], name: string): Promise<string | undefined> {
  for (const dir of folders) {
    const raw = await readFile(path.join(dir, SKILL_FILE), 'utf8').catch(() => '');
    const parsed = parseSkillMarkdown(raw);
    if (parsed.ok && parsed.data.name === name) return dir;
  }
  return undefined;
}

/**
 * A skill published under the name its SKILL.md gives, in a folder named otherwise: a write goes
 * by the folder, and the loader by the name, so neither finds it until they match.
 */
function nameMismatch(root: string, dir: string, name: string): InvalidInputError {
  const shown = path.join(path.basename(root), path.relative(root, dir), SKILL_FILE);
  return new InvalidInputError(
    `Skill "${name}" is in the folder "${path.basename(dir)}", whose name differs (rule name-matches-folder): rename the folder to "${name}", or set name: ${path.basename(dir)} in ${quotePath(shown)}, then update it; nothing was written`,
    { rule: 'name-matches-folder' },
  );
}

/** Every skill folder under `root` (absolute), as deep as `skillFolder` looks. */
export const skillFolders = async (root: string): Promise<string[]> =>
  (await findSkills(root, { ignore: ignoreMatcher(DEFAULT_IGNORE), maxDepth: 8 }, [])).map((f) => f.abs);

/** A skill folder called `name` at any depth below `skills`, if there is one. */
export async function findSkillFolder(skills: string, name: string): Promise<string | undefined> {
  return (await skillFolders(path.resolve(skills))).find((dir) => path.basename(dir) === name);
}

/** Refuses a name the catalog already holds, naming its folder inside the skills folder (an agent has no use for the server's absolute paths). */
function alreadyExists(skills: string, name: string, folder: string): InvalidInputError {
  const root = path.resolve(skills);
  const shown = path.join(path.basename(root), path.relative(root, folder));
  return new InvalidInputError(
    `Skill "${name}" already exists (${quotePath(shown)}). Use update_skill to change it, or choose another name.`,
    { rule: 'exists' },
  );
}

/** The name to create under: the given one if valid (else refused with the suggestion), or one made from the text. */
export function skillNameFor(name: string | undefined, body: string, description: string): string {
  if (name !== undefined) {
    const problems = checkName(name, undefined);
    if (name === '') throw new InvalidInputError('name must not be empty (or leave it out to have one made)');
    if (problems.length > 0)
      throw new InvalidInputError(problems.map((p) => `[${p.rule}] ${p.message}`).join('; '), {
        rule: problems[0]!.rule,
      });
    return name;
  }
  const heading = /^#{1,2}\s+(.+)$/m.exec(body)?.[1];
  const source = heading ?? description.split(/\s+/).slice(0, 6).join(' ');
  const made = suggestName(source) ?? (checkName(source, undefined).length === 0 ? source : undefined);
  if (!made) throw new InvalidInputError('name is required: no name could be made from the body or description');
  return made;
}

function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidInputError(`${field} is required`);
  return value;
}

/**
 * A body that opens with a front matter block: a whole SKILL.md passed as the body. It would be
 * written below the real front matter as text, its fields read by no one.
 */
function refuseFrontMatterInBody(body: string): void {
  if (/^\s*---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.test(body))
    throw new InvalidInputError(
      'body opens with a front matter block ("---" lines): pass only the markdown after it; name, description and metadata are fields of their own; nothing was written',
      { rule: 'body-front-matter' },
    );
}

/** An optional field given empty: not "required" (it is not), but not a text to write either. */
function requireNonEmpty(value: unknown, field: string): void {
  if (typeof value !== 'string') throw new InvalidInputError(`${field} must be a string`);
  if (value.trim() === '')
    throw new InvalidInputError(`${field} is empty: pass the new ${field}, or leave ${field} out to keep it as it is`);
}

function stringMap(map: Record<string, unknown>, field: string): Record<string, string> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(map)) {
    if (k === 'version') continue;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new InvalidInputError(`${field}.${k} must be a string`);
    out.push([k, String(v)]);
  }
  // fromEntries defines own properties: a key "__proto__" stays a key.
  return Object.fromEntries(out);
}

const limitsOf = (config: SkillpressConfig) => ({
  maxFileBytes: config.skills.max_file_bytes,
  ignore: config.skills.ignore,
});

const exists = (p: string): Promise<boolean> =>
  lstat(p).then(
    () => true,
    () => false,
  );

/** The default duplicate check: the skills folder as the build loads it, and the meaning model. */
async function defaultIndex(ctx: AuthorContext, config: SkillpressConfig): Promise<DuplicateIndex> {
  const [{ DuplicateIndex }, { loadEmbedder }] = await Promise.all([
    import('./duplicate.ts'),
    import('../semantic/load.ts'),
  ]);
  const catalog = await loadCatalog(ctx.skills, {
    ignore: config.skills.ignore,
    maxFileBytes: config.skills.max_file_bytes,
    maxDepth: config.skills.max_depth,
    precedence: config.skills.precedence,
  });
  return new DuplicateIndex(catalog.skills, {
    nearThreshold: config.duplicates.near_threshold,
    embedder: await loadEmbedder(),
  });
}
