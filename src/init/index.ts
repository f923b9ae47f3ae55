/**
 * `init()`: set up a skills repository for skillpress without asking what it can find out — the
 * registry's name and title from the git remote `origin` (else the folder's name), the base path
 * from the Pages URL when one is given — then write `skillpress.json`, the `.gitignore` lines and
 * the GitHub Pages workflow, and build once. `skillpress init` is this call plus printing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type BuildResult } from '../build.ts';
import { CONFIG_FILE } from '../config/load.ts';
import { UsageError } from '../lib/errors.ts';
import { folderHoldingSkills } from '../lib/skills-folder.ts';
import { normalizeBase } from '../site/urls.ts';
import { pagesWorkflow, WORKFLOW_PATH } from './workflow.ts';

export interface InitOptions {
  /** The repository to set up (default: the working directory). */
  dir?: string;
  /** Where the site will be published (`https://org.github.io/skills/`): its URL and base path. */
  siteUrl?: string;
  /** What CI installs skillpress from (a git URL or tarball URL); default: what the repository's package.json installs it from, else this copy's git origin, if any. */
  packageSpec?: string;
  /** Replace an existing config (and workflow). */
  force?: boolean;
  /** Build once after writing (default true). */
  build?: boolean;
  /** Notes, one line each. */
  log?: (line: string) => void;
}

export interface InitResult {
  dir: string;
  /** The config written. */
  config: string;
  /** Every file written or appended to. */
  wrote: string[];
  /** The skills folder the config names (relative to `dir`). */
  skills: string;
  registry: { name: string; title: string; url?: string };
  base: string;
  /** Set when no install spec for CI was known: the workflow holds a placeholder to replace. */
  package_placeholder?: string;
  /** The first build, run in `dir` (its `.cache/` there; `skillsRoot` relative to `dir`). */
  build?: BuildResult;
}

export const GITIGNORE_LINES = ['dist/', '.cache/'];
const PACKAGE_PLACEHOLDER = 'REPLACE-with-the-git-or-tarball-URL-of-skillpress';

/**
 * Set up `dir` as a skills catalog.
 *
 * @example
 * const result = await init({ dir: '.', siteUrl: 'https://acme.github.io/skills/' });
 * console.log(result.registry.title, result.wrote);
 */
export async function init(options: InitOptions = {}): Promise<InitResult> {
  const dir = path.resolve(options.dir ?? '.');
  const log = options.log ?? (() => {});
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new UsageError(`${dir}: not a folder`);
  await refuseExistingConfig(dir, options.force);
  const skills = await findSkillsFolder(dir);
  const identity = await inferIdentity(dir);
  const site = options.siteUrl === undefined ? undefined : parseSiteUrl(options.siteUrl);
  const config = {
    registry: { name: identity.name, title: identity.title, ...(site ? { url: site.url } : {}) },
    skills: { root: skills },
    site: { base: site?.base ?? '/' },
  };
  const configFile = path.join(dir, CONFIG_FILE);
  await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const wrote = [configFile];
  if (await appendGitignore(dir)) wrote.push(path.join(dir, '.gitignore'));
  const packageSpec = options.packageSpec ?? (await projectSpec(dir)) ?? (await ownGitSpec());
  const workflow = path.join(dir, ...WORKFLOW_PATH.split('/'));
  if (existsSync(workflow) && !options.force) log(`init: kept ${workflow} (exists; --force replaces it)`);
  else {
    await mkdir(path.dirname(workflow), { recursive: true });
    const branch = (await git(dir, ['symbolic-ref', '--short', 'HEAD'])) ?? 'main';
    await writeFile(workflow, pagesWorkflow({ packageSpec: packageSpec ?? PACKAGE_PLACEHOLDER, skills, branch }));
    wrote.push(workflow);
  }
  const result: InitResult = {
    dir,
    config: configFile,
    wrote,
    skills,
    registry: config.registry,
    base: config.site.base,
  };
  if (!packageSpec) result.package_placeholder = PACKAGE_PLACEHOLDER;
  if (options.build !== false && skills !== undefined) {
    // Run in the repository, as its workflow and `skillpress build` do there: its `.cache/` (which
    // the .gitignore lines above cover) is the one later builds reuse, not one in the working directory.
    result.build = await build({ cwd: dir, skills, out: path.join(dir, 'dist'), config: configFile, log });
  }
  return result;
}

async function refuseExistingConfig(dir: string, force: boolean | undefined): Promise<void> {
  for (const rel of [CONFIG_FILE, path.join('config', CONFIG_FILE)]) {
    if (existsSync(path.join(dir, rel)) && !force)
      throw new UsageError(`${path.join(dir, rel)} exists; pass --force to replace it`);
  }
}

