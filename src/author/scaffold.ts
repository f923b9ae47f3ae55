/**
 * `skillpress new`: a skill folder to start from, valid under `validate --strict` once its `TODO`
 * placeholders are filled in (src/load/placeholders.ts knows them). Two templates: `basic` (what
 * it does, when to use it, the steps) and `playbook` (when it applies, numbered Do / Check / Say
 * steps, the resolution).
 */
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkName } from '../load/validate.ts';
import { placeholderDescription } from '../load/placeholders.ts';
import { InvalidInputError, UsageError } from '../lib/errors.ts';
import { SKILL_FILE } from '../load/find-skills.ts';
import { composeSkillMarkdown } from './skill-md.ts';
import { SkillpressConfig } from '../model/config.ts';
import { findSkillFolder, groupFolder, refuseGitIgnored, skillFolders } from './write.ts';

export const TEMPLATES = ['basic', 'playbook'] as const;
export type Template = (typeof TEMPLATES)[number];

export interface ScaffoldOptions {
  /** The skills folder (created if missing). */
  skills: string;
  name: string;
  description?: string;
  template?: Template;
  /** A group folder inside the skills folder (`engineering/security`, made when missing), checked as create_skill's `folder`. */
  folder?: string;
  /** Its ignore rules and max_depth apply to `folder` (default: defaults). */
  config?: SkillpressConfig;
}

/**
 * Writes `<skills>/<name>/SKILL.md` from a template (`basic` or `playbook`) that passes
 * `validate --strict` once its `TODO` placeholders are replaced; returns the folder. Refuses an existing folder, and an invalid name with
 * the rule and a valid name to use instead.
 *
 * @example
 * ```ts
 * import { scaffoldSkill } from 'skillpress';
 * const dir = await scaffoldSkill({ skills: 'skills', name: 'reset-password', template: 'playbook' });
 * ```
 */
export async function scaffoldSkill(options: ScaffoldOptions): Promise<string> {
  const { name } = options;
  const template = options.template ?? 'basic';
  if (!TEMPLATES.includes(template))
    throw new UsageError(`--template ${String(template)}: use one of ${TEMPLATES.join(', ')}`);
  const problems = checkName(name, undefined);
  if (problems.length > 0 || name === '')
    throw new InvalidInputError(
      name === '' ? 'name must not be empty' : `${problems.map((p) => `[${p.rule}] ${p.message}`).join('; ')}`,
      { rule: problems[0]?.rule ?? 'name-required' },
    );
  const config = options.config ?? SkillpressConfig.parse({});
  const dir = path.join(await groupFolder(options.skills, options.folder, config), name);
  await refuseGitIgnored(options.skills, options.folder, dir);
  // A skill of that name in a group folder counts too: the build would publish only one of the two.
  const taken = (await lstat(dir).catch(() => undefined)) ? dir : await findSkillFolder(options.skills, name);
  if (taken)
    throw new UsageError(
      `${taken} already exists: choose another name (such as "${await freeName(options.skills, name)}"), or edit that skill`,
      { rule: 'exists' },
    );
  const title = name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
  const description = options.description?.trim() || placeholderDescription(title);
  const body = template === 'playbook' ? playbook(title) : basic(title);
  const text = composeSkillMarkdown({ name, description, body, metadata: { version: '1' } });
  // Written beside and renamed in: the folder appears whole.
  const staging = `${dir}.new-${process.pid}`;
  await mkdir(staging, { recursive: true });
  try {
    await writeFile(path.join(staging, SKILL_FILE), text, { flag: 'wx' });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return dir;
}

/** `name-2`, `name-3` … : the first that is not taken. */
async function freeName(skills: string, name: string): Promise<string> {
  const root = path.resolve(skills);
  const held = new Set((await skillFolders(root)).map((dir) => path.basename(dir)));
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, 60)}-${n}`;
    if (!held.has(candidate) && !(await lstat(path.join(root, candidate)).catch(() => undefined))) return candidate;
  }
}

function basic(title: string): string {
  return `# ${title}

## When to use

- TODO: the requests and situations this skill is for.

## Steps

1. TODO: the first thing to do.
2. TODO: how to check it worked.

## Notes

- TODO: limits, pitfalls, files of this skill to read (link them, e.g. \`references/guide.md\`).
`;
}

// Do, Check and Say are list items of their own: lines of one paragraph would be run together.
function playbook(title: string): string {
  return `# ${title}

## Conditions

This playbook applies when:

- TODO: the customer's problem, in their words.
- TODO: what must be true (product, plan, account state).

## Steps

1. TODO: the first step, in a few words.
   - **Do:** TODO: the action (a lookup, a tool call).
   - **Check:** TODO: what the result must show before going on.
   - **Say:** TODO: what to tell the customer.
2. TODO: the next step.
   - **Do:** TODO: the action.
   - **Check:** TODO: how to tell it worked.
   - **Say:** TODO: the update for the customer.

## Resolution

- TODO: what "solved" looks like, and how to confirm it with the customer.
- TODO: when to escalate, and to whom.
`;
}
