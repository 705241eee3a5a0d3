import type { ServiceName } from './services.js';

// Every NATS subject Vigil uses, versioned so a contract change is a new subject
// rather than a silent break for replicas still running the old code.
// Request/reply subjects are handled by a queue group per service; event subjects
// on JetStream are listed in `streams` below.
export const subjects = {
  health: (service: ServiceName) => `health.v1.${service}` as const,
  screening: {
    screen: 'screening.v1.screen',
    bulkScreen: 'screening.v1.bulk-screen',
    entity: 'screening.v1.entity',
    lists: 'screening.v1.lists',
    datasets: 'screening.v1.datasets',
    search: 'screening.v1.search',
    screened: 'screening.v1.screened',
  },
  lists: {
    updated: 'lists.v1.updated',
    refreshFailed: 'lists.v1.refresh-failed',
  },
} as const;

/** The request header that carries a request's correlation id through NATS. */
export const REQUEST_ID_HEADER = 'x-request-id';
