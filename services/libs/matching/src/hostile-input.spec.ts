// Issue #32: names an attacker disguises so they pass screening. Each finding of the issue,
// screened through the whole engine at default settings, in every registered algorithm version:
// reading a name as it is seen (no invisible characters, look-alike letters of a mixed-alphabet
// word folded) is in every version, because it changes only names written to deceive.
import type { Entity } from '@vigil/lists';
import { getAlgorithm, listAlgorithms } from './algorithm.js';
import { entity } from './testing/fixtures.js';

const LIST: Entity[] = [
  entity('maduro', 'individual', ['MADURO MOROS, Nicolas']),
  entity('bout', 'individual', ['BOUT, Viktor Anatolijevitch']),
  entity('kim', 'individual', ['KIM, Jong Un']),
  entity('putin', 'individual', ['PUTIN, Vladimir Vladimirovich']),
  entity('filler-1', 'individual', ['PETROV, Ivan']),
  entity('filler-2', 'organization', ['GLOBAL TRADING LLC']),
  entity('filler-3', 'individual', ['AL-ASSAD, Bashar']),
  entity('filler-4', 'individual', ['SMITH, John']),
  entity('filler-5', 'individual', ['IVANOV, Sergei Borisovich']),
];

describe.each(listAlgorithms())('%s reads a disguised name as it is seen', (algorithm) => {
  const screener = getAlgorithm(algorithm).build(LIST);
  const match = (name: string, id: string) => screener.screen({ name }).find((m) => m.entity.sourceId === id);

  test('one Cyrillic с in "Nicolas Maduro Moros" is blocked as the plain name, and the explanation names the letter', () => {
    const m = match('Ni\u0441olas Maduro Moros', 'maduro');
    expect(m?.status).toBe('blocked');
    expect(m!.score).toBe(match('Nicolas Maduro Moros', 'maduro')!.score);
    expect(m!.qualifiers).toContainEqual(expect.objectContaining({ qualifier: 'mixedScript', effect: 0, detail: expect.stringContaining('Cyrillic \u0441 read as Latin c') }));
  });

  test('"Viсtor Bout" with a Cyrillic с is flagged as Viktor Bout', () => {
    expect(match('Vi\u0441tor Bout', 'bout')?.status).not.toBe('clear');
    expect(match('Vi\u0441tor Bout', 'bout')!.score).toBe(match('Victor Bout', 'bout')!.score);
  });

  test('two invisible tag characters after "Kim Jong Un" change nothing but the explanation', () => {
    const m = match('Kim Jong Un\u{E0041}\u{E0042}', 'kim');
    expect(m?.status).toBe('blocked');
    expect(m!.score).toBe(match('Kim Jong Un', 'kim')!.score);
    expect(m!.qualifiers).toContainEqual(expect.objectContaining({ qualifier: 'invisibleCharacters', effect: 0, detail: expect.stringContaining('U+E0041 tag character') }));
  });

  test('the plain name carries no such qualifier', () => {
    expect(match('Nicolas Maduro Moros', 'maduro')!.qualifiers.map((q) => q.qualifier)).not.toContain('mixedScript');
  });
});
