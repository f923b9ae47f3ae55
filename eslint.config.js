// @ts-check
// `npm run check` runs this (with tsc and prettier); CI fails on any error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * The layers of src/ (docs/development.md, "Layout"), and what each may import besides itself.
 * Data flows down: shared I/O and the model at the bottom, the loader and the feed reader above
 * them, the emitters (feed, Elasticsearch, site) side by side and blind to each other, the
 * pipeline (build.ts) above those, and the commands on top. A new arrow between layers is a
 * decision: make it here, and in docs/development.md.
 */
const LAYERS = {
  lib: [],
  model: ['lib'],
  search: ['lib', 'model'],
  // Skill vectors implement the ranking's meaning index (search/hybrid.ts).
  semantic: ['lib', 'model', 'search'],
  route: ['lib', 'model', 'search', 'semantic'],
  load: ['lib', 'model'],
  config: ['lib', 'model', 'load'],
  'feed-reader': ['lib', 'model', 'load'],
  duplicates: ['lib', 'model'],
  federate: ['lib', 'model', 'load', 'feed-reader'],
  'emit/feed': ['lib', 'model', 'load', 'feed-reader', 'search', 'semantic', 'enable'],
  'emit/elasticsearch': ['lib', 'model', 'load', 'semantic'],
  site: ['lib', 'model', 'search', 'semantic'],
  install: ['lib', 'model', 'load', 'feed-reader'],
  usage: ['lib', 'model', 'emit/elasticsearch'],
  // enable/: a write refuses, and the server explains, a skill the config disables.
  author: ['lib', 'model', 'load', 'duplicates', 'semantic', 'enable'],
  enable: ['lib', 'model'],
  'tools-check': ['lib', 'model', 'load'],
  // With --skills the server builds the folder it writes to (build.ts) and writes through author/.
  mcp: ['lib', 'model', 'feed-reader', 'route', 'search', 'semantic', 'usage', 'author', 'enable', 'build.ts'],
  'elasticsearch.ts': ['lib', 'model', 'emit/elasticsearch'],
  // The local skills as the build and `skillpress ingest` both load them (one step: the same dates).
  'local-catalog.ts': ['lib', 'model', 'config', 'load', 'author', 'enable'],
  'build.ts': [
    'lib',
    'model',
    'config',
    'load',
    'federate',
    'duplicates',
    'emit/feed',
    'emit/elasticsearch',
    'elasticsearch.ts',
    'site',
    'author',
    'usage',
    'enable',
    'tools-check',
    'local-catalog.ts',
  ],
  serve: ['lib', 'model', 'config', 'build.ts', 'site'],
  init: ['lib', 'model', 'config', 'build.ts', 'site'],
};
/** Only the commands and the library's entry sit above everything; nothing imports them. */
const TOP = ['cli', 'index.ts'];
const ALL = [...Object.keys(LAYERS), ...TOP];

const layerZones = [
  ...Object.entries(LAYERS).map(([layer, allowed]) => ({
    target: `./src/${layer}`,
    from: './src',
    except: [layer, ...allowed].map((name) => `./${name}`),
    message: allowed.length
      ? `src/${layer} may import only ${allowed.join(', ')} from src (eslint.config.js LAYERS).`
      : `src/${layer} imports nothing else from src (eslint.config.js LAYERS).`,
  })),
  {
    target: './src/cli',
    from: './src',
    except: ALL.filter((name) => name !== 'index.ts').map((name) => `./${name}`),
    message: 'The commands use the layers, never the library entry (src/index.ts).',
  },
  {
    target: './src/index.ts',
    from: './src',
    except: ALL.filter((name) => name !== 'cli').map((name) => `./${name}`),
    message: 'The library never imports the command line.',
  },
  {
    target: './src',
    from: ['./test', './bench', './scripts'],
    message: 'The package never imports its tests, benchmarks or scripts.',
  },
];

export default tseslint.config(
  { ignores: ['lib/', 'dist/', '.cache/', '.astro/', 'node_modules/', 'skills/', 'test-results/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mts,mjs,js}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // Without these, import-x parses no TypeScript module and no-cycle sees no arrow.
      'import-x/extensions': ['.ts', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts'] },
    },
    // Scripts, benches and configs run on Node; TypeScript files are checked by tsc instead.
    languageOptions: { globals: globals.node },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // `_`-prefixed names are deliberately unused: a parameter kept for the signature, or a
      // property left out of a rest copy (`const { drop: _, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Type-aware: an assertion (`x!`, `x as T`) the compiler can see through is an error, so the
    // `!`s that stay are the ones it cannot (an index known to be in range, a key just set).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'error' },
  },
  {
    // Tests and benchmarks read JSON answers (tool results, --json output) whose shape is what
    // they go on to assert; typing each one would restate the schemas under test.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The unit layer runs in process (test/vitest.config.ts): spawning belongs to *.cli.test.ts.
    files: ['test/**/*.test.ts'],
    ignores: ['test/**/*.{cli,stdio,es,browser}.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'node:child_process', message: 'Unit tests spawn nothing: name the file *.cli.test.ts.' }] },
      ],
    },
  },
  {
    // Code that runs in the browser: the site's scripts and the dev server's reload client.
    files: ['src/site/client/**', 'src/serve/dev-client.js'],
    languageOptions: { globals: globals.browser },
  },
);
