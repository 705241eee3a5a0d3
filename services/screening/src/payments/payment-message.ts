import type { IdentifierType, PaymentMessageType, PaymentRole } from '@vigil/proto';

// The message model the parsers produce and screening reads: every party with its role, and every
// value with the field it came from, so a hit can name the field.

/** A value and where it sits: an XPath-like path (`/Document/…/Cdtr/Nm`) or an MT field (`/block4/59/name`). */
export type Located = { field: string; value: string };

export type MessageParty = {
  role: PaymentRole;
  path: string;
  name?: Located;
  /** Address lines and town, kept for the analyst; countries are read from `countries`. */
  address: Located[];
  /** ISO 3166-1 alpha-2, from postal address, residence or the BIC's country letters. */
  countries: Located[];
  identifiers: Array<Located & { type: IdentifierType }>;
};

export type PaymentMessage = {
  type: PaymentMessageType;
  reference?: string;
  parties: MessageParty[];
  /** Remittance information and instructions: free text a sanctioned name or wallet can hide in. */
  freeText: Located[];
};

/** Why a message was refused, with the place of the fault (a JSON pointer into the body, then the message path). */
export class PaymentMessageError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}
