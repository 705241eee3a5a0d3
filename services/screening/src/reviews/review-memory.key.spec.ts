import { entity } from '../testing/entities.js';
import { entityFingerprint, memoryLookup, memoryQueryKey, normaliseName } from './review-memory.key.js';

describe('the false-positive memory key', () => {
  it('treats case, accents, spacing and punctuation as the same name, but not another spelling or order', () => {
    expect(normaliseName('  José  AL-Sibaʼi ')).toBe(normaliseName('jose al sibai'));
    expect(normaliseName('Jose Al Sibai')).not.toBe(normaliseName('Al Sibai Jose'));
    expect(normaliseName('Viktor Bout')).not.toBe(normaliseName('Victor Bout'));
  });

  it('keys on every qualifier as sent and the list entity: any difference is another question', () => {
    const base = { name: 'Viktor Bout', dateOfBirth: '1991-06-02' };
    const lookup = (q: Parameters<typeof memoryQueryKey>[0], id = 'ofac-sdn:101') => memoryLookup(memoryQueryKey(q), id);
    expect(lookup({ ...base, name: 'VIKTOR  bout' })).toBe(lookup(base));
    for (const other of [
      { ...base, dateOfBirth: '1967-01-13' },
      { name: base.name },
      { ...base, nationality: 'RU' },
      { ...base, entityType: 'individual' as const },
      { ...base, customerReference: 'C-1' },
    ]) {
      expect(lookup(other)).not.toBe(lookup(base));
    }
    expect(lookup(base, 'un-sc:QDi.001')).not.toBe(lookup(base));
  });

  it('fingerprints what the analyst judged by: names, birth dates and identifiers, not programmes', () => {
    const listed = { ...entity('ofac-sdn', '101', 'individual', ['BOUT, Viktor']), birthDates: ['1967-01-13'] };
    const fingerprint = entityFingerprint(listed);
    expect(entityFingerprint({ ...listed, programs: ['OTHER'] })).toBe(fingerprint);
    expect(entityFingerprint({ ...listed, birthDates: ['1967-01-14'] })).not.toBe(fingerprint);
    expect(entityFingerprint({ ...listed, names: [...listed.names, { full: 'BUT, Viktor', strength: 'strong' }] })).not.toBe(fingerprint);
    expect(entityFingerprint({ ...listed, identifiers: [{ type: 'Passport', value: '21N0588628' }] })).not.toBe(fingerprint);
  });
});
