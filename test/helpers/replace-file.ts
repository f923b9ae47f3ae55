import { rm, writeFile } from 'node:fs/promises';

/**
 * Gives `file` new bytes as a new file, never by writing into the old one. A built output's files
 * are hard links to the build cache's entries (src/lib/file-cache.ts), shared by every output
 * built from that cache — other tests' feeds among them. Writing in place would change them all;
 * a tampering test replaces the file instead.
 */
export async function replaceFile(file: string, data: string | Uint8Array): Promise<void> {
  await rm(file, { force: true });
  await writeFile(file, data);
}
