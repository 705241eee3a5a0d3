import {
  identifierProblem,
  looksLikeCryptoAddress,
  normaliseIdentifierValue,
  readCryptoAddress,
  type IdentifierScheme,
} from '@vigil/lists';
import { DomainError } from '@vigil/platform';
import type { IdentifierType, ScreenIdentifier } from '@vigil/proto';
import type { EngineMatch } from '../index/candidate-index.js';
import type { IdentifierQuery } from '../index/identifier-evidence.js';

// The wire's identifier types are the lists' schemes: a scheme added to one and not the other
// fails to compile here rather than being silently unscreenable.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const schemesAgree: Same<IdentifierType, IdentifierScheme> = true;
void schemesAgree;

/** What a screened party asks the engines about by identifier. */
export type IdentifierPlan = {
  identifiers: IdentifierQuery[];
  /** The name is a wallet address (a recognised format with a valid checksum): it is not also searched as a name. */
  nameIsAddress: boolean;
};

/**
 * The identifiers to look up for one party: those it gives, and its name when the name is a
 * wallet address (an address pasted into the name field must be screened as the address it is).
 */
export function planIdentifiers(
  name: string | undefined,
  given: readonly ScreenIdentifier[] | undefined,
): IdentifierPlan {
  const identifiers: IdentifierQuery[] = (given ?? []).map((i) => ({
    scheme: i.type,
    value: i.value,
    ...(i.country ? { country: i.country.toUpperCase() } : {}),
  }));
  let nameIsAddress = false;
  if (name && looksLikeCryptoAddress(name)) {
    identifiers.push({ scheme: 'crypto-address', value: name.trim() });
    const reading = readCryptoAddress(name);
    nameIsAddress = reading !== undefined && reading.problem === undefined;
  }
  return { identifiers, nameIsAddress };
}

/**
 * Refuses a given identifier that fails its scheme's checks (a mistyped IMO or IBAN answered
 * "clear" would be the worst answer) unless a list gives exactly that value: lists carry a few
 * malformed values (truncated addresses), and those must still be found.
 */
export function assertIdentifiersValid(
  given: readonly ScreenIdentifier[] | undefined,
  matches: readonly EngineMatch[],
  pointer: string,
): void {
  const problems: Array<{ pointer: string; detail: string }> = [];
  (given ?? []).forEach((i, k) => {
    const problem = identifierProblem(i.type, i.value);
    if (!problem) return;
    const wanted = normaliseIdentifierValue(i.type, i.value);
    const listed = matches.some(
      (m) =>
        m.matchedOn === 'identifier' &&
        m.entity.identifiers.some((l) => l.type === i.type && normaliseIdentifierValue(i.type, l.value) === wanted),
    );
    if (!listed) problems.push({ pointer: `${pointer}/${k}/value`, detail: `${i.value} ${problem}` });
  });
  if (problems.length > 0) throw new DomainError('VALIDATION_FAILED', 'An identifier is invalid.', problems);
}

/** How an identifier-only screening is logged: what was searched, in words. */
export const describeIdentifiers = (identifiers: readonly ScreenIdentifier[]): string =>
  identifiers.map((i) => `${i.type} ${i.value}`).join('; ');
