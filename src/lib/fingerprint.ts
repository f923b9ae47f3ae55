/**
 * What a cached result depends on besides its input: the code that made it. Every build cache
 * (.cache/) puts this fingerprint in its keys, so an edit of that code, a new skillpress version
 * or an update of a package it uses is a new key, never a stale hit.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { sha256Hex } from './hash.ts';

function read(file: string | URL | undefined): string {
  try {
    return file ? readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

const versionOf = (packageJson: string | undefined): unknown =>
  (JSON.parse(read(packageJson) || '{}') as { version?: unknown }).version;

/**
 * sha256 over `sources` (paths relative to `moduleUrl`, the caller's `import.meta.url`; the
 * bundle maps that URL back to the source file, so this holds there too), skillpress's version
 * and the versions of `packages` as `moduleUrl` resolves them.
 */
export function codeFingerprint(
  moduleUrl: string,
  sources: readonly string[],
  packages: readonly string[] = [],
): string {
  const versions = packages.map((name) => {
    try {
      return versionOf(module.findPackageJSON(name, moduleUrl));
    } catch {
      return undefined;
    }
  });
  return sha256Hex(
    JSON.stringify([
      sources.map((s) => read(new URL(s, moduleUrl))),
      versionOf(module.findPackageJSON(moduleUrl)),
      versions,
    ]),
  );
}
