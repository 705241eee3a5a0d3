import type { CheckTarget } from '../checks/checks.repository.js';
import { MonitoredNameIndex } from './monitored-name-index.js';

const target = (id: string, entityName: string, aliases: string[] = []): CheckTarget => ({
  id,
  clientId: 'client-1',
  entityName,
  aliases,
});

describe('MonitoredNameIndex', () => {
  const index = new MonitoredNameIndex([
    target('wallet', '0x19F8f2B0915Daa12a3f5C9CF01dF9E24D53794F7'),
    target('alias-wallet', 'Treasury wallet', ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']),
    target('person', 'Margaret Thornbury'),
  ]);

  it('finds a wallet monitored under an address the delta lists, whatever its letter case', () => {
    const found = index.lookup([], ['0x19f8f2b0915daa12a3f5c9cf01df9e24d53794f7']);
    expect(found.map((t) => t.id)).toEqual(['wallet']);
  });

  it('finds a wallet given as an alias', () => {
    expect(index.lookup([], ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']).map((t) => t.id)).toEqual(['alias-wallet']);
  });

  it('finds nothing for an address nobody monitors, and names still by name', () => {
    expect(index.lookup([], ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'])).toEqual([]);
    expect(index.lookup(['Margaret Thornbury'], []).map((t) => t.id)).toEqual(['person']);
  });
});
