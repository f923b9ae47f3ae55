#!/usr/bin/env node
// skillpress entry point. Runs the bundled command line, lib/bin/main.js, which `npm run
// build:lib` writes (at `npm install`, `npm ci` and `npm pack`, by `prepare`): it starts in about
// half the time the TypeScript sources take, which `skillpress mcp` needs. In a working copy,
// when that bundle is missing or a file it was built from has changed since (a developer editing
// src/, a checkout, an update of a package bundled in it), the sources run instead (Node ≥ 22.18
// strips their types), so an edit is never ignored. Inside node_modules, where Node strips no types, the bundle always runs.
// SKILLPRESS_SOURCES=1 runs the sources; SKILLPRESS_DEBUG=1 says which ran and why.
import module from 'node:module';
import { readFileSync, statSync } from 'node:fs';

// package.json's `engines` only warns at install: say it here, before anything fails obscurely.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  // Installed (in a project or globally), the repository's npm scripts are no help: say how to get Node 22.
  const hint = import.meta.url.includes('/node_modules/')
    ? 'Install it, or in your project run `npm install -D node@22`: `npx skillpress …` and npm scripts then run on that Node.'
    : 'In the repository, `npm run …` scripts run the Node 22 the `node` dev dependency provides.';
  process.stderr.write(`skillpress needs Node.js 22.18 or later; this is ${process.version}. ${hint}\n`);
  process.exit(2);
}

// Cache V8's compiled code on disk (Node ≥ 22.1; the OS temp folder, or NODE_COMPILE_CACHE):
// later starts skip parsing and compiling the modules, which `skillpress mcp` feels most.
module.enableCompileCache?.();

const root = new URL('../', import.meta.url);
const bundle = new URL('lib/bin/main.js', root);
const sources = new URL('src/cli/main.ts', root);

/** Why the bundle cannot run, or undefined when it is current: built after every file in it last changed. */
function bundleProblem() {
  if (process.env.SKILLPRESS_SOURCES) return 'SKILLPRESS_SOURCES is set';
  // An installed package: its files' times say when they were unpacked, not when they changed.
  if (root.pathname.includes('/node_modules/')) return undefined;
  let built, inputs;
  try {
    const stamp = new URL('lib/bin/inputs.json', root);
    built = statSync(stamp).mtimeMs;
    inputs = JSON.parse(readFileSync(stamp, 'utf8')).inputs;
  } catch {
    return 'lib/bin/ is missing (run `npm run build:lib`)';
  }
  for (const input of inputs) {
    const changed = statSync(new URL(input, root), { throwIfNoEntry: false })?.mtimeMs;
    if (changed === undefined || changed > built) return `${input} changed since lib/bin/ was built`;
  }
  return undefined;
}

const problem = bundleProblem();
const entry = problem ? sources : bundle;
if (process.env.SKILLPRESS_DEBUG)
  process.stderr.write(`skillpress: running ${entry.pathname}${problem ? ` (${problem})` : ''}\n`);
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// Commands that keep serving (mcp) never resolve; the others exit with their code.
process.exitCode = code;
