/**
 * Every version of a skill written by the authoring calls, kept retrievable:
 *
 * - when the skills folder is inside a git work tree, one commit per write, holding only the
 *   skill's folder; its message lists the changes and carries `Skillpress-Version:` and
 *   `Skillpress-Digest:` trailers. git runs as a child process with argument arrays, never a shell.
 * - otherwise a version store in the state folder (`stateDir`: beside the skills folder, or
 *   inside it at a project's top): `.skillpress/versions/<skills folder name>/<skill>/<version>/`
 *   holding the version's files under `files/` and `version.json` (version, date, digest, changes).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { NotFoundError } from '../lib/errors.ts';
import { sha256Hex } from '../lib/hash.ts';
import { skillDigest } from '../load/read-file.ts';
import { versionOf } from './skill-md.ts';
import { DEFAULT_IGNORE, ignoreMatcher, type IgnoreMatcher } from '../lib/ignore.ts';
import { STATE_DIR } from '../lib/layout.ts';
import { resolveInside } from '../lib/fs.ts';
import { pathProblem } from '../lib/paths.ts';

const run = promisify(execFile);

/** One version of a skill, as `skillpress versions` lists it. */
export interface SkillVersion {
  version: string;
  /** ISO 8601. */
  date: string;
  /** sha256 over the version's files (`sha256:…`, the feed's skill digest). */
  digest: string;
  changes: string[];
  /** The commit holding this version, when the skills folder is in git. */
  commit?: string;
  /**
   * Not recorded by skillpress: the skill as git held it before its first recorded version (a
   * skill written and committed by hand). Restorable; not published in the feed's history.
   */
  committedByHand?: true;
}

/** What is recorded for one write. */
export interface VersionRecord extends SkillVersion {
  /** The skill's folder, now holding this version. */
  dir: string;
}

/**
 * Where skillpress keeps a skills folder's state (locks, staging, the version store, the MCP
 * server's build): beside the skills folder, or inside it when it is a project's top (it holds
 * `.git`, `skillpress.json` or `package.json`), so that nothing is written outside the project.
 * The loader never looks for skills there.
 */
export function stateDir(skillsRoot: string): string {
  const root = path.resolve(skillsRoot);
  const top = PROJECT_MARKS.some((mark) => existsSync(path.join(root, mark)));
  return path.join(top || path.dirname(root) === root ? root : path.dirname(root), STATE_DIR);
}

/** What marks a folder as a project's top. */
const PROJECT_MARKS = ['.git', 'skillpress.json', 'package.json'];

