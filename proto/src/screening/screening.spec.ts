import { bulkScreenRequestSchema } from './bulk-screen.js';
import { matchLabel } from './common.js';
import { screenRequestSchema } from './screen.js';

describe('screening contracts', () => {
  it('labels scores with the product bands', () => {
    expect(matchLabel(1)).toBe('Exact Match');
    expect(matchLabel(0.95)).toBe('Exact Match');
    expect(matchLabel(0.9499)).toBe('High Confidence Match');
    expect(matchLabel(0.85)).toBe('High Confidence Match');
    expect(matchLabel(0.6)).toBe('Partial Match');
    expect(matchLabel(0.59)).toBe('Low Confidence Match');
    expect(matchLabel(0.0001)).toBe('Low Confidence Match');
    expect(matchLabel(0)).toBe('No Match');
  });

  const caller = { clientId: 'c1', tier: 'starter', feeds: ['ofac', 'peps'] };

  it('needs a name or an email, and only known feeds', () => {
    expect(screenRequestSchema.safeParse({ ...caller, entity: {} }).success).toBe(false);
    expect(screenRequestSchema.safeParse({ ...caller, entity: { email: 'a@b.example' } }).success).toBe(true);
    expect(
      screenRequestSchema.safeParse({ ...caller, feeds: ['ofac', 'everything'], entity: { name: 'x' } }).success,
    ).toBe(false);
    expect(screenRequestSchema.safeParse({ ...caller, feeds: [], entity: { name: 'x' } }).success).toBe(false);
    const parsed = screenRequestSchema.parse({ ...caller, entity: { name: '  Jane  ', dateOfBirth: '1970-02' } });
    expect(parsed.entity.name).toBe('Jane');
    expect(parsed.limit).toBe(10);
  });

  it('caps a bulk request at 1,000 names and rejects blanks', () => {
    expect(bulkScreenRequestSchema.safeParse({ ...caller, names: Array(1000).fill('a') }).success).toBe(true);
    const tooMany = bulkScreenRequestSchema.safeParse({ ...caller, names: Array(1001).fill('a') });
    expect(tooMany.success).toBe(false);
    expect(JSON.stringify(tooMany.error?.issues)).toContain('Maximum 1000 entities allowed per batch');
    expect(bulkScreenRequestSchema.safeParse({ ...caller, names: [] }).success).toBe(false);
    expect(bulkScreenRequestSchema.safeParse({ ...caller, names: ['ok', '   '] }).success).toBe(false);
  });
});
