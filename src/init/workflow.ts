/**
 * The GitHub Actions workflow `skillpress init` writes: build the catalog and publish it to
 * GitHub Pages on every push to the default branch. The site's base path comes from
 * actions/configure-pages (`/<repo>/` for a project site, `/` for a user or organization site
 * or a custom domain), so the same file works wherever Pages serves it.
 */

export interface WorkflowOptions {
  /** What CI installs: an npm install spec (a git URL, a tarball URL). */
  packageSpec: string;
  /** The skills folder, relative to the repository root. */
  skills: string;
  /** The branch whose pushes publish. */
  branch: string;
}

/** Where `skillpress init` writes it. */
export const WORKFLOW_PATH = '.github/workflows/skillpress.yml';

const quoted = (s: string): string => JSON.stringify(s);

export function pagesWorkflow(options: WorkflowOptions): string {
  return `# Builds the skills catalog with skillpress and publishes it to GitHub Pages (written by
# \`skillpress init\`). Once: Settings → Pages → Build and deployment → Source: "GitHub Actions".
name: Skills catalog
on:
  push:
    branches: [${quoted(options.branch)}]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: false
env:
  # Where CI installs skillpress from (it is not on the npm registry yet): a git URL or a tarball URL.
  SKILLPRESS_PACKAGE: ${quoted(options.packageSpec)}
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      # The whole history: the build publishes each skill's versions from skillpress's commits.
      - uses: actions/checkout@v6
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v6
        with:
          node-version: 22
      - id: pages
        uses: actions/configure-pages@v6
      # A project-local install into its own folder (npm's global install from git skips the build step).
      - name: Install skillpress
        run: npm install --prefix "$RUNNER_TEMP/skillpress" --no-audit --no-fund "$SKILLPRESS_PACKAGE"
      # What later builds reuse: a push that changes one skill remakes that skill's parts.
      - uses: actions/cache@v4
        with:
          path: .cache
          key: skillpress-\${{ github.sha }}
          restore-keys: skillpress-
      - name: Build the catalog
        # The published site is the previous build: changes.json and its tombstones go on from it
        # (a first deploy has none). Dates are the last commit's: running the workflow again on a
        # commit moves no date.
        run: |
          export SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)"
          previous=()
          if curl -sfL --max-time 30 -o /dev/null "$PAGES_URL/feed/v1/index.json"; then previous=(--previous "$PAGES_URL/"); fi
          "$RUNNER_TEMP/skillpress/node_modules/.bin/skillpress" build ${options.skills} --out dist --base "\${{ steps.pages.outputs.base_path }}/" "\${previous[@]}"
        env:
          PAGES_URL: \${{ steps.pages.outputs.base_url }}
          # Checks what the restored cache holds (an HMAC under this repository's secret, at least 32
          # characters: \`openssl rand -hex 32\`); without the secret each run makes a fresh key and
          # only raw files, checked by digest, are reused.
          SKILLPRESS_CACHE_KEY: \${{ secrets.SKILLPRESS_CACHE_KEY }}
      - uses: actions/upload-pages-artifact@v5
        with:
          path: dist
          # .well-known/agent-skills/ (what \`npx skills add\` reads) is a dot folder.
          include-hidden-files: true
  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v5
`;
}