/** Makes the state folder, with a `.gitignore` that keeps git from listing it (staging, locks, versions, the server's build). */
export async function ensureStateDir(skillsRoot: string): Promise<string> {
  const state = stateDir(skillsRoot);
  await mkdir(state, { recursive: true });
  await writeFile(path.join(state, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
  return state;
}

function storeDir(skillsRoot: string, name: string): string {
  return path.join(stateDir(skillsRoot), 'versions', path.basename(path.resolve(skillsRoot)), name);
}

/**
 * When each folder last changed in git, in seconds: the commit time of the newest commit (of the
 * branch's first-parent line, a merge counting for what it brought in) that
 * touched a file in it, for the folders (relative to `root`) with nothing uncommitted. A checkout
 * gives every file the checkout's mtime, so in CI mtimes say nothing of when a skill changed;
 * commits do. Folders with uncommitted or untracked files, folders no commit touched, and every
 * folder outside a git work tree are left out: their files' mtimes stand; so are, in a shallow
 * clone, the folders last touched by its first commit. Files the skills'
 * `ignore` rules keep out of every output (`.DS_Store`, `__pycache__/`) neither date a folder nor
 * make it uncommitted: committing or leaving one changes nothing that is published.
 */
export async function committedTimes(
  root: string,
  folders: readonly string[],
  ignore: readonly string[] = DEFAULT_IGNORE,
): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  const top = await gitTopLevel(root);
  if (!top || folders.length === 0) return times;
  const rel = path.relative(top, path.resolve(root)).split(path.sep).join('/') || '.';
  const [log, status, cut] = await Promise.all([
    // The branch's own line of commits, a merge listing what it brought in: a skill is dated when
    // it changed on this branch (a merge's conflict resolution included), not on a side branch.
    gitLog(top, ['--first-parent', '--diff-merges=first-parent', ...LOG_FORMAT, '--', rel]),
    run('git', ['-C', top, 'status', '--porcelain', '-z', '--untracked-files=all', '--', rel], {
      maxBuffer: 64 * 1024 * 1024,
    }),
    shallowCommits(top),
  ]).catch(() => [undefined, undefined, undefined]);
  if (log === undefined || !status || !cut) return times;
  const folderOf = publishedFolderLookup(top, root, rel, folders, ignoreMatcher(ignore));
  const seen = new Set(statusPaths(status.stdout).map(folderOf));
  // Newest commit first: the first time a folder is seen is when it last changed.
  for (const record of log.split('\x01')) {
    const [head, ...paths] = record.split('\0');
    const [seconds, commit] = (head ?? '').split(' ');
    const at = Number(seconds);
    if (!commit || !Number.isFinite(at)) continue;
    for (const file of paths) {
      const folder = folderOf(file.replace(/^\n/, ''));
      if (folder === undefined || seen.has(folder)) continue;
      seen.add(folder);
      // A shallow clone's first commit seems to add every file: when they last changed is unknown.
      if (!cut.has(commit)) times.set(folder, at);
    }
  }
  return times;
}

const LOG_FORMAT = ['--format=%x01%ct %H', '--name-only', '-z'];

/** Each `git log`'s last output, by work tree and arguments, with the history it was read from. */
const lastLogs = new Map<string, { at: string; stdout: string }>();

/**
 * `git log <args>` in the work tree at `top`, read again only when the history moved (another
 * HEAD, or a shallow clone deepened): a process that builds again and again (`skillpress dev`,
 * `skillpress mcp --skills`) pays for reading the history after a commit, not on every edit.
 */
export async function gitLog(top: string, args: readonly string[]): Promise<string> {
  const [{ stdout: head }, cut] = await Promise.all([
    run('git', ['-C', top, 'rev-parse', 'HEAD'], { encoding: 'utf8' }),
    shallowCommits(top),
  ]);
  const at = [head.trim(), ...[...cut].sort()].join('\n');
  const key = [top, ...args].join('\0');
  const last = lastLogs.get(key);
  if (last?.at === at) return last.stdout;
  const { stdout } = await run('git', ['-C', top, 'log', ...args], { maxBuffer: 512 * 1024 * 1024 });
  lastLogs.set(key, { at, stdout });
  return stdout;
}

/**
 * The commits a shallow clone's history stops at (`.git/shallow`); none in a whole clone, so a
 * clone made with `--depth` (CI checkouts by default) is one where this is not empty.
 */
export async function shallowCommits(top: string): Promise<Set<string>> {
  const { stdout } = await run('git', ['-C', top, 'rev-parse', '--git-path', 'shallow'], { encoding: 'utf8' });
  const text = await readFile(path.resolve(top, stdout.trim()), 'utf8').catch(() => '');
  return new Set(text.split('\n').filter(Boolean));
}

/** The paths `git status --porcelain -z` lists (a rename's both paths). */
function statusPaths(out: string): string[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => (/^.. /.test(entry) ? entry.slice(3) : entry));
}

/**
 * Maps a path relative to the work tree's top to the folder of `folders` holding it, or to
 * undefined when the loader ignores it (a folder or file name matching the ignore rules, below
 * the skills folder at `rel`), as it never reaches the feed.
 */
