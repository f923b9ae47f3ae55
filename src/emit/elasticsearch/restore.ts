/**
 * Rebuild a skill folder from its file documents, byte-exact. Paths and contents come from
 * the index, so they are untrusted: every path is checked before anything is written, every
 * file is verified against its sha256, and nothing is ever overwritten.
 */
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../lib/hash.ts';
import { pathProblem } from '../../lib/paths.ts';
import type { FileDocument } from './documents.ts';
import { storedBytes } from './read.ts';

export interface RestoreResult {
  written: string[];
  /** Files the index lists without content (over the size limit when ingested). */
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * Write a skill's files, as read back from Elasticsearch, into `outDir` (which must be empty or
 * absent), byte for byte, refusing any path that would leave it.
 *
 * @example
 * ```ts
 * import { elasticsearchClient, getSkillById, writeSkillFolder } from 'skillpress';
 * const client = await elasticsearchClient();
 * const skill = await getSkillById(client, 'pdf-tools');
 * const { written, skipped } = await writeSkillFolder(skill.file_entries, 'restored/pdf-tools');
 * console.log(written.length, skipped);
 * await client.close();
 * ```
 */
export async function writeSkillFolder(entries: readonly FileDocument[], outDir: string): Promise<RestoreResult> {
  const root = path.resolve(outDir);
  // Check everything first: a bad entry means nothing is written.
  const seen = new Set<string>();
  for (const entry of entries) {
    const reason = pathProblem(entry.file_path);
    if (reason) throw new Error(`refusing file path ${JSON.stringify(entry.file_path)} from the index: ${reason}`);
    const target = path.resolve(root, entry.file_path);
    if (!target.startsWith(root + path.sep))
      throw new Error(`refusing file path ${JSON.stringify(entry.file_path)}: it leaves ${outDir}`);
    if (seen.has(entry.file_path)) throw new Error(`the index lists ${entry.file_path} twice`);
    seen.add(entry.file_path);
    if (entry.file_content !== undefined) {
      const actual = sha256Hex(storedBytes(entry));
      if (actual !== entry.sha256)
        throw new Error(
          `${entry.file_path}: content does not match its sha256 (${entry.sha256} expected, ${actual} stored)`,
        );
    }
  }
  const existing = await readdir(root).catch(() => []);
  if (existing.length > 0) throw new Error(`${outDir} exists and is not empty`);
  await mkdir(root, { recursive: true });

  const result: RestoreResult = { written: [], skipped: [] };
  for (const entry of entries) {
    if (entry.file_content === undefined) {
      result.skipped.push({ path: entry.file_path, reason: entry.skip_reason ?? 'no content stored' });
      continue;
    }
    const target = path.join(root, ...entry.file_path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    // The mode is set after writing: the process's umask would take bits off the one writeFile is given.
    await writeFile(target, storedBytes(entry), { flag: 'wx' });
    if (entry.executable) await chmod(target, 0o755);
    result.written.push(entry.file_path);
  }
  return result;
}
