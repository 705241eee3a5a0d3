import { z } from 'zod';
import { entityTypeSchema, feedSchema, screeningCallerSchema } from './common.js';

export const entityRequestSchema = screeningCallerSchema.pick({ feeds: true }).extend({
  /** `<source>:<sourceId>` as returned in screening results. */
  id: z.string().min(3).max(300),
});

export const entityNameSchema = z.object({
  full: z.string(),
  /** primary: the listed name; strong: a real alias; weak: a low-quality hint (OFAC "weak a.k.a."). */
  strength: z.enum(['primary', 'strong', 'weak']),
  kind: z.string().optional(),
  script: z.string().optional(),
});

export const entityAddressSchema = z.object({
  street: z.string().optional(),
  city: z.string().optional(),
  region: z.string().optional(),
  postalCode: z.string().optional(),
  country: z.string().optional(),
  full: z.string().optional(),
});

export const entityIdentifierSchema = z.object({
  type: z.string(),
  value: z.string(),
  country: z.string().optional(),
  note: z.string().optional(),
});

export const entityDetailsSchema = z.object({
  id: z.string(),
  source: z.string(),
  sourceId: z.string(),
  sourceDataset: z.string(),
  /** The list's display name (e.g. "OFAC Specially Designated Nationals"). */
  sourceName: z.string(),
  feed: feedSchema,
  entityType: entityTypeSchema,
  name: z.string(),
  /** Every name, the primary first; aliases carry their strength. */
  names: z.array(entityNameSchema),
  aliases: z.array(entityNameSchema),
  datesOfBirth: z.array(z.string()),
  placesOfBirth: z.array(z.string()),
  nationalities: z.array(z.string()),
  citizenships: z.array(z.string()),
  addresses: z.array(entityAddressSchema),
  identifiers: z.array(entityIdentifierSchema),
  programs: z.array(z.string()),
  listingDate: z.string().nullable(),
  remarks: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  /** For aggregated sources (CSL, OpenSanctions): the upstream datasets. */
  upstreamDatasets: z.array(z.string()),
  positions: z.array(z.string()),
  gender: z.enum(['male', 'female']).nullable(),
  flag: z.string().nullable(),
  linkedTo: z.array(z.string()),
  addedInVersion: z.number().int(),
  changedInVersion: z.number().int().nullable(),
  listVersion: z.number().int(),
});

export type EntityRequest = z.infer<typeof entityRequestSchema>;
export type EntityDetails = z.infer<typeof entityDetailsSchema>;
