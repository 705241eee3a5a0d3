import type { PaymentMessageType } from '@vigil/proto';
import { parseIso20022 } from './iso20022.parser.js';
import { parseMt103 } from './mt103.parser.js';
import { PaymentMessageError, type PaymentMessage } from './payment-message.js';

/** Reads a message as the type its first character says (`<` XML, `{` or `:` MT), checked against `expected`. */
export function parsePaymentMessage(text: string, expected?: PaymentMessageType): PaymentMessage {
  const start = text.trimStart();
  const message = start.startsWith('<') ? parseIso20022(start) : parseMt103(start);
  if (expected && message.type !== expected) {
    throw new PaymentMessageError(`the message is ${message.type}, not ${expected}`, '/type');
  }
  return message;
}
