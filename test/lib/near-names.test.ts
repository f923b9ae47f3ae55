import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearNames } from '../../src/lib/near-names.ts';

describe('near names', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('finds typos and names remembered by their words, nearest first', () => {
    const skills = ['pdf-tools', 'pdf-forms', 'docx', 'spreadsheet-editor', 'release-notes'];
    expect(nearNames('pdftk', skills)[0]).toBe('pdf-tools');
    expect(nearNames('docs', skills)).toEqual(['docx']);
    expect(nearNames('notes-release', skills)).toEqual(['release-notes']);
    expect(nearNames('kubernetes', skills)).toEqual([]);
  });

  it('takes no one- or two-letter word for the prefix of a longer one', () => {
    const skills = ['google-cloud-solution-n-tier-serverless-web-app', 'pdf-tools'];
    expect(nearNames('nope-xyz', skills)).toEqual([]);
    expect(nearNames('pdftk-tools', skills)).toEqual(['pdf-tools']);
  });

  it('says it as one phrase', () => {
    expect(didYouMean('titel', ['title', 'name'])).toBe(' (did you mean "title"?)');
    expect(didYouMean('xyz', ['title'])).toBe('');
  });
});
