import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SkillpressConfig } from '../../src/model/config.ts';
import { configJsonSchema } from '../../src/model/config-schema.ts';
import { loadConfig } from '../../src/config/load.ts';

describe('config/', () => {
  it('the committed JSON Schema matches the zod schema (run `npm run schemas` after changing config.ts)', () => {
    expect(readFileSync('config/skillpress.schema.json', 'utf8')).toBe(configJsonSchema());
  });

  it('the bundled config/skillpress.json is valid and fills in defaults', async () => {
    const config = await loadConfig('config');
    expect(config.registry.name).toBe('skillpress-examples');
    expect(config.skills.ignore).toContain('__pycache__/');
    expect(config.federation.trusted_domains).toContain('raw.githubusercontent.com');
  });

  it('rejects a config with a wrong type, naming the file and the field', async () => {
    const parsed = SkillpressConfig.safeParse({ skills: { max_file_bytes: 'big' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['skills', 'max_file_bytes']);
  });
});
