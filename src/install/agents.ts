/**
 * Where agents look for skills. Project folders are relative to the project folder; global
 * ones are under the home directory. Taken from the agents' own documentation as collected by
 * the `skills` CLI (vercel-labs/skills, src/agents.ts): several agents share the
 * cross-agent `.agents/skills` folder in a project and differ only in their global folder.
 */
import path from 'node:path';
import { UsageError } from '../lib/errors.ts';

export interface AgentLocation {
  name: string;
  label: string;
  /** Relative to the project folder. */
  project: string;
  /** Absolute, under the home directory (or the folder the agent's own variable names, such as CODEX_HOME). */
  global: (env: Environment, home: string) => string;
}

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

const under =
  (...parts: string[]) =>
  (_env: Environment, home: string) =>
    path.join(home, ...parts);
const xdg =
  (...parts: string[]) =>
  (env: Environment, home: string) =>
    path.join(env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config'), ...parts);

export const AGENTS: AgentLocation[] = [
  {
    name: 'agents',
    label: 'any agent reading .agents/skills (the default)',
    project: '.agents/skills',
    global: under('.agents', 'skills'),
  },
  {
    name: 'claude',
    label: 'Claude Code',
    project: '.claude/skills',
    global: (env, home) => path.join(env.CLAUDE_CONFIG_DIR?.trim() || path.join(home, '.claude'), 'skills'),
  },
  {
    name: 'codex',
    label: 'OpenAI Codex',
    project: '.agents/skills',
    global: (env, home) => path.join(env.CODEX_HOME?.trim() || path.join(home, '.codex'), 'skills'),
  },
  { name: 'cursor', label: 'Cursor', project: '.agents/skills', global: under('.cursor', 'skills') },
  { name: 'gemini', label: 'Gemini CLI', project: '.agents/skills', global: under('.gemini', 'skills') },
  { name: 'copilot', label: 'GitHub Copilot', project: '.agents/skills', global: under('.copilot', 'skills') },
  { name: 'opencode', label: 'OpenCode', project: '.agents/skills', global: xdg('opencode', 'skills') },
  { name: 'amp', label: 'Amp', project: '.agents/skills', global: xdg('agents', 'skills') },
  { name: 'windsurf', label: 'Windsurf', project: '.windsurf/skills', global: under('.codeium', 'windsurf', 'skills') },
  { name: 'goose', label: 'Goose', project: '.goose/skills', global: xdg('goose', 'skills') },
  { name: 'roo', label: 'Roo Code', project: '.roo/skills', global: under('.roo', 'skills') },
];

function agentLocation(name: string): AgentLocation | undefined {
  return AGENTS.find((a) => a.name === name);
}

/** Where {@link skillsFolder} looks: the CLI passes its working directory, `process.env` and `os.homedir()`. */
export interface SkillsFolderOptions {
  /** The agent's folder for all projects (under `home`) instead of the one in `cwd`. */
  global?: boolean;
  /** The project folder. */
  cwd: string;
  /** Read for the agents' own variables: CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME. */
  env: Environment;
  home: string;
}

/**
 * The skills folder an agent reads (`skillpress install --agent name [--global]`). Throws a
 * {@link UsageError} for an agent not in {@link AGENTS}.
 *
 * @example
 * ```ts
 * import { homedir } from 'node:os';
 * import { install, skillsFolder } from 'skillpress';
 * const to = skillsFolder('claude', { cwd: process.cwd(), env: process.env, home: homedir() }); // ./.claude/skills
 * await install('https://skills.example/', 'pdf-tools', { to });
 * ```
 */
export function skillsFolder(agent: string, options: SkillsFolderOptions): string {
  const a = agentLocation(agent);
  if (!a) throw new UsageError(`unknown agent "${agent}"; known agents: ${AGENTS.map((x) => x.name).join(', ')}`);
  return options.global ? a.global(options.env, options.home) : path.resolve(options.cwd, a.project);
}
