import { z } from 'zod';
import {
  listVersionRefSchema,
  matchStatusSchema,
  requestActorSchema,
  screeningCallerSchema,
  screeningThresholdsSchema,
} from './common.js';
import { IDENTIFIER_TYPES, quotaLeaseRefSchema, screenResultSchema } from './screen.js';

/** The message types `POST /api/v1/screen/payment` reads. */
export const PAYMENT_MESSAGE_TYPES = ['pacs.008', 'pacs.009', 'pain.001', 'mt103'] as const;
export type PaymentMessageType = (typeof PAYMENT_MESSAGE_TYPES)[number];

/**
 * The largest message taken, in characters: a pacs.008 of one transaction is 3 to 10 KB, so this
 * leaves room for a batch of a few dozen while keeping a hostile message's parse cheap.
 */
export const PAYMENT_MESSAGE_MAX_CHARS = 256 * 1024;

/**
 * The body of `POST /api/v1/screen/payment`: the message as text, ISO 20022 XML or SWIFT MT103
 * (blocks `{1:…}{2:…}{4:…-}` or block 4's fields alone). `type` is checked against the message
 * when given; otherwise the message says what it is.
 */
export const paymentScreenBodySchema = z.strictObject({
  message: z.string().min(1).max(PAYMENT_MESSAGE_MAX_CHARS),
  type: z.enum(PAYMENT_MESSAGE_TYPES).optional(),
});
export type PaymentScreenBody = z.output<typeof paymentScreenBodySchema>;

export const paymentScreenRequestSchema = screeningCallerSchema.extend({
  message: z.string().min(1).max(PAYMENT_MESSAGE_MAX_CHARS),
  type: z.enum(PAYMENT_MESSAGE_TYPES).optional(),
  thresholds: screeningThresholdsSchema.optional(),
  /** Who the gateway verified: the member or API key the payment's log names. */
  actor: requestActorSchema.optional(),
  /** As for a single screen: a retry of the same Idempotency-Key logs under the same id. */
  screeningId: z.uuid().optional(),
  quotaLease: quotaLeaseRefSchema.optional(),
});

/** The part a party plays in the payment, named after the ISO 20022 element (MT103 fields map onto them). */
export const PAYMENT_ROLES = [
  'debtor',
  'creditor',
  'ultimate-debtor',
  'ultimate-creditor',
  'initiating-party',
  'debtor-agent',
  'creditor-agent',
  'intermediary-agent',
  'instructing-agent',
  'instructed-agent',
  'previous-instructing-agent',
  'sender',
  'receiver',
  'senders-correspondent',
  'receivers-correspondent',
  'reimbursement-institution',
] as const;
export type PaymentRole = (typeof PAYMENT_ROLES)[number];

/** Where a value sits in the message: an XPath-like path for XML, `/block4/59/name` for MT. */
const fieldPath = z.string();

/** One thing a field of the message matched: a list entry, or a country under an embargo programme. */
export const paymentHitSchema = z.object({
  /** The field of the message the hit came from. */
  field: fieldPath,
  /** The field's value as the message gives it. */
  value: z.string(),
  kind: z.enum(['name', 'identifier', 'country', 'remittance']),
  status: matchStatusSchema,
  /** One line an analyst reads: the list entry and why, or the programme that covers the country. */
  reason: z.string(),
  /** The list entry matched (absent for a country hit). */
  result: screenResultSchema.optional(),
});

export const paymentPartySchema = z.object({
  role: z.enum(PAYMENT_ROLES),
  /** The element or field that holds the party. */
  path: fieldPath,
  name: z.string().nullable(),
  /** ISO 3166-1 alpha-2 codes the party's address, residence or BIC give. */
  countries: z.array(z.string()),
  identifiers: z.array(z.object({ type: z.enum(IDENTIFIER_TYPES), value: z.string(), field: fieldPath })),
  /** The worst status of the party's fields. */
  status: matchStatusSchema,
  /** Review and blocked hits only. */
  hits: z.array(paymentHitSchema),
});

export const paymentScreenResponseSchema = z.object({
  /** The screening log id: the message is logged once, with its decisive hit. */
  screeningId: z.string(),
  messageType: z.enum(PAYMENT_MESSAGE_TYPES),
  /** The message's own reference (GrpHdr/MsgId, MT field 20), when it has one. */
  messageReference: z.string().nullable(),
  /** The decision for the whole message: the worst status of any field. */
  status: matchStatusSchema,
  blocked: z.boolean(),
  match: z.boolean(),
  parties: z.array(paymentPartySchema),
  /** Free text (remittance information, instructions to agents): each field screened for names and wallets. */
  freeText: z.array(
    z.object({ field: fieldPath, text: z.string(), status: matchStatusSchema, hits: z.array(paymentHitSchema) }),
  ),
  /** How many fields were looked up (names, identifiers, countries, free texts). */
  fieldsScreened: z.number().int().nonnegative(),
  listVersions: z.array(listVersionRefSchema),
  algorithm: z.string(),
  thresholds: z.object({ highScore: z.number(), mediumScore: z.number() }),
  screenedAt: z.string(),
});

export type PaymentScreenRequest = z.input<typeof paymentScreenRequestSchema>;
export type ParsedPaymentScreenRequest = z.output<typeof paymentScreenRequestSchema>;
export type PaymentHit = z.infer<typeof paymentHitSchema>;
export type PaymentParty = z.infer<typeof paymentPartySchema>;
export type PaymentScreenResponse = z.infer<typeof paymentScreenResponseSchema>;
