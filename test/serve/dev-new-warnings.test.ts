/**
 * Which of a served build's warnings `skillpress dev` calls new: one the previous build did not
 * have, not one an edit merely moved (its line) or re-measured (a figure in it). Found in a trial
 * on the ten public catalogs together: deleting one skill printed "1 new warning(s)" for an
 * unrelated pair whose duplicate-near similarity went from 96% to 95%.
 */
import { describe, expect, it } from 'vitest';
import { newWarnings } from '../../src/serve/dev-server.ts';

const NEAR = (pct: number) =>
  `composio/ip2location-io-automation/SKILL.md: warning [duplicate-near] "ip2location-io-automation" is ${pct}% similar to "ip2location-automation" (TF-IDF cosine of description and body; duplicates.near_threshold is 0.9)`;
const LINK = (line: number) =>
  `skills/git-commit/SKILL.md:${line}: warning [link-target-exists] link to "docs/missing.md": no such file in the skill`;

describe('skillpress dev: new warnings', () => {
  it('does not call a warning new when only a figure in it changed', () => {
    expect(newWarnings([NEAR(96)], [NEAR(95)])).toEqual([]);
  });

  it('does not call a warning new when an edit above it moved its line', () => {
    expect(newWarnings([LINK(40)], [LINK(42)])).toEqual([]);
    expect(
      newWarnings(
        [`skills/a/SKILL.md:501: warning [skill-md-lines] SKILL.md is 569 lines`],
        [`skills/a/SKILL.md:501: warning [skill-md-lines] SKILL.md is 612 lines`],
      ),
    ).toEqual([]);
  });

  it('calls new a warning of another skill, file or rule, digits in names included', () => {
    const pdf2 = `skills/pdf2/SKILL.md:2: warning [name-matches-folder] name: name "pdf2" must equal its folder name "pdf-two"`;
    const pdf3 = pdf2.replaceAll('pdf2', 'pdf3');
    expect(newWarnings([pdf2], [pdf2, pdf3])).toEqual([pdf3]);
    expect(newWarnings([LINK(40)], [LINK(40), LINK(40).replace('git-commit', 'gh-cli')])).toEqual([
      LINK(40).replace('git-commit', 'gh-cli'),
    ]);
  });

  it('calls every warning new on the first build', () => {
    expect(newWarnings(undefined, [NEAR(95), LINK(3)])).toEqual([NEAR(95), LINK(3)]);
  });
});
