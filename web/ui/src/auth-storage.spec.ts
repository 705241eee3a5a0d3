import { clearStoredTraces, readRefreshToken, writeRefreshToken } from './auth-storage.js';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('auth storage', () => {
  it('keeps a remembered session in localStorage and a short one in sessionStorage', () => {
    const s = { local: new MemoryStorage(), session: new MemoryStorage() };
    writeRefreshToken('long', true, s);
    expect(readRefreshToken(s)).toEqual({ token: 'long', remember: true });
    writeRefreshToken('short', false, s);
    expect(s.local.getItem('vigil.auth.refresh')).toBeNull();
    expect(readRefreshToken(s)).toEqual({ token: 'short', remember: false });
  });

  it('clears every key with the app prefix from both stores and leaves other sites data alone', () => {
    const s = { local: new MemoryStorage(), session: new MemoryStorage() };
    writeRefreshToken('t', true, s);
    s.local.setItem('vigil.api-key', 'k');
    s.session.setItem('vigil.screening.history', '[]');
    s.local.setItem('other-app', 'x');
    clearStoredTraces(s);
    expect(s.local.length + s.session.length).toBe(1);
    expect(s.local.getItem('other-app')).toBe('x');
  });

  it('clears a whole store when removing keys one by one fails', () => {
    const broken = new MemoryStorage();
    broken.setItem('vigil.x', '1');
    broken.removeItem = () => {
      throw new Error('denied');
    };
    clearStoredTraces({ local: broken, session: undefined });
    expect(broken.length).toBe(0);
  });
});
