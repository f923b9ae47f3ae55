/**
 * The MCP server's write side (`skillpress mcp --skills <dir>`): create_skill and update_skill
 * write into the skills folder with the authoring library (src/author), then the server builds
 * the folder into its own feed (`build()` without the site or Elasticsearch, reusing `.cache/`,
 * so only what changed is made again) and reloads it, telling clients with resources `list_changed`. The
 * answer comes once the new version is served, so the next skills_search finds it.
 *
 * The feed is built into `<parent of skills>/.skillpress/mcp/<skills folder name>/`, or into the
 * local folder given with `--feed` (a build folder of its own: it is replaced on every build).
 */
import path from 'node:path';
import type { SkillpressConfig } from '../model/config.ts';
import type { Catalog } from '../model/skill.ts';
import { FEED_PATH } from '../lib/layout.ts';
import { configDisables } from '../enable/index.ts';
import { stateDir } from '../author/history.ts';
import { InvalidInputError, UsageError, errorMessage } from '../lib/errors.ts';
import type { Embedder } from '../semantic/embedder.ts';
import type { BuildSession } from '../build.ts';
import type {
  CreateSkillInput,
  CreateSkillResult,
  DuplicateIndex,
  UpdateSkillInput,
  UpdateSkillResult,
} from '../author/index.ts';

type Given<T> = Omit<T, 'skills' | 'config' | 'duplicates'>;

/** What the authoring tools call. */
export interface Authoring {
  create(input: Given<CreateSkillInput>): Promise<CreateSkillResult>;
  update(input: Given<UpdateSkillInput>): Promise<UpdateSkillResult>;
}

export interface AuthoringOptions {
  skills: string;
  /** A local build folder (or its feed/v1) to build into instead of the private one. */
  feed?: string;
  config: SkillpressConfig;
  /** The folder the config was found in: its relative paths are read from there (default: the working directory). */
  configRoot?: string;
  log: (message: string) => void;
}

export class AuthoringSession implements Authoring {
  readonly skills: string;
  /** The build folder, and its feed folder (what the server serves). */
  readonly out: string;
  readonly feedDir: string;
  /** Settles when the first build is done. */
  readonly ready: Promise<void>;
  readonly #config: SkillpressConfig;
  readonly #configRoot: string | undefined;
  readonly #log: (message: string) => void;
  #local: Catalog | undefined;
  #index: Promise<DuplicateIndex> | undefined;
  #embedder: Promise<Embedder> | undefined;
  #building: Promise<unknown> = Promise.resolve();
  /** Between builds: only the skill folders a write changed are read again. */
  #session: BuildSession | undefined;
  /** Set by the server: loads the rebuilt feed and notifies clients. */
  reload: () => Promise<void> = async () => {};
  /** Set by the server: the registry of the served skill called `name`, if one is served. */
  servedFrom: (name: string) => Promise<string | undefined> = async () => undefined;

  constructor(options: AuthoringOptions) {
    this.skills = path.resolve(options.skills);
    this.#config = options.config;
    this.#configRoot = options.configRoot;
    this.#log = options.log;
    this.out = buildFolderFor(this.skills, options.feed);
    this.feedDir = path.join(this.out, ...FEED_PATH.split('/'));
    this.ready = this.#build();
  }

  async create(input: Given<CreateSkillInput>): Promise<CreateSkillResult> {
    await this.ready;
    const { createSkill, skillNameFor } = await import('../author/write.ts');
    // The name createSkill will use; a field it refuses is left for it to name.
    const name = attempt(() => skillNameFor(input.name, input.body, input.description));
    if (name !== undefined) await this.#refuseServedElsewhere(name, 'create');
    const result = await createSkill({
      ...input,
      skills: this.skills,
      config: this.#config,
      duplicates: await this.#duplicates(),
    });
    if (result.created) await this.#publish(`created ${result.name} (version ${result.version})`);
    return result;
  }

