import { countriesIn, countryName, normaliseIso2, toIso2 } from './countries.js';

describe('toIso2', () => {
  it.each([
    ['Korea, North', 'KP'],
    ["Democratic People's Republic of Korea", 'KP'],
    ['DPRK', 'KP'],
    ['Korea, South', 'KR'],
    ['Iran (Islamic Republic of)', 'IR'],
    ['Iran, Islamic Republic of', 'IR'],
    ['Burma', 'MM'],
    ['Congo, Democratic Republic of the', 'CD'],
    ['Congo', 'CG'],
    ['Türkiye', 'TR'],
    ['Turkey', 'TR'],
    ['Russian Federation', 'RU'],
    ['United Kingdom of Great Britain and Northern Ireland', 'GB'],
    ['Côte d’Ivoire', 'CI'],
    ['Afghan', 'AF'],
    ['Palestinian', 'PS'],
    ['Pakistan (as at Apr 2009)', 'PK'],
    ['Latakia Province, Syria', 'SY'],
    ['possibly Palestinian', 'PS'],
    ['Kazakh SSR', 'KZ'],
    ['Region: Crimea', 'UA'],
    ['rus', 'RU'],
    ['ru', 'RU'],
    ['USA', 'US'],
    ['NA', 'NA'],
  ])('%s → %s', (name, code) => {
    expect(toIso2(name)).toBe(code);
  });

  it('returns undefined for what is not a country', () => {
    expect(toIso2('na')).toBeUndefined();
    expect(toIso2('undetermined')).toBeUndefined();
    expect(toIso2('Tartous')).toBeUndefined();
    expect(toIso2('')).toBeUndefined();
  });
});

describe('countriesIn', () => {
  it('finds every country of an enumerated free-text field, once, in order', () => {
    expect(countriesIn('(1) Somali (2) Swedish')).toEqual(['SO', 'SE']);
    expect(countriesIn('1) Saudi Arabia 2) Qatar')).toEqual(['SA', 'QA']);
    expect(countriesIn('(1)-(5) Tunisia (6)-(7) Algeria')).toEqual(['TN', 'DZ']);
    expect(countriesIn('a) French, b) Tunisian')).toEqual(['FR', 'TN']);
    expect(countriesIn('DRC and Belgian nationalities')).toEqual(['CD', 'BE']);
    expect(countriesIn('Bosnia and Herzegovina')).toEqual(['BA']);
    expect(countriesIn('Iranian national and US national/citizen')).toEqual(['IR', 'US']);
  });
});

describe('code helpers', () => {
  it('normalises code fields and names codes', () => {
    expect(normaliseIso2(' gb ')).toBe('GB');
    expect(normaliseIso2('UK')).toBe('GB');
    expect(normaliseIso2('00')).toBeUndefined();
    expect(countryName('kp')).toBe('North Korea');
  });
});
