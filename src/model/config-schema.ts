import { z } from 'zod';
import { SkillpressConfig } from './config.ts';

/** JSON Schema of config/skillpress.json (the input side: every field with a default is optional). */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(SkillpressConfig, { io: 'input', target: 'draft-2020-12' });
  return JSON.stringify({ ...schema, title: 'skillpress configuration (config/skillpress.json)' }, null, 2) + '\n';
}
