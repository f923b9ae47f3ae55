/** Read `config/skillpress.json` (optional) and validate it against the zod schema (src/model/config.ts). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadOptions } from '../load/index.ts';
import { SkillpressConfig } from '../model/config.ts';
import { UsageError } from '../lib/errors.ts';

export async function loadConfig(configDir = 'config'): Promise<SkillpressConfig> {
  const file = path.join(configDir, 'skillpress.json');
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return SkillpressConfig.parse({});
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = SkillpressConfig.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${file}: ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new UsageError(issues.join('\n'));
  }
  return parsed.data;
}

/** The loader options `config.skills` sets, the same for every command that reads the skills folder. */
export function skillsLoadOptions(config: SkillpressConfig): Pick<LoadOptions, 'ignore' | 'maxFileBytes' | 'maxDepth'> {
  return { ignore: config.skills.ignore, maxFileBytes: config.skills.max_file_bytes, maxDepth: config.skills.max_depth };
}

/** SOURCE_DATE_EPOCH (reproducible builds) if set and valid. */
export function sourceDateEpoch(env = process.env): number | undefined {
  const v = env.SOURCE_DATE_EPOCH;
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}
