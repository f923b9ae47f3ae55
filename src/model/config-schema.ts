import { z } from 'zod';
import { SkillpressConfig } from './config.ts';

/** JSON Schema of config/skillpress.json (the input side: every field with a default is optional). */
export function configSchema(): z.core.JSONSchema.BaseSchema {
  return {
    ...z.toJSONSchema(SkillpressConfig, { io: 'input', target: 'draft-2020-12' }),
    title: 'skillpress configuration (config/skillpress.json)',
  };
}

/** The same, as config/skillpress.schema.json holds it. */
export function configJsonSchema(): string {
  return JSON.stringify(configSchema(), null, 2) + '\n';
}