function publishedFolderLookup(
  top: string,
  root: string,
  rel: string,
  folders: readonly string[],
  ignore: IgnoreMatcher,
): (file: string) => string | undefined {
  const folderOf = folderLookup(top, root, folders);
  return (file) => {
    const inRoot = rel !== '.' && file.startsWith(`${rel}/`) ? file.slice(rel.length + 1) : file;
    const names = inRoot.split('/');
    const base = names.pop() ?? '';
    if (ignore.file(base) || names.some((name) => ignore.dir(name))) return undefined;
    return folderOf(file);
  };
}

/** Maps a path relative to the work tree's top to the folder of `folders` (relative to `root`) holding it. */
function folderLookup(top: string, root: string, folders: readonly string[]): (file: string) => string | undefined {
  const byTopPath = new Map(
    folders.map((f) => [path.relative(top, path.resolve(root, f)).split(path.sep).join('/') || '.', f] as const),
  );
  return (file) => {
    for (let at = path.posix.dirname(file); ; at = path.posix.dirname(at)) {
      const folder = byTopPath.get(at);
      if (folder !== undefined || at === '.' || at === '/') return folder;
    }
  };
}

/** Whether git's history holds `dir` as it is on disk: in a work tree, with nothing in it uncommitted or untracked. */
export async function committedAsIs(dir: string): Promise<boolean> {
  const top = await gitTopLevel(dir);
  if (!top) return false;
  const rel = path.relative(top, dir).split(path.sep).join('/') || '.';
  const status = await run('git', ['-C', top, 'status', '--porcelain', '-z', '--untracked-files=all', '--', rel], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => undefined);
  return status !== undefined && status.stdout.length === 0;
}

