/**
 * The Node.js skillpress needs, checked when the library is imported: on an older Node a missing
 * built-in (such as `findPackageJSON` of node:module) would otherwise fail with an error that
 * names the built-in, not the Node version. Imported first by every entry point.
 */
export const REQUIRED_NODE = '22.18';

/** An Error saying which Node.js is needed, or undefined when `version` is recent enough. */
export function nodeVersionProblem(version: string): Error | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = REQUIRED_NODE.split('.').map(Number) as [number, number];
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return new Error(`skillpress needs Node.js ${REQUIRED_NODE} or later; this is Node.js ${version}`);
}

// Only under Node: the site's search script bundles `skillpress/search` for the browser, which has no `process`.
const node = typeof process === 'undefined' ? undefined : process.versions?.node;
const problem = node === undefined ? undefined : nodeVersionProblem(node);
if (problem) throw problem;
