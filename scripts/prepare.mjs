// `prepare` (npm install, npm ci, npm pack, and an install from git): build lib/ with
// scripts/build-lib.ts. npm prepares a git dependency by running `npm install` in its clone, but
// for a global install (`npm install -g git+https://…`) that inner install inherits `--global`
// and puts the build tools somewhere else (npm/cli#8440), so the build cannot find esbuild or
// typescript. Then install them into the clone first (no scripts: the build needs none).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(new URL('../package.json', import.meta.url));

function resolvable(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!resolvable('esbuild') || !resolvable('typescript')) {
  process.stderr.write('skillpress prepare: the build tools are missing here; installing them into this folder\n');
  // Drop every npm_config_* the outer npm passed down (global, prefix, omit…): this install is local.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm ? [process.execPath, [npm]] : ['npm', []];
  run(
    command,
    [...prefix, 'install', '--no-save', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    env,
  );
}
run(process.execPath, ['scripts/build-lib.ts']);
