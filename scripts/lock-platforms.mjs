// Keep package-lock.json installable with `npm ci` when the registry does not serve every
// platform build of a package (some mirrors carry only linux-x64). npm leaves such optional
// platform packages out of the lock, and `npm ci` then refuses the lock as out of sync.
// This adds the missing entries as optional, platform-tagged placeholders, which npm skips on
// other platforms without fetching. Idempotent; run after `npm install <pkg>`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = key === '' ? `node_modules/${dep}` : `${key}/node_modules/${dep}`;
    if (packages[nested] || packages[`node_modules/${dep}`]) continue;
    const platform = /-(android|darwin|linux|win32|freebsd|openbsd|sunos|aix|wasm32)-([a-z0-9]+)/.exec(dep);
    const placeholder = { version, optional: true };
    if (platform?.[1] === 'wasm32') placeholder.cpu = ['wasm32'];
    else if (platform) Object.assign(placeholder, { os: [platform[1]], cpu: [platform[2]] });
    packages[`node_modules/${dep}`] = placeholder;
    added++;
  }
}
if (added > 0) writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-platforms: ${added} optional platform package(s) added to ${String(file)}`);
