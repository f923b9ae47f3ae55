/**
 * What a build leaves in its output for the commands that serve it: `.skillpress.json` beside the
 * site, holding the base path the site was built for. `skillpress preview` serves there, so
 * `build --base /skills/` then `preview` serves styled pages without repeating the base.
 * A dot-file: static hosts that skip hidden files lose nothing a visitor needs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJson } from '../lib/json.ts';

export const BUILD_RECORD = '.skillpress.json';

export const BuildRecord = z.object({
  /** Base path the site was built for (`/`, `/skills/`). */
  base: z.string(),
  /** Whether the output holds a site (`--no-site` builds hold only the feed). */
  site: z.boolean(),
});
export type BuildRecord = z.infer<typeof BuildRecord>;

export async function writeBuildRecord(dir: string, record: BuildRecord): Promise<void> {
  await writeFile(path.join(dir, BUILD_RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/** The record of the build in `out`; undefined for an output built before builds left one. */
export async function readBuildRecord(out: string): Promise<BuildRecord | undefined> {
  const file = path.join(out, BUILD_RECORD);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseJson(text, BuildRecord, file, { maxBytes: 64 * 1024 });
}
