import { DEFAULT_CONFIG } from '../config.js';
import { entity } from '../testing/fixtures.js';
import { countryEffect, dobEffect, normaliseEntityType, prepareEntity, prepareQuery, scoreEntity, typeEffect } from './score-entity.js';
import { toCountryCode } from './countries.js';

const score = (query: Parameters<typeof prepareQuery>[0], e: ReturnType<typeof entity>) =>
  scoreEntity(prepareQuery(query), prepareEntity(e), { config: DEFAULT_CONFIG })!;

describe('qualifiers', () => {
  test('date of birth: agreement adds a little, contradiction takes a lot, absence nothing', () => {
    expect(dobEffect('1961-03-01', ['1961-03-01'])?.effect).toBe(0.05);
    expect(dobEffect('1961', ['1961-03-01'])?.effect).toBe(0.02);
    expect(dobEffect('1961-04', ['1961-03-01'])?.effect).toBe(-0.05);
    expect(dobEffect('1962-03-01', ['1961-03-01'])?.effect).toBe(-0.08);
    expect(dobEffect('1934-03-01', ['1961-03-01'])?.effect).toBe(-0.2);
    expect(dobEffect('1934-03-01', ['1933', '1934'])?.effect).toBe(0.02);
    expect(dobEffect(undefined, ['1961'])).toBeNull();
    expect(dobEffect('1961', [])).toBeNull();
  });

  test('country: code or name; agreement a little up, disagreement a little down', () => {
    expect(toCountryCode('Russia')).toBe('RU');
    expect(toCountryCode('ru')).toBe('RU');
    expect(toCountryCode('Iran, Islamic Republic of')).toBe('IR');
    expect(toCountryCode('UK')).toBe('GB');
    expect(toCountryCode('Myanmar')).toBe('MM');
    expect(toCountryCode('Narnia')).toBeUndefined();
    expect(countryEffect('RU', new Set(['RU']))?.effect).toBeGreaterThan(0);
    expect(countryEffect('RU', new Set(['UA']))?.effect).toBeLessThan(0);
    expect(countryEffect('RU', new Set())).toBeNull();
  });

  test('entity type: a person is not a company; "person" means individual', () => {
    expect(normaliseEntityType('person')).toBe('individual');
    expect(typeEffect('individual', 'organization')?.effect).toBe(-0.3);
    expect(typeEffect('organization', 'vessel')?.effect).toBe(-0.1);
    expect(typeEffect('individual', 'individual')).toBeNull();
    expect(typeEffect(undefined, 'vessel')).toBeNull();
  });
});

describe('scoring an entity', () => {
  const farhan = entity('22001', 'individual', ['MAHFUD, Farhan', { full: 'Abu Farhan', strength: 'weak' }], { birthDates: ['1966-09-11'], nationalities: ['SY'] });

  test('the best name wins and is reported with its strength', () => {
    const m = score({ name: 'Farhan Mahfud' }, farhan);
    expect(m.matchedName).toBe('MAHFUD, Farhan');
    expect(m.matchedStrength).toBe('primary');
    expect(m.status).toBe('blocked');
  });

  test('a weak alias alone is capped at review', () => {
    const m = score({ name: 'Abu Farhan' }, farhan);
    expect(m.matchedStrength).toBe('weak');
    expect(m.score).toBeLessThanOrEqual(0.8);
    expect(m.qualifiers.map((q) => q.qualifier)).toContain('weakAlias');
  });

  test('a contradicting date of birth lowers the score; a matching one raises it; the effects are explained', () => {
    const none = score({ name: 'Farhan Mahfud' }, farhan).score;
    const same = score({ name: 'Farhan Mahfud', dob: '1966-09-11' }, farhan);
    const other = score({ name: 'Farhan Mahfud', dob: '1990-01-01' }, farhan);
    expect(same.score).toBeGreaterThanOrEqual(none);
    expect(other.score).toBeLessThan(none - 0.15);
    expect(other.qualifiers.find((q) => q.qualifier === 'dob')?.detail).toMatch(/contradicts/);
  });

  test('a person query against an organisation loses 0.3', () => {
    const org = entity('1', 'organization', ['FARHAN MAHFUD TRADING']);
    const asPerson = score({ name: 'Farhan Mahfud Trading', entityType: 'person' }, org).score;
    const untyped = score({ name: 'Farhan Mahfud Trading' }, org).score;
    expect(untyped - asPerson).toBeCloseTo(0.3, 5);
  });

  test('a single common token proves less than a full rare name', () => {
    const rarity = (t: string) => (t === 'ali' ? 0.1 : 1);
    const ali = entity('a', 'individual', ['ALI']);
    const full = entity('b', 'individual', ['Farhan Mahfud']);
    const opts = { config: DEFAULT_CONFIG, rarity };
    const single = scoreEntity(prepareQuery({ name: 'Ali' }), prepareEntity(ali), opts)!;
    const two = scoreEntity(prepareQuery({ name: 'Farhan Mahfud' }), prepareEntity(full), opts)!;
    expect(single.score).toBeLessThan(0.85);
    expect(single.qualifiers.map((q) => q.qualifier)).toContain('evidence');
    expect(two.score).toBe(1);
  });
});
