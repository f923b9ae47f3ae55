/**
 * `skillpress install`: copy one skill from a feed or discovery index into an agent's skills
 * folder. Every digest is verified before anything is written; the skill folder is replaced
 * in one rename; `.skillpress-install.json` beside the skill folders records what was
 * installed, so a re-run downloads nothing when the published digest has not changed and never
 * overwrites a skill someone edited by hand (unless forced).
 */
import { lstat, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { checkName, parseSkillMarkdown, skillDigest } from '../load/index.ts';
import { InvalidInputError, NotFoundError, UsageError, errorMessage } from '../lib/errors.ts';
import { didYouMean } from '../lib/near-names.ts';
import { sha256Hex } from '../lib/hash.ts';
import { atomicWrite, resolveInside } from '../lib/fs.ts';
import { parseJson } from '../lib/json.ts';
import { own } from '../lib/own.ts';
import { quotePath } from '../lib/paths.ts';
import { SKILL_NAME_PATTERN } from '../model/skill.ts';
import { locate, type Limits, type Located } from './source.ts';
import type { Files, InstallFile } from './archive.ts';

export { AGENTS, skillsFolder, type AgentLocation, type SkillsFolderOptions, type Environment } from './agents.ts';

export const MANIFEST = '.skillpress-install.json';

export interface InstallOptions {
  /** The skills folder; the skill goes to `<to>/<name>/`. */
  to: string;
  /** Replace a skill that was edited locally or not installed by skillpress; reinstall an unchanged one. */
  force?: boolean;
  limits?: Partial<Limits>;
  now?: Date;
}

export interface InstallResult {
  action: 'installed' | 'updated' | 'unchanged';
  name: string;
  dir: string;
  digest: string;
  previousDigest?: string;
  version?: string;
  /** Files the source lists but does not publish, with why. */
  missing: Array<{ path: string; reason: string }>;
  /**
   * With `force` over a folder skillpress did not install or that was edited: the files that
   * were there and are gone or hold other bytes now (listed, so nothing is lost unsaid).
   */
  discarded?: string[];
  from: string;
}

const ManifestEntry = z.object({
  source: z.string(),
  index: z.string(),
  /** The published digest (feed content digest or discovery artifact digest). */
  digest: z.string(),
  /** Digest of the files as written, to notice local edits. */
  content_digest: z.string(),
  version: z.string().optional(),
  installed_at: z.string(),
});
type ManifestEntry = z.infer<typeof ManifestEntry>;
const Manifest = z.object({ skills: z.record(z.string(), ManifestEntry) });
type Manifest = z.infer<typeof Manifest>;

/** Why the index does not list `name`: removed, imported and not re-exported, or maybe misspelt. */
async function whyMissing(located: Located, name: string): Promise<string> {
  const view = await located.elsewhere?.(name);
  if (view)
    return `: this build imports it from a peer and shows it on the site only (federation.reexport is off): install it from ${view}`;
  const removedAt = await located.removedAt?.(name);
  if (removedAt) return `: it was removed from this catalog at ${removedAt}`;
  return didYouMean(name, located.names());
}

/**
 * Copy skill `name` (or `name@version`, a version from the skill's published history in a
 * skillpress feed, digest-checked) from a feed or discovery index (`source`: a site URL, a feed URL or folder)
 * into `<opts.to>/<name>/`. Every digest is checked before anything is written; the folder is
 * replaced in one rename; a re-run downloads nothing when the published digest is unchanged, and
 * a skill edited by hand is never overwritten unless `force` is set.
 *
 * @example
 * ```ts
 * import { homedir } from 'node:os';
 * import { install, skillsFolder } from 'skillpress';
 * const to = skillsFolder('claude', { cwd: process.cwd(), env: process.env, home: homedir() });
 * const result = await install('https://skills.example/', 'pdf-tools', { to });
 * console.log(result.action, result.dir, result.digest); // 'installed', …/.claude/skills/pdf-tools, sha256:…
 * ```
 */
export async function install(source: string, pinnedName: string, opts: InstallOptions): Promise<InstallResult> {
  const { name, pin } = parsePinnedName(pinnedName);
  const limits: Limits = {
    timeoutMs: opts.limits?.timeoutMs ?? 30_000,
    maxBytes: opts.limits?.maxBytes ?? 50 * 1024 * 1024,
  };
  const to = path.resolve(opts.to);
  const dir = path.join(to, name);

  const located = await locate(source, limits);
  if (pin !== undefined && !located.pinned)
    throw new UsageError(
      `${located.indexUrl} is a discovery index, which lists only the latest versions: install ${name}@${pin} from a skillpress feed`,
    );
  const pinned = pin !== undefined ? await located.pinned!(name, pin) : undefined;
  const published = pinned?.digest ?? located.digestOf(name);
  if (!published) {
    throw new NotFoundError(`no skill "${name}" in ${located.indexUrl}${await whyMissing(located, name)}`);
  }

  const manifest = await readManifest(to);
  // A skill may be named "constructor": only the manifest's own entries are records.
  const record = own(manifest.skills, name);
  const exists = await lstat(dir).then(
    () => true,
    () => false,
  );
  if (exists) {
    if (!record && !opts.force)
      throw new InvalidInputError(
        `${dir} already exists and was not installed by skillpress; use --force to replace it`,
      );
    if (record) {
      const edited = (await folderDigest(dir)) !== record.content_digest;
      if (edited && !opts.force)
        throw new InvalidInputError(
          `${dir} was changed since it was installed; use --force to replace it with the published version`,
        );
      if (!edited && record.digest === published && !opts.force) {
        return {
          action: 'unchanged',
          name,
          dir,
          digest: published,
          version: record.version,
          missing: [],
          from: located.indexUrl,
        };
      }
    }
  }

  const pkg = pinned ? await pinned.fetch() : await located.fetch(name);
  checkSkillMd(pkg.files, name);
  const { contentDigest, same, discarded } = await placeSkill(to, name, pkg.files, record, exists && !opts.force);
  manifest.skills[name] = {
    source,
    index: located.indexUrl,
    digest: pkg.digest,
    content_digest: contentDigest,
    version: pkg.version,
    installed_at: (opts.now ?? new Date()).toISOString(),
  };
  await writeManifest(to, manifest);
  return {
    action: same ? 'unchanged' : exists ? 'updated' : 'installed',
    name,
    dir,
    digest: pkg.digest,
    previousDigest: record?.digest,
    version: pkg.version,
    missing: pkg.missing,
    ...(discarded.length > 0 ? { discarded } : {}),
    from: located.indexUrl,
  };
}

/** `name` or `name@version`, the name checked as the loader checks it. */
function parsePinnedName(pinnedName: string): { name: string; pin: string | undefined } {
  const at = pinnedName.lastIndexOf('@');
  const name = at > 0 ? pinnedName.slice(0, at) : pinnedName;
  const pin = at > 0 ? pinnedName.slice(at + 1) : undefined;
  if (pin === '')
    throw new UsageError(`${quotePath(pinnedName)}: give a version after "@" (skillpress versions lists them)`);
  const invalid = checkName(name, undefined);
  if (invalid.length > 0)
    throw new UsageError(`skill name ${quotePath(name)} is not valid: ${invalid.map((p) => p.message).join('; ')}`);
  return { name, pin };
}

/**
 * Put `files` in place as `to/name`, unless the folder holds them already (`same`: the same
 * bytes from another source of the registry; never when forced). Over a folder skillpress did
 * not install, or one edited since, says which of its files are discarded.
 */
async function placeSkill(
  to: string,
  name: string,
  files: Files,
  record: ManifestEntry | undefined,
  mayKeep: boolean,
): Promise<{ contentDigest: string; same: boolean; discarded: string[] }> {
  const dir = path.join(to, name);
  const contentDigest = filesDigest(files);
  const exists = await lstat(dir).then(
    () => true,
    () => false,
  );
  const onDisk = exists ? await folderDigest(dir) : undefined;
  const same = mayKeep && record?.content_digest === contentDigest && onDisk === contentDigest;
  const discarded = exists && !same && (!record || onDisk !== record.content_digest) ? await lostFiles(dir, files) : [];
  if (!same) await replaceFolder(to, name, files);
  return { contentDigest, same, discarded };
}

/** Files in `dir` that installing `files` removes or changes (anything not a regular file counts). */
async function lostFiles(dir: string, files: Files): Promise<string[]> {
  const lost: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const e of await readdir(abs, { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(abs, e.name), childRel);
      else {
        const kept = e.isFile() ? files.get(childRel) : undefined;
        if (!kept || !kept.bytes.equals(await readFile(path.join(abs, e.name)))) lost.push(childRel);
      }
    }
  };
  await walk(dir, '');
  return lost.sort();
}

