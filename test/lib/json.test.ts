/** The one JSON + zod parser: bounded before parsing, errors naming the document, the JSON path and the rule. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidInputError } from '../../src/lib/errors.ts';
import { parseJson, parseJsonText } from '../../src/lib/json.ts';

const Doc = z.object({
  name: z.string(),
  items: z.array(z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits') })),
});

function refusal(fn: () => unknown): InvalidInputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    return err as InvalidInputError;
  }
  throw new Error('expected an InvalidInputError');
}

describe('parseJson', () => {
  it('returns the checked data', () => {
    expect(parseJson('{"name":"a","items":[]}', Doc, 'doc.json')).toEqual({ name: 'a', items: [] });
  });

  it('names the document, the JSON path and the rule of a schema error', () => {
    const err = refusal(() =>
      parseJson('{"name":"a","items":[{"sha256":"00"}]}', Doc, 'https://peer.example/doc.json'),
    );
    expect(err.rule).toBe('schema');
    expect(err.message).toBe('https://peer.example/doc.json: items.0.sha256: must be 64 hex digits');
  });

  it('names the document of a syntax error', () => {
    const err = refusal(() => parseJson(Buffer.from('{"name": oops'), Doc, 'doc.json'));
    expect(err.rule).toBe('invalid-json');
    expect(err.message).toMatch(/^doc\.json: not valid JSON: /);
  });

  it('refuses a document over its byte limit before parsing it', () => {
    const err = refusal(() =>
      parseJsonText(JSON.stringify({ pad: 'x'.repeat(2_000) }), 'index.json', { maxBytes: 1_000 }),
    );
    expect(err.rule).toBe('too-large');
    expect(err.message).toBe('index.json: 2.0 KiB (2010 bytes), over the 1000-byte limit for this document');
  });

  it('refuses deep nesting before parsing (a few MB of "[" would build millions of arrays), not brackets inside strings', () => {
    const deep = '['.repeat(5_000_000) + ']'.repeat(5_000_000);
    const started = performance.now();
    const err = refusal(() => parseJsonText(deep, 'index.json'));
    expect(err.rule).toBe('too-deep');
    expect(err.message).toContain('nested more than 64 levels deep');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parseJsonText(JSON.stringify({ text: '[[[[{{{{'.repeat(100) + '\\"[' }), 'ok.json')).toBeTruthy();
    expect(parseJsonText('[[[1]]]', 'ok.json', { maxDepth: 3 })).toEqual([[[1]]]);
    expect(refusal(() => parseJsonText('[[[[1]]]]', 'x.json', { maxDepth: 3 })).rule).toBe('too-deep');
  });
});
