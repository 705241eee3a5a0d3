import { nameFeatures } from './features.js';

describe('feature generation for a search engine', () => {
  test('tokens, phonetic keys, skeletons, joined tokens, trigrams, legal forms and numbers', () => {
    const f = nameFeatures('OAO Rami Makhlouf 7', 'organization').forms[0]!;
    expect(f.terms).toEqual(['rami', 'makhlouf', '7']);
    expect(f.legalForms).toEqual(['jsc']);
    expect(f.numbers).toEqual(['7']);
    expect(f.joined).toContain('ramimakhlouf');
    expect(f.phonetic.length).toBeGreaterThan(0);
    expect(f.skeletons).toContain('MKLF'.replace('K', 'X'));
    expect(f.trigrams).toContain(' ra');
  });

  test('one form per reading of a non-Latin name', () => {
    expect(nameFeatures('金正恩').forms.map((f) => f.terms.join(' '))).toEqual(['jin zheng en', 'jin zhengen', 'kim jong un', 'gim jeong eun']);
  });
});
