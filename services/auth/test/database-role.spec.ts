import { jest } from '@jest/globals';
import { startAuthStack, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

describe('the database role auth connects as', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  it('is vigil_auth, not the owner that migrated the schema', async () => {
    const { rows } = await stack.db.query<{ usename: string }>(
      `SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name = $1`,
      [`vigil-${stack.schema}`],
    );
    expect(rows.map((r) => r.usename)).toEqual(['vigil_auth']);
  });
});
