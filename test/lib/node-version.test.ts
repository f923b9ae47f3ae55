import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/lib/node-version.ts';

describe('the Node.js version check', () => {
  it('names the Node.js needed and the one running', () => {
    expect(nodeVersionProblem('20.20.2')?.message).toBe(
      'skillpress needs Node.js 22.18 or later; this is Node.js 20.20.2',
    );
    expect(nodeVersionProblem('22.17.1')).toBeInstanceOf(Error);
    expect(nodeVersionProblem('22.18.0')).toBeUndefined();
    expect(nodeVersionProblem('24.1.0')).toBeUndefined();
  });
});
