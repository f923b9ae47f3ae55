import { z } from 'zod';
import { SkillpressConfig } from './config.ts';

/** JSON Schema of config/skillpress.json (the input side: every field with a default is optional). */
export function configSchema(): z.core.JSONSchema.BaseSchema {
  return {
    ...z.toJSONSchema(SkillpressConfig, { io: 'input', target: 'draft-2020-12' }),
    title: 'skillpress configuration (config/skillpress.json)',
  };
}

/**
 * The JSON Schema of `config/skillpress.json`, as config/skillpress.schema.json holds it (editors
 * use it to complete and check the file).
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { configJsonSchema } from 'skillpress';
 * writeFileSync('config/skillpress.schema.json', configJsonSchema());
 * ```
 */
export function configJsonSchema(): string {
  return JSON.stringify(configSchema(), null, 2) + '\n';
}
