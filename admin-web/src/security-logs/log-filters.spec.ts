import { filterParams, INITIAL_FILTERS } from './log-filters.js';

describe('filterParams', () => {
  it('sends the 24 h default and leaves out "all" and a blank search', () => {
    expect(filterParams(INITIAL_FILTERS)).toEqual({ timeFilter: '24h' });
    expect(filterParams({ eventType: 'all', timeFilter: 'all', searchTerm: '   ' })).toEqual({});
  });

  it('sends a chosen type, time and a trimmed search term', () => {
    expect(filterParams({ eventType: 'FAILED_AUTH', timeFilter: '7d', searchTerm: ' 10.0.0.1 ' })).toEqual({
      eventType: 'FAILED_AUTH',
      timeFilter: '7d',
      searchTerm: '10.0.0.1',
    });
  });
});