/** The top of the git work tree holding `dir`, or undefined when it is in none (or git is not installed). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  // No `.git` above: no work tree, and no git process started (every build asks).
  if (!(await hasGitAbove(path.resolve(dir)))) return undefined;
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

async function hasGitAbove(dir: string): Promise<boolean> {
  for (let at = dir; ; at = path.dirname(at)) {
    if (
      await lstat(path.join(at, '.git')).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (path.dirname(at) === at) return false;
  }
}

const GIT_SAFE = ['-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null'];

/** Keeps the version just written: a commit, or a copy in the version store. */
export async function recordVersion(skillsRoot: string, name: string, record: VersionRecord): Promise<SkillVersion> {
  const top = await gitTopLevel(record.dir);
  const { dir, ...version } = record;
  if (top) return { ...version, commit: await commitVersion(top, name, record) };
  const target = path.join(storeDir(skillsRoot, name), record.version);
  const staging = `${target}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await cp(dir, path.join(staging, 'files'), { recursive: true, verbatimSymlinks: true });
  await writeFile(path.join(staging, 'version.json'), JSON.stringify(version, null, 2) + '\n');
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return version;
}

async function commitVersion(top: string, name: string, record: VersionRecord): Promise<string> {
  const rel = path.relative(top, record.dir).split(path.sep).join('/');
  const message = [
    `skill ${name}: version ${record.version}`,
    '',
    ...record.changes.map((c) => `- ${c}`),
    '',
    `Skillpress-Version: ${record.version}`,
    `Skillpress-Digest: ${record.digest}`,
  ].join('\n');
  const env = await gitEnv(top);
  const git = (args: string[]) => run('git', ['-C', top, ...GIT_SAFE, ...args], { env });
  try {
    await git(['add', '-A', '--', rel]);
    await git(['commit', '--quiet', '--allow-empty', '-m', message, '--only', '--', rel]);
  } catch (err) {
    // What `add` staged goes back to HEAD's (or out of the index on a branch with no commit yet).
    await git(['reset', '--quiet', '--', rel]).catch(() =>
      git(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', rel]).catch(() => undefined),
    );
    throw new Error(`git could not commit ${rel}: ${gitReason(err)}`, { cause: err });
  }
  const { stdout } = await git(['rev-parse', 'HEAD']);
  return stdout.toString().trim();
}

/** git's own reason, on one line: its first `fatal:`/`error:` line, else the first line it printed. */
function gitReason(err: unknown): string {
  const stderr = String((err as { stderr?: unknown }).stderr ?? '');
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? (err as Error).message.split('\n')[0]!;
  return line.replace(/^(fatal|error):\s*/, '');
}

/**
 * The rule that makes git ignore `file` (below the work tree holding `root`), as
 * `.gitignore:1: .cache/`; undefined when git would track it, or `root` is in no work tree.
 */
export async function gitIgnoredBy(root: string, file: string): Promise<string | undefined> {
  const top = await gitTopLevel(root);
  if (!top) return undefined;
  const rel = path.relative(top, file).split(path.sep).join('/');
  // Exit 1 (not ignored) rejects: nothing ignores it.
  const found = await run('git', ['-C', top, 'check-ignore', '--verbose', '--', rel], { encoding: 'utf8' }).catch(
    () => undefined,
  );
  const m = /^(.*?):(\d+):(.*)\t/.exec(found?.stdout ?? '');
  if (!m) return undefined;
  const source = path.isAbsolute(m[1]!) ? m[1]! : m[1]!.split(path.sep).join('/');
  return `${source}:${m[2]}: ${m[3]}`;
}

/** An identity for the commit when git has none configured (a CI runner, a container). */
async function gitEnv(top: string): Promise<NodeJS.ProcessEnv> {
  const email = await run('git', ['-C', top, 'config', 'user.email']).then(
    (r) => r.stdout.trim(),
    () => '',
  );
  if (email) return process.env;
  const who = { name: 'skillpress', email: 'skillpress@localhost' };
  return {
    ...process.env,
    GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? who.name,
    GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? who.email,
    GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? who.name,
    GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? who.email,
  };
}

/** Every recorded version of a skill, newest first. */
export async function listVersions(skillsRoot: string, name: string, dir: string): Promise<SkillVersion[]> {
  const stored = (await storedVersions(skillsRoot, name)).sort((a, b) =>
    a.date < b.date ? 1 : a.date > b.date ? -1 : compareVersions(b.version, a.version),
  );
  const top = await gitTopLevel(dir);
  if (!top) return stored;
  // Versions written before the skills folder was put under git stay in the store (it is only
  // written outside git): listed after the commits, and still restorable.
  const committed = await gitVersions(top, dir);
  const inGit = new Set(committed.map((v) => v.version));
  const before = await committedBefore(top, dir, committed, stored);
  return [...committed, ...(before ? [before] : []), ...stored.filter((v) => !inGit.has(v.version))];
}

/**
 * The skill as git held it before its first recorded version, when it was there (written and
 * committed by hand): a version too, under the version its SKILL.md gave (1 without one), so
 * rollback restores the first state of a skill an agent updated.
 */
async function committedBefore(
  top: string,
  dir: string,
  committed: readonly SkillVersion[],
  stored: readonly SkillVersion[],
): Promise<SkillVersion | undefined> {
  const first = committed.at(-1)?.commit;
  if (!first) return undefined;
  const rel = path.relative(top, dir).split(path.sep).join('/') || '.';
  // A root commit has no parent: git fails, and there is nothing before it.
  const { stdout } = await run('git', ['-C', top, 'log', '-1', `--format=%H${FIELD}%aI`, `${first}^`, '--', rel], {
    encoding: 'utf8',
  }).catch(() => ({ stdout: '' }));
  const [commit, date] = stdout.trim().split(FIELD);
  if (!commit || !date) return undefined;
  const files = await gitFiles(top, dir, commit);
  const skillMd = files.get('SKILL.md');
  if (!skillMd) return undefined;
  const version = versionOf(skillMd.toString('utf8')) ?? '1';
  // A version recorded already (a commit of skillpress's, or the store before git) is that one.
  if ([...committed, ...stored].some((v) => v.version === version)) return undefined;
  const digest = skillDigest([...files].map(([file, bytes]) => ({ path: file, sha256: sha256Hex(bytes) })));
  return {
    version,
    date,
    digest,
    changes: ['as committed before skillpress recorded it'],
    commit,
    committedByHand: true,
  };
}

/** The versions kept in the version store (written while the folder was in no git work tree). */
async function storedVersions(skillsRoot: string, name: string): Promise<SkillVersion[]> {
  const base = storeDir(skillsRoot, name);
  const entries = await readdir(base).catch(() => [] as string[]);
  const versions: SkillVersion[] = [];
  for (const entry of entries) {
    if (entry.includes('.tmp-')) continue;
    const text = await readFile(path.join(base, entry, 'version.json'), 'utf8').catch(() => undefined);
    if (text) versions.push(JSON.parse(text) as SkillVersion);
  }
  return versions;
}

/** Numeric parts compared as numbers: "10" after "9", "1.0.10" after "1.0.9". */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split(/[.-]/);
  const pb = b.replace(/^v/, '').split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** Versions from the commits that carry skillpress's trailers for this folder. */
async function gitVersions(top: string, dir: string): Promise<SkillVersion[]> {
  const rel = path.relative(top, dir).split(path.sep).join('/') || '.';
  const { stdout } = await run('git', ['-C', top, 'log', `--format=%H${FIELD}%aI${FIELD}%B${RECORD}`, '--', rel], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => ({ stdout: '' }));
  const out: SkillVersion[] = [];
  for (const entry of stdout.split(RECORD)) {
    const [commit, date, body] = entry.replace(/^\n/, '').split(FIELD);
    if (!commit || !date || body === undefined) continue;
    const version = /^Skillpress-Version: (.+)$/m.exec(body)?.[1];
    const digest = /^Skillpress-Digest: (.+)$/m.exec(body)?.[1];
    if (!version || !digest) continue;
    const changes = [...body.matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
    out.push({ version, date, digest, changes, commit });
  }
  return out;
}

/** The files (path → bytes) of one recorded version. */
export async function versionFiles(
  skillsRoot: string,
  name: string,
  dir: string,
  version: string,
): Promise<Map<string, Buffer>> {
  const versions = await listVersions(skillsRoot, name, dir);
  const known = versions.find((v) => v.version === version);
  if (!known)
    throw new NotFoundError(
      versions.length === 0
        ? `Skill "${name}" has no version "${version}": it has no recorded version (versions are recorded by create and update)`
        : `Skill "${name}" has no version "${version}"; its versions are ${versions.map((v) => v.version).join(', ')} (skillpress versions ${name} lists their changes)`,
    );
  const top = known.commit ? await gitTopLevel(dir) : undefined;
  if (top && known.commit) return gitFiles(top, dir, known.commit);
  const files = new Map<string, Buffer>();
  const root = path.join(storeDir(skillsRoot, name), version, 'files');
  await readTree(root, '', files);
  return files;
}

async function readTree(root: string, rel: string, out: Map<string, Buffer>): Promise<void> {
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await readTree(root, child, out);
    else if (entry.isFile()) out.set(child, await readFile(resolveInside(root, child)));
  }
}

async function gitFiles(top: string, dir: string, commit: string): Promise<Map<string, Buffer>> {
  const rel = path.relative(top, dir).split(path.sep).join('/');
  const { stdout } = await run('git', ['-C', top, 'ls-tree', '-r', '-z', '--full-tree', commit, '--', rel], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = new Map<string, Buffer>();
  for (const line of stdout.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]+)\t(.+)$/s.exec(line);
    // Regular files only (100644, 100755): a link recorded in history is not restored.
    if (!m || !m[1]!.startsWith('100')) continue;
    const inSkill = m[3]!.slice(rel.length + 1);
    if (pathProblem(inSkill)) continue;
    const blob = await run('git', ['-C', top, 'cat-file', 'blob', m[2]!], {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    });
    files.set(inSkill, blob.stdout);
  }
  return files;
}