  async update(input: Given<UpdateSkillInput>): Promise<UpdateSkillResult> {
    await this.ready;
    const { updateSkill, VersionConflictError, UnknownSkillError } = await import('../author/index.ts');
    const result = await updateSkill({ ...input, skills: this.skills, config: this.#config }).catch(
      async (err: unknown) => {
        // The version on disk may be one recorded just now (an edit by hand): serve it, to be read again.
        if (err instanceof VersionConflictError) await this.#publish(`${input.name} is at version ${err.current}`);
        // Not in the skills folder, yet served: a peer's skill, or one registered by URL.
        if (err instanceof UnknownSkillError) await this.#refuseServedElsewhere(input.name, 'update');
        throw err;
      },
    );
    await this.#publish(`updated ${result.name} to version ${result.version}`);
    return result;
  }

  /** Why the skills folder's skill `name` is not served, when the config disables it. */
  disabledReason(name: string): string | undefined {
    const skill = this.#local?.skills.find((s) => s.id === name);
    const off = skill && configDisables(skill, this.#config);
    return off
      ? `Skill "${name}" is disabled in this catalog (${off.by} in the config), so it is not served.`
      : undefined;
  }

  /**
   * Refuses a write to a skill the catalog serves from elsewhere (a peer of federation.peers, a
   * URL of federation.skill_urls): none of it is in the skills folder, and a skill of that name
   * written there would replace it in the catalog (the build keeps the local one).
   */
  async #refuseServedElsewhere(name: string, write: 'create' | 'update'): Promise<void> {
    const registry = await this.servedFrom(name);
    if (registry === undefined) return;
    const { findSkillFolder } = await import('../author/write.ts');
    if (await findSkillFolder(this.skills, name)) return;
    const from =
      registry === this.#config.registry.name
        ? 'a URL of federation.skill_urls'
        : `the peer registry "${registry}" (federation.peers)`;
    const source = registry === this.#config.registry.name ? 'its author' : `"${registry}"`;
    throw new InvalidInputError(
      write === 'update'
        ? `Skill "${name}" comes from ${from}, not from this skills folder: update_skill changes only the skills written here. Propose the change to ${source}, or save your version as a skill of another name with create_skill; nothing was written`
        : `Skill "${name}" is already in this catalog, from ${from}: a skill of that name here would replace it (rule federation-name-clash). Choose another name; nothing was written`,
      { rule: 'served-elsewhere' },
    );
  }

  /** Rebuilds and reloads; the write itself is done, so a failure here says so. */
  async #publish(what: string): Promise<void> {
    try {
      await this.#build();
      await this.reload();
      this.#log(what);
    } catch (err) {
      throw new Error(`${what} in ${this.skills}, but the catalog could not be rebuilt: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }

  /** One build at a time, each after the previous one. */
  #build(): Promise<void> {
    const next = this.#building.catch(() => undefined).then(() => this.#buildNow());
    this.#building = next;
    return next;
  }

  async #buildNow(): Promise<void> {
    const started = performance.now();
    const [{ build, BuildSession }, { ensureStateDir }] = await Promise.all([
      import('../build.ts'),
      import('../author/history.ts'),
    ]);
    this.#session ??= new BuildSession();
    // The state folder holds the cache (git ignores it there), not the folder the client started us
    // in; where it cannot be made, only a build into it fails (the cache then goes to a temporary folder).
    const intoState = this.out.startsWith(stateDir(this.skills) + path.sep);
    await ensureStateDir(this.skills).catch((err: unknown) => {
      if (intoState) throw err;
    });
    const result = await build({
      skills: this.skills,
      out: this.out,
      cacheDir: path.join(stateDir(this.skills), CACHE_FOLDER),
      config: this.#config,
      ...(this.#configRoot === undefined ? {} : { configRoot: this.#configRoot }),
      site: false,
      session: this.#session,
      onLoaded: (local) => {
        this.#local = local;
        // The index follows the catalog: only the skills a write changed are indexed again.
        this.#index = this.#index?.then((index) => (index.sync(local.skills), index));
      },
    });
    const stages = Object.entries(result.stages)
      .map(([stage, seconds]) => `${stage} ${Math.round(seconds * 1000)}`)
      .join(', ');
    this.#log(
      `built ${result.skills} skill(s) from ${this.skills} in ${Math.round(performance.now() - started)} ms (${stages} ms)`,
    );
  }

  /** The duplicate check's index over the skills of the last build: made once, then kept in step with each build. */
  #duplicates(): Promise<DuplicateIndex> {
    // The model loads once per server, the index once (each build syncs it).
    this.#embedder ??= import('../semantic/load.ts').then(({ loadEmbedder }) => loadEmbedder());
    this.#index ??= Promise.all([import('../author/duplicate.ts'), this.#embedder]).then(
      ([{ DuplicateIndex }, embedder]) =>
        new DuplicateIndex(this.#local?.skills ?? [], {
          nearThreshold: this.#config.duplicates.near_threshold,
          embedder,
        }),
    );
    return this.#index;
  }
}

/** The server's build cache, in the state folder. */
const CACHE_FOLDER = 'cache';

/** What `fn` returns, or undefined when it throws. */
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** Where the server builds: the folder `--feed` names (a local build folder, or its feed/v1), or its own beside the skills. */
function buildFolderFor(skills: string, feed: string | undefined): string {
  if (feed === undefined) return path.join(stateDir(skills), 'mcp', path.basename(skills));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(feed))
    throw new UsageError(
      `--feed ${feed}: beside --skills, --feed names the local folder the server builds the skills into, not a URL`,
    );
  const resolved = path.resolve(feed);
  const feedPath = path.join(...FEED_PATH.split('/'));
  return resolved.endsWith(path.sep + feedPath) ? resolved.slice(0, -feedPath.length - 1) : resolved;
}