/** The archive's root must hold SKILL.md whose name is the skill being installed. */
function checkSkillMd(files: Files, name: string): void {
  const skillMd = files.get('SKILL.md');
  const invalid = (message: string): InvalidInputError => new InvalidInputError(message, { rule: 'invalid-skill' });
  if (!skillMd) {
    const wrapped = [...files.keys()].find((p) => p.endsWith('/SKILL.md'));
    throw invalid(
      `no SKILL.md at the root of the skill${wrapped ? ` (found ${quotePath(wrapped)}: archives must not have a wrapper folder)` : ''}`,
    );
  }
  const parsed = parseSkillMarkdown(skillMd.bytes.toString('utf8'));
  if (!parsed.ok) throw invalid(`SKILL.md: ${parsed.message}`);
  // A name written as a title is not a valid id: agents load such a skill under its folder's name,
  // which is the name it is installed under. A valid but different name would be another skill.
  const written = parsed.data.name;
  if (written !== name && (typeof written !== 'string' || SKILL_NAME_PATTERN.test(written))) {
    throw invalid(
      `SKILL.md names the skill ${quotePath(String(written))}, not "${name}"; refusing to install it under that name`,
    );
  }
}

function filesDigest(files: Files): string {
  return skillDigest([...files].map(([p, file]) => ({ path: p, sha256: sha256Hex(file.bytes) })));
}

