import { feedLabel } from './feed-labels.js';

describe('feedLabel', () => {
  it('names the known feeds, checking eu_sanctions before the broader matches', () => {
    expect(feedLabel('eu_sanctions')).toBe('EU Sanctions List');
    expect(feedLabel('US_SANCTIONS')).toBe('US Sanctions List');
    expect(feedLabel('gb_coh_disqualified')).toBe('UK Disqualified Directors');
    expect(feedLabel('ofac')).toBe('OFAC Sanctions');
    expect(feedLabel('peps')).toBe('PEPs Database');
  });

  it('capitalises the words of an unknown identifier', () => {
    expect(feedLabel('regulatory')).toBe('Regulatory');
    expect(feedLabel('global_watch_list')).toBe('Global Watch List');
  });

  it('joins arrays, skipping empty and non-string items, and says Unknown for nothing usable', () => {
    expect(feedLabel(['ofac', '', 7, 'crime'])).toBe('OFAC Sanctions, Criminal Records');
    expect(feedLabel([])).toBe('Unknown');
    expect(feedLabel(null)).toBe('Unknown');
    expect(feedLabel('  ')).toBe('Unknown');
  });
});
