import { baseEnvSchema, envSchemas } from '@vigil/platform';
import { INDEX_ENGINES } from '@vigil/proto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The package folder, found from this file whether it runs from src/ (tests) or dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('screening: package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

/** Small lists in the official formats, shipped so `npm start` works with no internet. */
export const SAMPLE_LISTS_DIR = join(packageRoot(), 'sample-lists');

const FEED_NAMES = [
  'ofac',
  'peps',
  'regulatory',
  'sanctions',
  'wanted',
  'crime',
  'us_sanctions',
  'eu_sanctions',
  'gb_coh_disqualified',
] as const;

/** "a=1,b=2" → { a: '1', b: '2' }; keys and values trimmed, empty parts ignored. */
function pairs(what: string) {
  return z.string().transform((value, ctx) => {
    const out: Record<string, string> = {};
    for (const part of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq <= 0 || eq === part.length - 1) {
        ctx.addIssue({ code: 'custom', message: `"${part}" is not ${what}` });
        return z.NEVER;
      }
      out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    return out;
  });
}

const feedPairs = pairs('source=feed').refine(
  (m) => Object.values(m).every((f) => (FEED_NAMES as readonly string[]).includes(f)),
  {
    message: `feeds must be one of ${FEED_NAMES.join(', ')}`,
  },
);

const minutesPairs = pairs('source=minutes').refine(
  (m) => Object.values(m).every((v) => /^\d+$/.test(v) && Number(v) > 0),
  {
    message: 'minutes must be positive integers',
  },
);

const { bool } = envSchemas;

export const envSchema = baseEnvSchema
  .extend({
    DB_SCHEMA: envSchemas.dbSchema.default('screening'),
    /**
     * dir: every list file found under LISTS_DIR (default: the bundled sample);
     * official: each source from its publisher's URL (LIST_LOCATIONS overrides any of them).
     */
    LISTS_SOURCE: z.enum(['dir', 'official']).default('dir'),
    LISTS_DIR: z
      .string()
      .default(SAMPLE_LISTS_DIR)
      .transform((p) => resolve(p)),
    /** official mode: source=URL-or-path overrides, e.g. "un-sc=/mnt/lists/consolidated.xml". */
    LIST_LOCATIONS: pairs('source=location').default({}),
    /** official mode: OpenSanctions datasets to load as feed=dataset pairs (their data licence applies). */
    OPENSANCTIONS_DATASETS: pairs('feed=dataset')
      .refine((m) => Object.keys(m).every((f) => (FEED_NAMES as readonly string[]).includes(f)), {
        message: `feeds must be one of ${FEED_NAMES.join(', ')}`,
      })
      .default({
        peps: 'peps',
        crime: 'crime',
        wanted: 'interpol_red_notices',
        regulatory: 'regulatory',
        gb_coh_disqualified: 'gb_coh_disqualified',
      }),
    /** dir mode: feed of a discovered source when its name does not say (e.g. "os-zala=sanctions"). */
    LIST_FEEDS: feedPairs.default({}),
    LISTS_REFRESH_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
    /** Per-source cadence, e.g. "ofac-sdn=15,un-sc=240". */
    LISTS_REFRESH_OVERRIDES: minutesPairs.default({}),
    /** Off on replicas that only serve: they follow lists.v1.updated and never fetch. */
    LISTS_SCHEDULER: bool.default(true),
    LISTS_CACHE_DIR: z.string().default(join(tmpdir(), 'vigil-lists')),
    LISTS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
    /**
     * A refresh holds its source's lease in Postgres for this long and renews it every
     * LISTS_LEASE_RENEW_SECONDS while it works: a crashed holder's source is free again within
     * one lease, and a holder that stalls past it may find its lease taken and its commit refused.
     */
    LISTS_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
    LISTS_LEASE_RENEW_SECONDS: z.coerce.number().int().min(1).max(3599).default(30),
    /** A new version may not lose more than this fraction of the entities (a truncated file is not a delisting). */
    LISTS_MAX_SHRINK: z.coerce.number().min(0).max(1).default(0.5),
    INDEX_ENGINE: z.enum(INDEX_ENGINES).default('in-process'),
    OPENSEARCH_URL: z.url().optional(),
    OPENSEARCH_INDEX_PREFIX: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,40}$/)
      .default('vigil-screening'),
    ELASTICSEARCH_URL: z.url().optional(),
    ELASTICSEARCH_INDEX_PREFIX: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,40}$/)
      .default('vigil-screening'),
    /**
     * Screening logs are committed before each answer, and by default durably: the WAL is on
     * disk before the answer leaves, so even a Postgres crash cannot lose a log of an answered
     * screen. Concurrent screens share one commit (ScreeningLogWriter), so under load the flush
     * is paid per batch, not per screen. False trades that guarantee for latency: Postgres then
     * acknowledges before flushing and a Postgres crash can lose the last fraction of a second.
     */
    SCREENING_LOG_SYNCHRONOUS_COMMIT: bool.default(true),
    /**
     * Worker threads that each hold a copy of the in-process index and share bulk requests
     * (single screens stay on the main thread). Each copy costs the index's memory again
     * (about 300 MiB for the shared lists). Off by default: on a host without idle cores
     * they cost more CPU per name than they save (see README, Benchmarks).
     */
    INDEX_WORKERS: z.coerce.number().int().min(0).max(16).default(0),
    /** How often each replica checks Postgres for list versions it may have missed. */
    INDEX_RECONCILE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  })
  .refine((c) => c.INDEX_ENGINE !== 'opensearch' || c.OPENSEARCH_URL !== undefined, {
    message: 'is required when INDEX_ENGINE=opensearch',
    path: ['OPENSEARCH_URL'],
  })
  .refine((c) => c.INDEX_ENGINE !== 'elasticsearch' || c.ELASTICSEARCH_URL !== undefined, {
    message: 'is required when INDEX_ENGINE=elasticsearch',
    path: ['ELASTICSEARCH_URL'],
  })
  // A renewal that comes no sooner than the lease ends lets every running refresh's lease lapse.
  .refine((c) => c.LISTS_LEASE_RENEW_SECONDS < c.LISTS_LEASE_SECONDS, {
    message: 'must be shorter than LISTS_LEASE_SECONDS',
    path: ['LISTS_LEASE_RENEW_SECONDS'],
  });

export type ScreeningConfig = z.infer<typeof envSchema>;