/** Digest of what is on disk now (a link or special file counts as a change). */
async function folderDigest(dir: string): Promise<string> {
  const entries: Array<{ path: string; sha256: string }> = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const e of await readdir(abs, { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(abs, e.name), childRel);
      else if (e.isFile()) entries.push({ path: childRel, sha256: sha256Hex(await readFile(path.join(abs, e.name))) });
      else entries.push({ path: childRel, sha256: 'not-a-regular-file' });
    }
  };
  await walk(dir, '');
  return skillDigest(entries);
}

/** Write into a staging folder beside the target, then swap it in with renames. */
async function replaceFolder(to: string, name: string, files: Files): Promise<void> {
  const tag = randomBytes(6).toString('hex');
  const stage = path.join(to, `.${name}.skillpress-new-${tag}`);
  const old = path.join(to, `.${name}.skillpress-old-${tag}`);
  const target = path.join(to, name);
  await mkdir(stage, { recursive: true });
  try {
    for (const [rel, file] of files) await writeInstalled(stage, rel, file, name);
    const hadTarget = await lstat(target).then(
      () => true,
      () => false,
    );
    if (hadTarget) await rename(target, old);
    try {
      await rename(stage, target);
    } catch (err) {
      if (hadTarget) await rename(old, target);
      throw err;
    }
    if (hadTarget) await rm(old, { recursive: true, force: true });
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Why the file system refused a file, in words (the staging folder's path means nothing to the user). */
const WRITE_ERRORS: Record<string, string> = {
  ENAMETOOLONG: 'its path is too long for this file system',
  EEXIST: 'a file and a folder of that name would clash',
  ENOTDIR: 'a file and a folder of that name would clash',
  EISDIR: 'a file and a folder of that name would clash',
};

/** One file into the staging folder: inside it (segments compared, not string prefixes), mode 0755 when executable (less the umask). */
async function writeInstalled(stage: string, rel: string, file: InstallFile, name: string): Promise<void> {
  const abs = resolveInside(stage, rel);
  try {
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, file.bytes, { flag: 'wx', mode: file.executable ? 0o755 : 0o644 });
  } catch (err) {
    const why =
      WRITE_ERRORS[(err as NodeJS.ErrnoException).code ?? ''] ??
      (err as NodeJS.ErrnoException).code ??
      errorMessage(err);
    throw new InvalidInputError(`cannot install ${quotePath(`${name}/${rel}`)}: ${why}`, { rule: 'write', cause: err });
  }
}

async function readManifest(to: string): Promise<Manifest> {
  const file = path.join(to, MANIFEST);
  const raw = await readFile(file).catch(() => undefined);
  if (raw === undefined) return { skills: {} };
  try {
    return parseJson(raw, Manifest, file);
  } catch (err) {
    throw new InvalidInputError(`${errorMessage(err)}; fix or delete it`, { cause: err });
  }
}

async function writeManifest(to: string, manifest: Manifest): Promise<void> {
  const skills = Object.fromEntries(Object.entries(manifest.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  await atomicWrite(path.join(to, MANIFEST), JSON.stringify({ skills }, null, 2) + '\n');
}

/**
 * Install every member of bundle `bundle` that a skillpress feed publishes (its index's
 * `bundles`), one by one as {@link install} does; the results in member order.
 *
 * @example
 * ```ts
 * import { installBundle } from 'skillpress';
 * const results = await installBundle('https://skills.example/', 'pdf-kit', { to: '.agents/skills' });
 * console.log(results.map((r) => `${r.name}: ${r.action}`));
 * ```
 */
export async function installBundle(source: string, bundle: string, opts: InstallOptions): Promise<InstallResult[]> {
  const limits: Limits = {
    timeoutMs: opts.limits?.timeoutMs ?? 30_000,
    maxBytes: opts.limits?.maxBytes ?? 50 * 1024 * 1024,
  };
  const located = await locate(source, limits);
  const members = located.bundle?.(bundle);
  if (!members) throw new NotFoundError(`no bundle "${bundle}" in ${located.indexUrl}`);
  const results: InstallResult[] = [];
  for (const name of members) results.push(await install(source, name, opts));
  return results;
}
