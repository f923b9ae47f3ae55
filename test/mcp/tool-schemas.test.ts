import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { withoutDialect } from '../../src/mcp/tools/shared.ts';

describe('withoutDialect', () => {
  const schema = z.strictObject({ query: z.string().min(1), limit: z.number().int().max(25).default(10) });
  const lean = withoutDialect(schema);

  test("the JSON Schema is zod's, without $schema, for input and output", () => {
    const options = { target: 'draft-2020-12' } as const;
    for (const io of ['input', 'output'] as const) {
      const full = schema['~standard'].jsonSchema[io](options);
      expect(full).toHaveProperty('$schema');
      const { $schema: _dialect, ...rest } = full;
      expect(lean['~standard'].jsonSchema[io](options)).toEqual(rest);
    }
  });

  test('validates as the schema does: defaults applied, bad input refused with the same issues', async () => {
    const validate = (value: unknown) => lean['~standard'].validate(value);
    expect(await validate({ query: 'pdf' })).toEqual({ value: { query: 'pdf', limit: 10 } });
    const refused = await validate({ query: '', extra: 1 });
    expect(refused).toEqual(await schema['~standard'].validate({ query: '', extra: 1 }));
    expect('issues' in refused && refused.issues?.length).toBe(2);
  });
});
