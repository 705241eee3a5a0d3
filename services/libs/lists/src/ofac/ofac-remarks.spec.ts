import { ofacIdentifierType, parseOfacRemarks } from './ofac-remarks.js';

describe('parseOfacRemarks', () => {
  it('splits a person record: dates, places, countries, gender, documents, weak aliases, links', () => {
    const parsed = parseOfacRemarks(
      'DOB 1960 to 1962; alt. DOB circa 1958; POB Giza, Egypt; nationality Egypt; alt. nationality Palestinian; citizen Jordan; ' +
        'Gender Male; Passport 1084010 (Egypt) issued 12 Jan 2001 expires 11 Jan 2011; National ID No. 216040 (Yemen); ' +
        "a.k.a. 'ABU BAKR'; f.k.a. 'AL-MASRI, Abu'; Linked To: AL-QAIDA; Secondary sanctions risk: section 1(b) of Executive Order 13224.",
    );
    expect(parsed.birthDates).toEqual(['1960', '1961', '1962', '1958']);
    expect(parsed.birthPlaces).toEqual(['Giza, Egypt']);
    expect(parsed.nationalities).toEqual(['EG', 'PS']);
    expect(parsed.citizenships).toEqual(['JO']);
    expect(parsed.gender).toBe('male');
    expect(parsed.identifiers).toEqual([
      { type: 'passport', value: '1084010', country: 'EG', note: 'Passport' },
      { type: 'national-id', value: '216040', country: 'YE', note: 'National ID No.' },
    ]);
    expect(parsed.weakAliases).toEqual([
      { name: 'ABU BAKR', kind: 'aka' },
      { name: 'AL-MASRI, Abu', kind: 'fka' },
    ]);
    expect(parsed.linkedTo).toEqual(['AL-QAIDA']);
  });

  it('reads crypto addresses, IMO and MMSI numbers, tax and registration numbers', () => {
    const parsed = parseOfacRemarks(
      'Digital Currency Address - XBT 134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak; alt. Digital Currency Address - ETH 0x098B716B8Aaf21512996dC57EB0615e2383E2f96; ' +
        'Vessel Registration Identification IMO 9187629; MMSI 249417000; Tax ID No. AABA 670850 Y (India); Registration Number 1027700132195 (Russia); ' +
        'Identification Number IMO 5432101; SWIFT/BIC SABRRUMM; Email Address x@example.org; Website www.example.org.',
    );
    expect(parsed.identifiers).toEqual([
      { type: 'crypto-address', value: '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak', note: 'XBT' },
      { type: 'crypto-address', value: '0x098B716B8Aaf21512996dC57EB0615e2383E2f96', note: 'ETH' },
      { type: 'imo', value: '9187629', note: 'Vessel Registration Identification' },
      { type: 'mmsi', value: '249417000', note: 'MMSI' },
      { type: 'tax-id', value: 'AABA 670850 Y', country: 'IN', note: 'Tax ID No.' },
      { type: 'registration', value: '1027700132195', country: 'RU', note: 'Registration Number' },
      { type: 'imo', value: '5432101', note: 'Identification Number' },
      { type: 'swift-bic', value: 'SABRRUMM', note: 'SWIFT/BIC' },
      { type: 'email', value: 'x@example.org', note: 'Email Address' },
      { type: 'website', value: 'www.example.org', note: 'Website' },
    ]);
  });

  it('never turns "Linked To" into an alias, and ignores what it does not know', () => {
    const parsed = parseOfacRemarks(
      'Linked To: LAZARUS GROUP.; Organization Established Date 1991; Target Type Government Entity',
    );
    expect(parsed.weakAliases).toEqual([]);
    expect(parsed.linkedTo).toEqual(['LAZARUS GROUP']);
    expect(parsed.identifiers).toEqual([]);
  });

  it('maps OFAC document labels to identifier types', () => {
    expect(ofacIdentifierType('Passport')).toBe('passport');
    expect(ofacIdentifierType('Cedula No.')).toBe('national-id');
    expect(ofacIdentifierType('Digital Currency Address - XMR')).toBe('crypto-address');
    expect(ofacIdentifierType('Secondary sanctions risk:')).toBe('other');
  });
});
