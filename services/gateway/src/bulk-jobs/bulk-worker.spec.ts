import { rowScreeningId } from './bulk-worker.js';

// A chunk redelivered after a crash must hand screening the ids it handed the first time, or the
// retry's names are logged and audited a second time (found by `npm run test:resilience`).
describe('rowScreeningId', () => {
  const job = '6f1c2b8e-3d4a-4e5f-9a0b-1c2d3e4f5a6b';

  it('gives a row the same id on every delivery', () => {
    expect(rowScreeningId(job, 4_321)).toBe(rowScreeningId(job, 4_321));
  });

  it('gives every row of every job its own id, a UUID the screening contract accepts', () => {
    const ids = new Set([
      ...Array.from({ length: 10_000 }, (_, row) => rowScreeningId(job, row)),
      rowScreeningId('0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70', 0),
    ]);
    expect(ids.size).toBe(10_001);
    for (const id of [...ids].slice(0, 50)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
