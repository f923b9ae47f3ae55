/**
 * The environment a user's own shell gives `npm`, with this repository's Node 22 first on PATH.
 *
 * Under `npm test`, npm exports the project it runs in to every child (`npm_config_local_prefix`,
 * `npm_package_json`, `INIT_CWD`, …). A child `npm pack` or `npm install` then acts on this
 * repository instead of the folder it was started in: it ran `prepare` here and rewrote lib/bin/
 * while other tests were running the CLI from it.
 */
import path from 'node:path';

const NPM_RUN_CONTEXT = /^(npm_config_(local_prefix|prefix|global_prefix)|npm_package_.*|npm_lifecycle_.*|INIT_CWD)$/i;

export function userNpmEnv(nodeBinary: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !NPM_RUN_CONTEXT.test(key)) env[key] = value;
  return { ...env, PATH: `${path.dirname(nodeBinary)}${path.delimiter}${process.env.PATH}`, CI: 'true' };
}
