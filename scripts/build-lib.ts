// Compile skillpress for use from node_modules, where Node refuses to strip types
// (`npm run build:lib`; `prepare` runs it at `npm install`/`npm ci` and before `npm pack`):
//
// - lib/**            tsc: one JavaScript file + declarations per source file, the same tree as
//                     src/ (so paths relative to a module, such as the package root, hold).
//                     The `exports` map of package.json points here.
// - lib/bin/          esbuild: the command line bundled and minified with the packages it uses
//                     (but Astro and the Elasticsearch client), split per command (each loads
//                     when run). scripts/skillpress.mjs
//                     starts it: `skillpress mcp` answers a client in about half the time the
//                     type-stripped sources take. Measured with `npm run bench:mcp`.
// - lib/bin/inputs.json  the source files in the bundle and the manifests of the packages in it:
//                     in a working copy the bin runs src/ instead when one of them is newer than
//                     this file (an edit or an update since the last build).
//
// Types are not checked here (`npm run typecheck` does that): tsc only emits.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIB = path.join(ROOT, 'lib');
const BIN_DIR = path.join(LIB, 'bin');
const BIN_INPUTS = path.join(BIN_DIR, 'inputs.json');

/**
 * Packages left out of the bundle, loaded from node_modules when used: Astro runs its own files
 * (and Vite) at build time, and the Elasticsearch client is only needed to ingest. Every other
 * package is bundled, so no start pays for resolving and reading a package's many files.
 */
const EXTERNAL_PACKAGES = /^(astro|@elastic\/elasticsearch)(\/|$)/;

function emitLibrary(): void {
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--noCheck'], {
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`tsc exited with ${run.status ?? run.signal}`);
}

/**
 * The bundle's chunks sit in lib/bin/, two levels below the package root. A module that finds
 * files relative to itself (`new URL('../../../config/', import.meta.url)`) gets the URL its
 * source file has, so those paths resolve as they do from src/.
 */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBin = path.relative(BIN_DIR, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBin)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: EXTERNAL_PACKAGES }, (args) => ({ path: args.path, external: true }));
  },
};

/** CommonJS packages inside an ES module bundle call `require` for Node's own modules: give them one. */
const REQUIRE_SHIM =
  "import { createRequire as __skillpressRequire } from 'node:module'; const require = __skillpressRequire(import.meta.url);";

async function bundleBin(): Promise<void> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
    outdir: BIN_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // A package's ES module build where it has one (`module`), so unused parts are left out:
    // stopword's CommonJS build would bring the lists of 62 languages, its ES build only English.
    mainFields: ['module', 'main'],
    minify: true,
    metafile: true,
    absWorkingDir: ROOT,
    logLevel: 'warning',
    banner: { js: REQUIRE_SHIM },
    plugins: [sourceUrls, externalPackages],
  });
  // The sources, and the manifests of the packages inside (an update of one rewrites it).
  const files = Object.keys(result.metafile.inputs);
  const packages = new Set(
    files.map((f) => /^node_modules\/((@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((p) => p !== undefined),
  );
  const inputs = [
    ...files.filter((f) => f.startsWith('src/')),
    ...[...packages].map((p) => `node_modules/${p}/package.json`),
  ].sort();
  writeFileSync(BIN_INPUTS, JSON.stringify({ inputs }, null, 1) + '\n');
}

rmSync(LIB, { recursive: true, force: true });
let t = performance.now();
emitLibrary();
console.log(`build:lib: lib/ compiled by tsc in ${((performance.now() - t) / 1000).toFixed(1)} s`);
t = performance.now();
mkdirSync(BIN_DIR, { recursive: true });
await bundleBin();
console.log(`build:lib: lib/bin/ bundled by esbuild in ${((performance.now() - t) / 1000).toFixed(1)} s`);
