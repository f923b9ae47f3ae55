/** What the 404 page reads of a missing skill's URL and of the feed's tombstones (src/site/client/not-found.ts). */
import { describe, expect, it } from 'vitest';
import { removedOn, searchWordsOf, skillIdOf } from '../../src/site/client/not-found.ts';

describe('the 404 page', () => {
  it("reads the skill id from a skill's page, file or folder URL under the site's base", () => {
    expect(skillIdOf('/skills/pdf-tools/', '/')).toBe('pdf-tools');
    expect(skillIdOf('/catalog/skills/pdf-tools/files/scripts/run.py/', '/catalog/')).toBe('pdf-tools');
    expect(skillIdOf('/catalog/skills/caf%C3%A9', '/catalog/')).toBe('café');
    expect(skillIdOf('/skills/', '/')).toBeUndefined();
    expect(skillIdOf('/tags/pdf/', '/')).toBeUndefined();
    expect(skillIdOf('/other/skills/pdf-tools/', '/catalog/')).toBeUndefined();
    expect(skillIdOf('/skills/%E0%A4%A/', '/')).toBeUndefined(); // not decodable
  });

  it("finds the skill's tombstone in changes.json, and nothing in anything else", () => {
    const changes = {
      changes: [
        { id: 'pdf-tools', change: 'updated', at: '2026-03-01T00:00:00.000Z' },
        { id: 'old-tool', change: 'removed', at: '2026-02-14T09:30:00.000Z' },
      ],
    };
    expect(removedOn(changes, 'old-tool')).toBe('2026-02-14');
    expect(removedOn(changes, 'pdf-tools')).toBeUndefined(); // updated, not removed
    expect(removedOn(changes, 'never-here')).toBeUndefined();
    for (const junk of [
      null,
      'x',
      { changes: 'x' },
      { changes: [null, 3] },
      { changes: [{ id: 'old-tool', change: 'removed' }] },
    ])
      expect(removedOn(junk, 'old-tool')).toBeUndefined();
  });

  it('turns the id into words to search for', () => {
    expect(searchWordsOf('pdf-form_filler')).toBe('pdf form filler');
    expect(searchWordsOf('x.y')).toBe('x y');
  });
});
