import type { ScreenResponse, ScreeningCaller } from '@vigil/proto';
import { eventually, type Harness } from './harness.js';

// What the replica tests compare: the answers of one screening replica against another's (another
// engine, or one built from Postgres alone), for a caller entitled to every fixture list.

export const LARGE_CALLER: ScreeningCaller = {
  clientId: 'client-1',
  tier: 'large',
  feeds: [
    'ofac',
    'peps',
    'regulatory',
    'sanctions',
    'wanted',
    'crime',
    'us_sanctions',
    'eu_sanctions',
    'gb_coh_disqualified',
  ],
};

/** A name on each fixture list, spelt as a client might, and one on none. */
export const QUERIES = [
  'Viktor Bout',
  'Banco Nacional de Cuba',
  'Eric Badege',
  'Al Rashid Trust',
  'Marisol Ventura',
  'Iran Hormuz 12',
  'Nobody Listed Here',
];

export type Answer = { id: string; score: number; status: string }[];

/** Each query's results as the service answers them now: ids, scores and statuses, in order. */
export const answers = (h: Harness): Promise<Answer[]> =>
  Promise.all(
    QUERIES.map(async (name) =>
      (await h.value<ScreenResponse>('screening.v1.screen', { ...LARGE_CALLER, entity: { name } })).results.map(
        (r) => ({
          id: r.id,
          score: r.score,
          status: r.status,
        }),
      ),
    ),
  );

/** Resolves once a screen is answered: some replica's index is loaded. */
export const screeningReady = (h: Harness) =>
  eventually(
    () => h.request('screening.v1.screen', { ...LARGE_CALLER, entity: { name: 'x' } }),
    (r) => r.ok,
  );
