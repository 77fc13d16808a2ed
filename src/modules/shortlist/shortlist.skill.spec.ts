import { ShortlistSkill } from './shortlist.skill';

describe('ShortlistSkill phrase routing', () => {
  const skill = Object.create(ShortlistSkill.prototype) as ShortlistSkill;

  it.each(['Which harness fits me?', 'recommend a coding agent', 'shortlist MIT agents', 'compare coding agents'])(
    'claims "%s"',
    (text) => expect(skill.matchesText(text)).toBe(true),
  );

  it.each(['fix the failing test in src/a.ts', 'explain the shortlisted items', 'which file has the bug?'])(
    'leaves "%s" to the harness',
    (text) => expect(skill.matchesText(text)).toBe(false),
  );

  it('every card example is claimed by the phrase match (so it reaches this skill when the harness is served too)', () => {
    for (const example of ShortlistSkill.prototype.card.call(skill).examples) expect(skill.matchesText(example)).toBe(true);
  });
});