/**
 * `skills/` when it is there, else the nearest folder holding every skill found (`.` for the
 * repository itself): `.claude/skills/<name>/` gives `.claude/skills`, and
 * `plugins/<plugin>/skills/<name>/` gives `plugins`, so no plugin's skills are left out.
 */
async function findSkillsFolder(dir: string): Promise<string> {
  if ((await stat(path.join(dir, 'skills')).catch(() => undefined))?.isDirectory()) return 'skills';
  const skills = await folderHoldingSkills(dir);
  if (skills === undefined)
    throw new UsageError(
      `${dir}: no skills/ folder and no SKILL.md below it; add your skills as skills/<name>/SKILL.md first (\`skillpress new <name>\` makes one to fill in)`,
    );
  if (!/^[A-Za-z0-9._/-]+$/.test(skills))
    throw new UsageError(`${skills}: rename the skills folder to letters, digits, ".", "_", "-" and "/" only`);
  return skills;
}

async function git(dir: string, args: string[]): Promise<string | undefined> {
  return promisify(execFile)('git', ['-C', dir, ...args], { timeout: 10_000 }).then(
    ({ stdout }) => stdout.trim() || undefined,
    () => undefined,
  );
}

/**
 * `owner/repo` of a git remote URL (https, ssh or scp-like), if it has that shape. A remote on
 * this machine (a path, `file://`) names no owner: `/srv/git/skills` is not `srv/git`'s.
 */
export function ownerAndRepo(remote: string): { owner: string; repo: string } | undefined {
  if (/^(?:[/.~]|file:|[A-Za-z]:[\\/])/.test(remote.trim())) return undefined;
  const match = /[:/]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(remote.trim());
  return match ? { owner: match[1]!, repo: match[2]! } : undefined;
}

/** A registry name (`[a-z0-9][a-z0-9._-]*`) made from any text. */
export function registryName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '');
  return name || 'skills';
}

/** Name and title from the git remote `origin` (`acme/skills` → `acme-skills`), else the folder's name. */
async function inferIdentity(dir: string): Promise<{ name: string; title: string }> {
  const remote = await git(dir, ['remote', 'get-url', 'origin']);
  const parsed = remote ? ownerAndRepo(remote) : undefined;
  if (parsed) return { name: registryName(`${parsed.owner}-${parsed.repo}`), title: `${parsed.owner}/${parsed.repo}` };
  const folder = path.basename(dir);
  return { name: registryName(folder), title: folder };
}

function parseSiteUrl(given: string): { url: string; base: string } {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--site-url ${given}: not a URL (for example https://acme.github.io/skills/)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--site-url ${given}: give an http(s) URL`);
  const base = normalizeBase(url.pathname);
  return { url: `${url.origin}${base}`, base };
}

/**
 * Append the lines `.gitignore` lacks (`dist/`, `.cache/`, and `node_modules/` where a
 * `package.json` installs skillpress locally); true when it changed.
 */
async function appendGitignore(dir: string): Promise<boolean> {
  const file = path.join(dir, '.gitignore');
  const text = await readFile(file, 'utf8').catch(() => '');
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim().replace(/^\/+/, '').replace(/\/*$/, '/')));
  const wanted = existsSync(path.join(dir, 'package.json')) ? [...GITIGNORE_LINES, 'node_modules/'] : GITIGNORE_LINES;
  const missing = wanted.filter((line) => !present.has(line));
  if (missing.length === 0) return false;
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  await writeFile(file, `${text}${separator}${missing.join('\n')}\n`);
  return true;
}

/**
 * What the repository's own `package.json` installs skillpress from, when CI can install from it
 * too: a git URL or an http(s) tarball (not a path, which only exists on this machine).
 */
async function projectSpec(dir: string): Promise<string | undefined> {
  const text = await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let manifest: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return undefined;
  }
  const spec = manifest.devDependencies?.skillpress ?? manifest.dependencies?.skillpress;
  if (typeof spec !== 'string') return undefined;
  return /^(git\+(https|ssh|git):\/\/|git:\/\/|github:|https?:\/\/)[^\s$]+$/.test(spec) ? spec : undefined;
}

/** `git+<origin>#<commit>` when this copy of skillpress runs from a git clone with an origin. */
async function ownGitSpec(): Promise<string | undefined> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  if (root.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
  const [remote, commit] = await Promise.all([
    git(root, ['remote', 'get-url', 'origin']),
    git(root, ['rev-parse', 'HEAD']),
  ]);
  if (!remote || !commit || !/^(https?|ssh|git):\/\/|^[^/]+@[^:]+:/.test(remote)) return undefined;
  if (/^[^/]+@[^:]+:/.test(remote)) return `git+ssh://${remote.replace(':', '/')}#${commit}`;
  // Never copy credentials from a remote URL into a committed workflow.
  const url = new URL(remote);
  url.username = '';
  url.password = '';
  return `git+${url.href}#${commit}`;
}
