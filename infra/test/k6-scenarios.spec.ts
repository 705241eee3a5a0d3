import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { k6Scripts } from '../k6/generate.mjs';
import { ROUTES, SCENARIOS, rateAt, routeSeconds, startOffsets, type RoutePlan } from '../suites/load/scenarios.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

// The k6 scripts SREs run and `npm run load:<scenario>` are two runners of one table: a script edited by
// hand, or a table changed without regenerating, would make the two measure different things.
describe('the k6 scripts and the scenario table', () => {
  it('has every committed k6 script exactly as the table generates it', async () => {
    const scripts = await k6Scripts();
    for (const [path, content] of Object.entries(scripts)) {
      expect({ path, content: readFileSync(join(ROOT, path), 'utf8') }).toEqual({ path, content });
    }
  });

  it('has no scenario script the table does not define', async () => {
    const generated = Object.keys(await k6Scripts()).map((p) => p.split('/').pop());
    const committed = readdirSync(join(ROOT, 'infra', 'k6')).filter((f) => f.endsWith('.ts') && f !== 'lib.ts');
    expect(committed.sort()).toEqual(generated.sort());
  });

  it('sends every route of every scenario to a route the table describes, with thresholds', () => {
    for (const scenario of Object.values(SCENARIOS)) {
      for (const route of Object.keys(scenario.routes)) {
        expect(ROUTES[route]?.thresholds?.errorRate).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('arrival rates over time', () => {
  const plan: RoutePlan = {
    start: 10,
    stages: [
      { target: 50, seconds: 10 },
      { target: 50, seconds: 5 },
    ],
  };

  it('ramps linearly within a stage, holds, and stops after the last', () => {
    expect([0, 5, 10, 12, 15].map((t) => rateAt(plan, t))).toEqual([10, 30, 50, 50, 0]);
    expect(routeSeconds(plan)).toBe(15);
  });

  it('starts the routes of a sequential scenario one after another', () => {
    expect(startOffsets({ sequential: true, routes: { a: plan, b: plan, c: plan } })).toEqual({ a: 0, b: 15, c: 30 });
    expect(startOffsets({ routes: { a: plan, b: plan } })).toEqual({ a: 0, b: 0 });
  });
});
