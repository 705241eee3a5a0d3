import { z } from 'zod';
import { ENTRY_SCREENING_STATUSES, monitoringCallerSchema } from './monitoring.js';

// Client lists: a client's own customers (name, email, aliases), uploaded as CSV for
// monitoring to re-screen. A CSV may be up to 10 MB but one NATS message carries ~1 MiB,
// so the gateway sends the file's bytes in parts and then asks for the list to be built;
// downloads come back in pages the same way. `clientId` is always the verified caller's.

/** The product's limit: "Max CSV upload is 10MB". */
export const CLIENT_LIST_MAX_BYTES = 10 * 1024 * 1024;
/** Rows after the header; more is a bulk job, not a list to watch. */
export const CLIENT_LIST_MAX_ROWS = 50_000;
/** Raw bytes per upload part (base64 makes it 4/3 larger, well under NATS's 1 MiB). */
export const CLIENT_LIST_PART_BYTES = 512 * 1024;
export const CLIENT_LIST_MAX_PARTS = Math.ceil(CLIENT_LIST_MAX_BYTES / CLIENT_LIST_PART_BYTES);
export const CLIENT_LIST_DOWNLOAD_PAGE_MAX = 5_000;
/** The columns of a downloaded list, in order. */
export const CLIENT_LIST_COLUMNS = ['name', 'email', 'aliases'] as const;

const clientIdSchema = z.string().min(1).max(100);

export const clientListUploadPartRequestSchema = z.object({
  clientId: clientIdSchema,
  uploadId: z.uuid(),
  part: z
    .number()
    .int()
    .min(0)
    .max(CLIENT_LIST_MAX_PARTS - 1),
  /** Base64 of at most CLIENT_LIST_PART_BYTES bytes. */
  data: z.base64().max(Math.ceil(CLIENT_LIST_PART_BYTES / 3) * 4),
});

export const clientListUploadPartReplySchema = z.object({ uploadId: z.string(), part: z.number().int() });

export const clientListNameSchema = z.string().trim().min(1, 'Please enter a list name.').max(200);

export const clientListCompleteRequestSchema = z.object({
  clientId: clientIdSchema,
  uploadId: z.uuid(),
  /** How many parts were sent (0..parts-1). */
  parts: z.number().int().min(1).max(CLIENT_LIST_MAX_PARTS),
  name: clientListNameSchema,
  description: z.string().trim().max(1000).optional(),
  fileName: z.string().trim().min(1).max(255),
  /** The verified client (feeds, thresholds) the entries are screened and monitored with. */
  caller: monitoringCallerSchema,
});

/** One uploaded list as the Client Lists page shows it; `count` is its number of entries. */
export const clientListSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  file_name: z.string(),
  count: z.number().int().nonnegative(),
  created_at: z.string(),
  /** Entries per §4 screening status; `unknown` until an entry's first screening has answered. */
  counts: z.object({
    sanctioned: z.number().int().nonnegative(),
    review: z.number().int().nonnegative(),
    clear: z.number().int().nonnegative(),
    unknown: z.number().int().nonnegative(),
  }),
});

export const clientListsRequestSchema = z.object({ clientId: clientIdSchema });
export const clientListsReplySchema = z.object({ lists: z.array(clientListSchema) });

export const clientListDownloadRequestSchema = z.object({
  clientId: clientIdSchema,
  id: z.uuid(),
  /** Rows after this row number (the previous page's `nextRow`); absent for the first page. */
  afterRow: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(CLIENT_LIST_DOWNLOAD_PAGE_MAX).default(CLIENT_LIST_DOWNLOAD_PAGE_MAX),
});

export const clientListDownloadReplySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** This page's CSV rows; the first page starts with the header row. */
  csv: z.string(),
  nextRow: z.number().int().nullable(),
});

export const CLIENT_LIST_ENTRIES_PAGE_MAX = 500;

/** One list's entries for the View dialog; `search` matches name, email or any alias, case-insensitively. */
export const clientListEntriesRequestSchema = z.object({
  clientId: clientIdSchema,
  id: z.uuid(),
  search: z.string().trim().min(1).max(300).optional(),
  limit: z.number().int().min(1).max(CLIENT_LIST_ENTRIES_PAGE_MAX).default(100),
  offset: z.number().int().min(0).max(CLIENT_LIST_MAX_ROWS).default(0),
});

export const clientListEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  aliases: z.array(z.string()),
  added_at: z.string(),
  /** §4: blocked → sanctioned, a match → review, none → clear, not (yet) answered → unknown. */
  screening_status: z.enum(ENTRY_SCREENING_STATUSES),
  screening_score: z.number().nullable(),
  screening_source: z.string().nullable(),
  screening_details: z.string().nullable(),
  /** The monitored entity this entry is watched as (alerts name it). */
  monitored_entity_id: z.string().nullable(),
});

export const clientListEntriesReplySchema = z.object({
  list: clientListSchema,
  entries: z.array(clientListEntrySchema),
  /** Entries matching `search` (all entries without it). */
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const clientListDeleteRequestSchema = z.object({ clientId: clientIdSchema, id: z.uuid() });
export const clientListDeleteReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });

export type ClientListUploadPartRequest = z.infer<typeof clientListUploadPartRequestSchema>;
export type ClientListUploadPartReply = z.infer<typeof clientListUploadPartReplySchema>;
export type ClientListCompleteRequest = z.infer<typeof clientListCompleteRequestSchema>;
export type ClientList = z.infer<typeof clientListSchema>;
export type ClientListsRequest = z.infer<typeof clientListsRequestSchema>;
export type ClientListsReply = z.infer<typeof clientListsReplySchema>;
export type ClientListDownloadRequest = z.input<typeof clientListDownloadRequestSchema>;
export type ParsedClientListDownloadRequest = z.infer<typeof clientListDownloadRequestSchema>;
export type ClientListDownloadReply = z.infer<typeof clientListDownloadReplySchema>;
export type ClientListEntriesRequest = z.input<typeof clientListEntriesRequestSchema>;
export type ParsedClientListEntriesRequest = z.infer<typeof clientListEntriesRequestSchema>;
export type ClientListEntry = z.infer<typeof clientListEntrySchema>;
export type ClientListEntriesReply = z.infer<typeof clientListEntriesReplySchema>;
export type ClientListDeleteRequest = z.infer<typeof clientListDeleteRequestSchema>;
export type ClientListDeleteReply = z.infer<typeof clientListDeleteReplySchema>;
