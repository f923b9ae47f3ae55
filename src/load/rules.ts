/**
 * Every rule `skillpress validate` (the loader) reports, by the id each problem carries, with
 * its severity in each mode and what it means. docs/reference/rules.md is generated from this
 * list (`npm run docs`); a unit test checks that the loader reports no rule missing here and that
 * every rule here is reported somewhere.
 */
import type { Severity } from '../model/skill.ts';

export interface ValidationRule {
  /** Severity with `--strict`; undefined when that mode reports the problem under another rule. */
  strict?: Severity;
  /** Severity in the default (lenient) mode; undefined likewise. */
  lenient?: Severity;
  meaning: string;
}

const ERROR: Pick<ValidationRule, 'strict' | 'lenient'> = { strict: 'error', lenient: 'error' };
const WARNING: Pick<ValidationRule, 'strict' | 'lenient'> = { strict: 'warning', lenient: 'warning' };
/** An error by the specification that the client-implementation guide lets a loader forgive. */
const FORGIVEN: Pick<ValidationRule, 'strict' | 'lenient'> = { strict: 'error', lenient: 'warning' };

export const VALIDATION_RULES = {
  'root-missing': { ...ERROR, meaning: 'the skills folder does not exist or is not a folder' },
  'no-skills': { ...ERROR, meaning: 'no SKILL.md anywhere under the skills folder' },
  'frontmatter-missing': { ...ERROR, meaning: 'SKILL.md does not start with a `---` line' },
  'frontmatter-unclosed': { ...ERROR, meaning: 'no closing `---` line after the front matter' },
  'frontmatter-size': { ...ERROR, meaning: 'the front matter is over 65,536 characters (checked before parsing)' },
  'frontmatter-yaml': {
    ...ERROR,
    meaning:
      "the front matter is not valid YAML (duplicate keys and nesting too deep for the parser included); the line is the one to fix: where an unclosed quote opened, the tab-indented or wrongly indented line, the value holding an unquoted `: `; common mistakes are said in plain words, others in the YAML library's",
  },
  'frontmatter-yaml-repaired': {
    lenient: 'warning',
    meaning:
      'a value containing `: ` was unquoted; it was read as a string (`--strict` reports `frontmatter-yaml`): quote it',
  },
  'frontmatter-not-mapping': { ...ERROR, meaning: 'the front matter is a list or a scalar, not `key: value` fields' },
  'name-required': {
    ...FORGIVEN,
    meaning: 'no `name` (lenient uses the folder name if it is a valid name, else it is an error)',
  },
  'name-type': { ...ERROR, meaning: '`name` is not a string' },
  'name-length': { ...FORGIVEN, meaning: '`name` is over 64 characters (an error in both modes over 200)' },
  'name-lowercase': {
    ...ERROR,
    meaning:
      '`name` has uppercase letters; a valid name is suggested (lenient reports `name-normalized` instead when the folder name or the suggested one is a valid id)',
  },
  'name-hyphen-ends': {
    ...ERROR,
    meaning:
      '`name` starts or ends with `-` (lenient reports `name-normalized` instead when the folder name or the suggested one is a valid id)',
  },
  'name-double-hyphen': {
    ...ERROR,
    meaning:
      '`name` contains `--` (lenient reports `name-normalized` instead when the folder name or the suggested one is a valid id)',
  },
  'name-characters': {
    ...ERROR,
    meaning:
      '`name` has characters other than `a-z`, `0-9`, `-` (lenient reports `name-normalized` instead when the folder name or the suggested one is a valid id)',
  },
  'name-matches-folder': {
    ...FORGIVEN,
    meaning: "`name` is not the folder's name (compared after Unicode NFC normalisation)",
  },
  'name-normalized': {
    lenient: 'warning',
    meaning:
      "`name` is not a valid id (uppercase, spaces, `_`, `--`, a hyphen at an end): the skill is loaded under its folder's name or the normalized name, and the written name becomes its title; the message names both and the rules broken",
  },
  'name-unique': {
    ...ERROR,
    meaning:
      'another skill (earlier in path order, which keeps the name) already has this name, with other content; the message names both folders and both content digests (`skills.precedence` can settle it: `name-shadowed`)',
  },
  'name-shadowed': {
    ...WARNING,
    meaning:
      'another skill with this name and other content is in a folder `skills.precedence` lists before this one, so it keeps the name and this one is left out; the message names both folders and both content digests',
  },
  'precedence-folder': {
    ...WARNING,
    meaning: '`skills.precedence` lists a folder that holds no skill (a typo, or a source since removed)',
  },
  'duplicate-copy': {
    ...WARNING,
    meaning:
      'the same skill (same name, same files) is committed in other folders too: the first in path order (after `skills.precedence`) is published, the copies (listed) are not',
  },
  'tags-limit': {
    ...WARNING,
    meaning: 'more than 20 tags, or a tag over 64 characters: only the first 20 tags of at most 64 characters are kept',
  },
  'description-required': { ...ERROR, meaning: '`description` is missing or empty' },
  'description-type': { ...ERROR, meaning: '`description` is not a string' },
  'description-length': {
    ...FORGIVEN,
    meaning: '`description` is over 1024 characters; search and routing read only the first 1,024 (the rest is cut)',
  },
  'compatibility-type': { ...FORGIVEN, meaning: '`compatibility` is not a string' },
  'compatibility-length': { ...FORGIVEN, meaning: '`compatibility` is empty or over 500 characters' },
  'license-type': { ...FORGIVEN, meaning: '`license` is not a string' },
  'metadata-type': { ...FORGIVEN, meaning: '`metadata` is not a mapping' },
  'metadata-string-values': {
    ...FORGIVEN,
    meaning:
      'a `metadata` value is not a string (`version: 1.0` is a YAML number: write `version: "1.0"`); lenient keeps it as written',
  },
  'allowed-tools-type': {
    ...FORGIVEN,
    meaning: '`allowed-tools` is neither a space-separated string nor a list of strings',
  },
  'allowed-tools-syntax': {
    ...WARNING,
    meaning:
      'an `allowed-tools` entry is not a tool reference (`Name`, `Name(capability)`, `mcp__server__tool`, `mcp__server`; `mcp__github__` and `mcp__` name no tool or no server) or opens a parenthesis it never closes; it is left out of the tools checked',
  },
  'requires-format': {
    ...WARNING,
    meaning:
      '`requires` is not a mapping, `requires.mcp` is not a list of server names, or `requires` has a key skillpress does not read (it reads `mcp`)',
  },
  'requirements-format': {
    ...WARNING,
    meaning:
      'an entry of `metadata.requirements` (or `requirements`) is not `type:target[>=min][<=max][?]` with type product, tool, api or environment; it is left out (a bound that is not a version, such as `>=abc`, is left out of a requirement that is kept)',
  },
  'target-agents-format': {
    ...WARNING,
    meaning: '`metadata.target_agents` (or `target_agents`) is not a list of names or a comma-separated string',
  },
  'unknown-field': {
    ...FORGIVEN,
    meaning:
      'a top-level field the specification does not define: move it under `metadata`; one within two letters of a known field is asked about (`descripton`: did you mean `description`?), and `requires`, `requirements`, `target_agents` are told their form within the specification (lenient accepts them and registry fields such as `tags` silently)',
  },
  'client-field': {
    strict: 'error',
    meaning:
      "a top-level field an agent client documents and reads there (Claude Code's `disable-model-invocation`, `argument-hint`, `user-invocable`, `model`, `context`, `hooks`, `paths` and the like; VS Code's `user-invokable`): other agents ignore it; lenient mode accepts it silently, since moving it under `metadata` would stop that client reading it",
  },
  'visibility-value': {
    ...ERROR,
    meaning: '`visibility` is not `public`, `private` or `group` (the skill would otherwise be treated as private)',
  },
  'link-target-exists': {
    ...WARNING,
    meaning:
      "a relative link in SKILL.md points to no file or folder of the skill (the line is the link's); a link starting `{baseDir}/` or `${CLAUDE_SKILL_DIR}/` (placeholders the agent's client fills in with the skill's folder) is read from the skill folder, and so is such a path anywhere in the body, commands included, when the folder it names or the script it runs is not there (a file in an existing folder may be one the instructions write)",
  },
  'link-outside-skill': {
    ...WARNING,
    meaning: 'a relative link goes above the skill folder (`../…`), where agents cannot follow it',
  },
  'plugin-root-file': {
    ...WARNING,
    meaning:
      "SKILL.md names a path below `${CLAUDE_PLUGIN_ROOT}` (the folder of the Claude Code plugin the skill came in) outside the skill's own folder: the catalog publishes the skill's folder, so agents that install it from there lack that file (a path through `skills/<the skill's folder>/` is the skill's own, checked as `link-target-exists`)",
  },
  'scaffold-placeholder': {
    ...FORGIVEN,
    meaning:
      "the `description` or the body still holds a placeholder `skillpress new` wrote (`TODO: what … does and when to use it …`, the templates' `TODO:` lines): the skill was never filled in",
  },
  'skill-md-lines': { ...WARNING, meaning: "SKILL.md is over 500 lines (the specification's guidance)" },
  'body-tokens': { ...WARNING, meaning: 'the SKILL.md body is over about 5,000 tokens (o200k tokenizer)' },
  'skill-md-name': { ...ERROR, meaning: 'a folder holds `skill.md` (or another casing) instead of `SKILL.md`' },
  'skill-md-readable': { ...ERROR, meaning: 'SKILL.md is not UTF-8 text, or was too large to store' },
  'file-too-large': {
    ...WARNING,
    meaning:
      'a file is over `skills.max_file_bytes` (1 MiB; a file of exactly that size is kept): it is listed with a skip reason and its sha256, not stored',
  },
  'git-lfs-pointer': {
    ...WARNING,
    meaning:
      'a file is a Git LFS pointer, not the file it stands for (the repository was cloned without `git lfs pull`): published as it is, as text/plain, with a warning',
  },
  'symlink-escape': {
    ...ERROR,
    meaning: 'a symlink resolves outside its skill folder, or into a skill nested in it; its target is never read',
  },
  'symlink-broken': { ...WARNING, meaning: 'a symlink to nothing' },
  'symlink-loop': { ...WARNING, meaning: 'a symlink that leads back to itself through other links' },
  'symlink-folder': {
    ...WARNING,
    meaning: "a symlink to a folder inside the skill: not followed (the folder's files are stored where they are)",
  },
  'symlink-not-followed': {
    ...WARNING,
    meaning: 'a symlink to a folder outside any skill folder (not followed; a link to a file there says nothing)',
  },
  'special-file': { ...WARNING, meaning: 'a device, socket or pipe, or a symlink to one' },
  'path-unpublishable': {
    ...WARNING,
    meaning:
      'a file or folder whose path breaks the rule for published paths (drive letter, control character, backslash, too long): left out, the rest of the skill loads',
  },
  'name-not-utf8': { ...WARNING, meaning: 'a file or folder name that is not valid UTF-8: left out, reported once' },
  'max-depth': { ...WARNING, meaning: 'a skill folder deeper than `skills.max_depth`: not loaded' },
  unreadable: { ...WARNING, meaning: 'a file or folder that cannot be read' },
  'nested-skill': {
    ...WARNING,
    meaning:
      'a folder inside this skill holds its own SKILL.md: it is a separate skill, and its files are not part of this one',
  },
} as const satisfies Record<string, ValidationRule>;

/**
 * The rules `skillpress build` (and `dev`) add once every skill is loaded: they compare skills
 * with each other (src/duplicates/), so `validate`, which checks each skill, does not report them.
 */
export const BUILD_RULES = {
  'duplicate-identical': {
    ...WARNING,
    meaning:
      'another skill, under another name, has the same instructions and files: both are published; remove one or make it differ',
  },
  'duplicate-near': {
    ...WARNING,
    meaning:
      'another skill, under another name, is at least `duplicates.near_threshold` similar (TF-IDF cosine of description and body): both are published; merge them, or make the descriptions say when to use each',
  },
} as const satisfies Record<string, ValidationRule>;
