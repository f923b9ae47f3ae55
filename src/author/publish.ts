/**
 * What the build publishes of the versions the authoring calls recorded (history.ts): each
 * local skill's history (attached to the Skill), and the files of an earlier version, for its
 * archive. One `git log` for the whole skills folder, or one listing of the version store. And
 * when each local skill last changed, from its commits (`datesFromCommits`).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Skill, SkillVersionEntry } from '../model/skill.ts';
import {
  committedTimes,
  gitLog,
  gitTopLevel,
  listVersions,
  shallowCommits,
  stateDir,
  versionFiles,
} from './history.ts';

const FIELD = '\x1f';
const RECORD = '\x1e';

/** Files of one version of a local skill (path → bytes). */
export type VersionFiles = (skill: Skill, version: string) => Promise<Map<string, Buffer>>;

/**
 * Sets `history` on every local skill that has recorded versions; returns how to read a version's
 * files. `log` hears when the history is cut short (a shallow git checkout).
 */
export async function attachHistories(
  skills: readonly Skill[],
  skillsRoot: string,
  registry: string,
  log: (line: string) => void = () => {},
): Promise<VersionFiles> {
  const root = path.resolve(skillsRoot);
  const local = skills.filter((s) => s.source.kind === 'local');
  const top = await gitTopLevel(root);
  if (top && (await shallowCommits(top).catch(() => new Set())).size > 0)
    log(
      `build: ${top} is a shallow git checkout: skill versions committed before its first commit are not published, ` +
        'and a skill last changed before it is dated by it (updated_at) unless the previous build has it unchanged; ' +
        'check out the whole history (actions/checkout with fetch-depth: 0)',
    );
  const found = top ? await gitHistories(top, root) : await storeHistories(root, local);
  for (const skill of local) {
    const entries = found.get(skill.id);
    if (entries?.length) skill.history = { registry, entries };
  }
  return (skill, version) => {
    const dir = skill.source.kind === 'local' ? path.join(root, skill.source.dir) : root;
    return versionFiles(root, skill.id, dir, version);
  };
}

/**
 * Dates each local skill whose folder has nothing uncommitted by its last commit (`updated_at`,
 * capped by `sourceDateEpoch` as the loader caps mtimes): a CI checkout gives every file the
 * checkout's time, which would date every skill by the last push and change every skill's JSON
 * on every build. Skills with uncommitted files, and all skills outside git, keep their mtimes.
 * Returns the ids it dated.
 * `ignore`: the skills' ignore rules (`skills.ignore`): files they keep out of the feed date nothing.
 */
export async function datesFromCommits(
  skills: readonly Skill[],
  skillsRoot: string,
  sourceDateEpoch: number | undefined,
  ignore?: readonly string[],
): Promise<Set<string>> {
  const local = skills.flatMap((s) => (s.source.kind === 'local' ? [{ skill: s, dir: s.source.dir }] : []));
  const times = await committedTimes(
    skillsRoot,
    local.map((l) => l.dir),
    ignore,
  );
  const dated = new Set<string>();
  for (const { skill, dir } of local) {
    const at = times.get(dir);
    if (at === undefined) continue;
    skill.updated_at = new Date(Math.min(at, sourceDateEpoch ?? Infinity) * 1000).toISOString();
    dated.add(skill.id);
  }
  return dated;
}

/**
 * A local skill that no commit dated (outside git, in a shallow clone's first commit) and whose
 * content is the previous build's keeps the previous build's `updated_at`, when that is earlier:
 * its files' mtimes are only when they were last written (a CI checkout, a copy), not when the
 * skill changed. `previous` is the previous feed's cards (checked ISO dates, see changes.ts).
 */
export function keepUnchangedDates(
  skills: readonly Skill[],
  previous: ReadonlyArray<{ id: string; digest: string; updated_at: string }>,
  dated: ReadonlySet<string>,
): void {
  const before = new Map(previous.map((card) => [card.id, card]));
  for (const skill of skills) {
    const card = before.get(skill.id);
    if (skill.source.kind !== 'local' || dated.has(skill.id) || card?.digest !== skill.digest) continue;
    const at = Date.parse(card.updated_at);
    if (at >= 0 && at < Date.parse(skill.updated_at)) skill.updated_at = new Date(at).toISOString();
  }
}

/** Every skillpress commit under the skills folder, by skill name (from the subject `skill <name>: version <v>`). */
async function gitHistories(top: string, root: string): Promise<Map<string, SkillVersionEntry[]>> {
  const rel = path.relative(top, root).split(path.sep).join('/') || '.';
  const stdout = await gitLog(top, [
    '-E',
    '--grep=^Skillpress-Version: ',
    `--format=%aI${FIELD}%B${RECORD}`,
    '--',
    rel,
  ]).catch(() => '');
  const out = new Map<string, SkillVersionEntry[]>();
  for (const record of stdout.split(RECORD)) {
    const [date, body] = record.replace(/^\n/, '').split(FIELD);
    const name = /^skill ([a-z0-9-]+): version /.exec(body ?? '')?.[1];
    const version = /^Skillpress-Version: (.+)$/m.exec(body ?? '')?.[1];
    const digest = /^Skillpress-Digest: (.+)$/m.exec(body ?? '')?.[1];
    if (!date || !name || !version || !digest) continue;
    const changes = [...body!.matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
    out.set(name, [...(out.get(name) ?? []), { version, date, digest, changes }]);
  }
  return out;
}

async function storeHistories(root: string, local: readonly Skill[]): Promise<Map<string, SkillVersionEntry[]>> {
  const out = new Map<string, SkillVersionEntry[]>();
  const recorded = new Set(await readdir(path.join(stateDir(root), 'versions', path.basename(root))).catch(() => []));
  for (const skill of local) {
    if (!recorded.has(skill.id) || skill.source.kind !== 'local') continue;
    const versions = await listVersions(root, skill.id, path.join(root, skill.source.dir));
    out.set(
      skill.id,
      versions
        .filter((v) => !v.committedByHand)
        .map(({ version, date, digest, changes }) => ({ version, date, digest, changes })),
    );
  }
  return out;
}
