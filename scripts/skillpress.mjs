#!/usr/bin/env node
// skillpress entry point. Runs the TypeScript sources directly: Node ≥ 22.18 strips types
// natively (fast start, which the MCP server needs); where it cannot (older Node, or the
// package installed under node_modules, where Node refuses to strip types) tsx loads them.
import module from 'node:module';

// Cache V8's compiled code on disk (Node ≥ 22.1; the OS temp folder, or NODE_COMPILE_CACHE):
// later starts skip parsing and compiling the modules, which `skillpress mcp` feels most.
module.enableCompileCache?.();

const entry = new URL('../src/cli/main.ts', import.meta.url);
let mod;
try {
  mod = await import(entry.href);
} catch (err) {
  if (err?.code !== 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING' && err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import(entry.href);
}
const code = await mod.main(process.argv.slice(2));
// Commands that keep serving (mcp) never resolve; the others exit with their code.
process.exitCode = code;
