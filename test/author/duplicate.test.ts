/**
 * The MCP server's duplicate check keeps its index in step with each rebuild: a skill that
 * changed is compared by its new text, a removed one no longer blocks a create.
 */
import { describe, expect, it } from 'vitest';
import { DuplicateIndex } from '../../src/author/duplicate.ts';

const skill = (id: string, description: string, body: string) => ({
  id,
  name: id,
  description,
  body,
  files: [
    {
      path: 'SKILL.md',
      name: 'SKILL.md',
      type: 'file',
      mime: 'text/markdown',
      size: body.length,
      sha256: id,
      encoding: 'utf-8' as const,
    },
  ],
});
const ledger = skill(
  'ledger-reconcile',
  'Use when reconciling ledger entries against bank statements.',
  'Match each ledger entry to a statement line by amount and date; flag the rest for review.',
);
const helm = skill(
  'helm-prune',
  'Use when pruning Helm releases nobody uses.',
  'List releases, find those without traffic for 30 days, uninstall them after confirmation.',
);

describe('DuplicateIndex.sync', () => {
  it('compares with what each skill holds now, and forgets removed skills', () => {
    const index = new DuplicateIndex([ledger, helm], { nearThreshold: 0.85 });
    const copy = { ...ledger, id: 'ledger-copy', name: 'ledger-copy' };
    expect(index.find(copy)?.name).toBe('ledger-reconcile');

    // ledger-reconcile was rewritten into something else: the copy of its old text is new.
    const rewritten = skill(
      'ledger-reconcile',
      'Use when drafting a quarterly tax filing.',
      'Collect the receipts, total them by category, fill in the form.',
    );
    index.sync([rewritten, helm]);
    expect(index.find(copy)).toBeUndefined();
    expect(index.find({ ...rewritten, id: 'tax-copy', name: 'tax-copy' })?.name).toBe('ledger-reconcile');

    index.sync([ledger]);
    expect(index.size).toBe(1);
    expect(index.find({ ...helm, id: 'helm-copy', name: 'helm-copy' })).toBeUndefined();
  });
});
