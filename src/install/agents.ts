/**
 * Where agents look for skills. Project folders are relative to the current directory; global
 * ones are under the home directory. Taken from the agents' own documentation as collected by
 * the `skills` CLI (vercel-labs/skills, src/agents.ts): several agents share the
 * cross-agent `.agents/skills` folder in a project and differ only in their global folder.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../lib/errors.ts';

export interface AgentLocation {
  name: string;
  label: string;
  /** Relative to the project (current directory). */
  project: string;
  /** Absolute, under the home directory (or the agent's own *_HOME variable). */
  global: (env?: NodeJS.ProcessEnv, home?: string) => string;
}

const under =
  (...parts: string[]) =>
  (_env: NodeJS.ProcessEnv = process.env, home = homedir()) =>
    path.join(home, ...parts);
const xdg =
  (...parts: string[]) =>
  (env: NodeJS.ProcessEnv = process.env, home = homedir()) =>
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
    global: (env = process.env, home = homedir()) =>
      path.join(env.CLAUDE_CONFIG_DIR?.trim() || path.join(home, '.claude'), 'skills'),
  },
  {
    name: 'codex',
    label: 'OpenAI Codex',
    project: '.agents/skills',
    global: (env = process.env, home = homedir()) =>
      path.join(env.CODEX_HOME?.trim() || path.join(home, '.codex'), 'skills'),
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

/** The skills folder for `--agent` / `--global` (relative project folders resolve against `cwd`). */
export function skillsFolder(
  agent: string,
  global: boolean,
  cwd = process.cwd(),
  env = process.env,
  home = homedir(),
): string {
  const a = agentLocation(agent);
  if (!a) throw new UsageError(`unknown agent "${agent}"; known agents: ${AGENTS.map((x) => x.name).join(', ')}`);
  return global ? a.global(env, home) : path.resolve(cwd, a.project);
}
