/**
 * Ignore rules for skill folders. A rule ending in `/` matches a directory name, any other
 * rule matches a file name; `*` matches any run of characters. Matching is on one path
 * segment, so `__pycache__/` is ignored at every depth.
 */
export const DEFAULT_IGNORE = ['__pycache__/', '*.pyc', '.DS_Store', '.git/', 'node_modules/'];

export interface IgnoreMatcher {
  dir(name: string): boolean;
  file(name: string): boolean;
}

function toRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export function ignoreMatcher(rules: readonly string[] = DEFAULT_IGNORE): IgnoreMatcher {
  const dirRules = rules.filter((r) => r.endsWith('/')).map((r) => toRegExp(r.slice(0, -1)));
  const fileRules = rules.filter((r) => !r.endsWith('/')).map(toRegExp);
  return {
    // A file rule also ignores a directory of that name (`.git` can be a file in worktrees).
    dir: (name) => dirRules.some((re) => re.test(name)) || fileRules.some((re) => re.test(name)),
    file: (name) => fileRules.some((re) => re.test(name)),
  };
}
