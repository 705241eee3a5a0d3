import { Injectable } from '@nestjs/common';
import { ibanValid, looksLikeCryptoAddress, readCryptoAddress } from '@vigil/lists';
import { DEFAULT_ALGORITHM } from '@vigil/matching';
import { currentRequestId, currentTraceparent, DomainError } from '@vigil/platform';
import {
  matchLabel,
  type MatchStatus,
  type ParsedPaymentScreenRequest,
  type PaymentHit,
  type PaymentParty,
  type PaymentScreenResponse,
  type ScreenEntity,
  type ScreenResult,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import type { EngineMatch, EngineQuery } from '../index/candidate-index.js';
import type { IdentifierQuery } from '../index/identifier-evidence.js';
import { IndexService } from '../index/index.service.js';
import { groupParties } from '../reviews/parties.js';
import { caseFileOf, type ReviewCaseFile } from '../reviews/review-memory.key.js';
import { ReviewMemory } from '../reviews/review-memory.js';
import { ScreeningLogWriter } from '../screening-logs/screening-logs.writer.js';
import { toScreenResult } from '../screening/screening.results.js';
import { listVersions, resolveThresholds } from '../screening/screening.service.js';
import { COMPREHENSIVE_EMBARGOES } from './embargoes.js';
import { PaymentMessageError, type Located, type MessageParty, type PaymentMessage } from './payment-message.js';
import { parsePaymentMessage } from './payment-message.parser.js';

/** Engine lookups one message may cost: a pain.001 batch of ~40 transactions, not a file. */
export const PAYMENT_LOOKUPS_MAX = 400;
/** Candidates per lookup: a field's hits, not a ranked list. */
const CANDIDATES = 5;
/** The name matcher reads names; a longer free text is screened in its first 300 characters. */
const NAME_MAX = 300;

const AGENT_ROLES = new Set<PaymentParty['role']>([
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
]);

const RANK: Readonly<Record<MatchStatus, number>> = { clear: 0, review: 1, blocked: 2 };
const worst = (statuses: readonly MatchStatus[]): MatchStatus =>
  statuses.reduce<MatchStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'clear');

/** One engine lookup and where its answer goes. */
type Lookup = { query: EngineQuery; source: Located; kind: PaymentHit['kind']; owner: Owner };
type Owner = { hits: PaymentHit[] };

/** The lookups for identifiers: a branch BIC is also looked up as its institution's BIC8. */
function identifierQueries(type: IdentifierQuery['scheme'], value: string): IdentifierQuery[] {
  const compact = value.replace(/\s/g, '').toUpperCase();
  if (type === 'swift-bic' && compact.length === 11 && !compact.endsWith('XXX')) {
    return [
      { scheme: type, value: compact },
      { scheme: type, value: compact.slice(0, 8) },
    ];
  }
  return [{ scheme: type, value }];
}

/** Wallets and IBANs written into free text ("PAYMENT TO bc1q…"): each is looked up as one. */
function identifiersIn(text: string): IdentifierQuery[] {
  return text.split(/[\s,;()]+/).flatMap((token): IdentifierQuery[] => {
    const reading = looksLikeCryptoAddress(token) ? readCryptoAddress(token) : undefined;
    if (reading && reading.problem === undefined) return [{ scheme: 'crypto-address', value: token }];
    if (token.length >= 15 && /^[A-Z]{2}\d{2}[A-Z0-9]+$/i.test(token) && ibanValid(token)) {
      return [{ scheme: 'iban', value: token }];
    }
    return [];
  });
}

/**
 * Every engine lookup a message needs, each knowing the field it screens and where its hits go;
 * country hits (embargoes) need no lookup and are added here. Exported for the latency bench.
 */
export function planLookups(message: PaymentMessage) {
  const parties = message.parties.map((p) => ({ party: p, hits: [] as PaymentHit[] }));
  const freeText = message.freeText.map((t) => ({ text: t, hits: [] as PaymentHit[] }));
  const lookups: Lookup[] = [];
  let countries = 0;
  for (const owner of parties) {
    const { party } = owner;
    if (party.name) {
      lookups.push({
        query: {
          name: party.name.value.slice(0, NAME_MAX),
          ...(AGENT_ROLES.has(party.role) ? { entityType: 'organization' as const } : {}),
        },
        source: party.name,
        kind: 'name',
        owner,
      });
    }
    for (const id of party.identifiers) {
      lookups.push({
        query: { identifiers: identifierQueries(id.type, id.value) },
        source: id,
        kind: 'identifier',
        owner,
      });
    }
    for (const country of party.countries) {
      countries++;
      const programme = COMPREHENSIVE_EMBARGOES[country.value];
      if (programme) {
        owner.hits.push({
          field: country.field,
          value: country.value,
          kind: 'country',
          status: 'review',
          reason: programme,
        });
      }
    }
  }
  for (const owner of freeText) {
    lookups.push({
      query: { name: owner.text.value.slice(0, NAME_MAX) },
      source: owner.text,
      kind: 'remittance',
      owner,
    });
    for (const id of identifiersIn(owner.text.value)) {
      lookups.push({ query: { identifiers: [id] }, source: owner.text, kind: 'remittance', owner });
    }
  }
  return { parties, freeText, lookups, countries };
}

/**
 * Payment-message screening: the message is parsed (ISO 20022 pacs.008/pacs.009/pain.001 or
 * MT103), then every party's name, every BIC, IBAN, wallet and document number, every country
 * and every free-text field is looked up in one engine batch; each hit names the field it came
 * from. The message is one screening: logged once, with its decisive hit, and a review opens a
 * case whose customer reference names the message and the field.
 */
@Injectable()
export class PaymentScreeningService {
  constructor(
    private readonly index: IndexService,
    private readonly logs: ScreeningLogWriter,
    private readonly memory: ReviewMemory,
  ) {}

  async screen(request: ParsedPaymentScreenRequest): Promise<PaymentScreenResponse> {
    const message = parse(request);
    const scope = this.index.scopeFor(request.feeds);
    const { thresholds, tunables } = resolveThresholds(request.thresholds);
    const partitions = new Map(scope.versions.map((v) => [v.source, v]));

    const { parties, freeText, lookups, countries } = planLookups(message);
    if (lookups.length > PAYMENT_LOOKUPS_MAX) {
      throw new DomainError(
        'PAYMENT_MESSAGE_INVALID',
        `The message has ${lookups.length} fields to screen; at most ${PAYMENT_LOOKUPS_MAX} are screened per message.`,
        [{ pointer: '/message', detail: 'split the batch into smaller messages' }],
      );
    }

    const answers = await this.index.screenMany(
      lookups.map((l) => l.query),
      scope,
      CANDIDATES,
      tunables,
    );
    // The decisive hit: the worst, then the highest scored; it is what the log and a review carry.
    let decisive: { lookup: Lookup; match: EngineMatch; result: ScreenResult } | undefined;
    for (const [k, lookup] of lookups.entries()) {
      const matches = answers[k] ?? [];
      const results = matches.map((m) => toScreenResult(m, thresholds, partitions, true));
      const kept =
        lookup.kind === 'name' || lookup.kind === 'remittance'
          ? await this.memory.apply(request.clientId, { name: lookup.source.value }, matches, results)
          : results;
      kept.forEach((result, i) => {
        if (result.status === 'clear') return;
        lookup.owner.hits.push({
          field: lookup.source.field,
          value: lookup.source.value,
          kind: lookup.kind,
          status: result.status,
          reason: reasonOf(result),
          result,
        });
        const better =
          !decisive ||
          RANK[result.status] > RANK[decisive.result.status] ||
          (result.status === decisive.result.status && result.score > decisive.result.score);
        if (better) decisive = { lookup, match: matches[i]!, result };
      });
    }

    const partyAnswers = parties.map(({ party, hits }) => answerParty(party, hits));
    const textAnswers = freeText.map(({ text, hits }) => ({
      field: text.field,
      text: text.value,
      status: worst(hits.map((h) => h.status)),
      hits,
    }));
    const status = worst([...partyAnswers.map((p) => p.status), ...textAnswers.map((t) => t.status)]);
    const countryHit = partyAnswers.flatMap((p) => p.hits).find((h) => h.kind === 'country');
    const screenedAt = new Date();
    const screeningId = request.screeningId ?? randomUUID();
    const messageName = `${message.type} ${message.reference ?? '(no reference)'}`;
    const top = decisive?.result;
    const review = decisive && top?.status !== 'clear' ? this.caseFile(messageName, decisive, scope) : null;
    await this.logs.record([
      {
        id: screeningId,
        kind: 'single',
        clientId: request.clientId,
        tier: request.tier,
        actor: request.actor ?? null,
        requestId: currentRequestId() ?? null,
        searchedName: decisive ? decisive.lookup.source.value : countryHit ? countryHit.value : messageName,
        searchedEmail: null,
        matchFound: status !== 'clear',
        status,
        score: top?.score ?? 0,
        confidence: matchLabel(top?.score ?? 0),
        topEntityId: top?.id ?? null,
        matchedEntityName: top?.name ?? null,
        sourceList: top?.sourceDataset ?? null,
        matchReason: decisive
          ? `${messageName}, field ${decisive.lookup.source.field}: ${top?.explanation.text ?? ''}`
          : countryHit
            ? `${messageName}, field ${countryHit.field}: ${countryHit.reason}`
            : null,
        feeds: [...request.feeds],
        listVersions: scope.versions.map((v) => ({ source: v.source, versionId: v.versionId })),
        createdAt: screenedAt,
        traceparent: currentTraceparent(),
        review,
        quotaLease: request.quotaLease ?? null,
      },
    ]);
    return {
      screeningId,
      messageType: message.type,
      messageReference: message.reference ?? null,
      status,
      blocked: status === 'blocked',
      match: status !== 'clear',
      parties: partyAnswers,
      freeText: textAnswers,
      fieldsScreened: lookups.length + countries,
      listVersions: listVersions(scope),
      algorithm: DEFAULT_ALGORITHM,
      thresholds,
      screenedAt: screenedAt.toISOString(),
    };
  }

  /** The case a review or a block opens (a block is confirmed or overturned like a review): the field's value as the searched name, the message and field as its reference. */
  private caseFile(
    messageName: string,
    decisive: { lookup: Lookup; match: EngineMatch; result: ScreenResult },
    scope: ReturnType<IndexService['scopeFor']>,
  ): ReviewCaseFile {
    const searched: ScreenEntity = {
      name: decisive.lookup.source.value.slice(0, NAME_MAX),
      customerReference: `${messageName} ${decisive.lookup.source.field}`.slice(0, 200),
    };
    const version = scope.versions.find((v) => v.source === decisive.result.source);
    const listVersion = version ? { source: version.source, versionId: version.versionId } : null;
    // The case is the decisive field's: its party, as a name screen's case lists its parties.
    const parties = groupParties([{ entity: decisive.match.entity, result: decisive.result, listVersion }]);
    return caseFileOf(searched, decisive.match.entity, decisive.result, listVersion, parties);
  }
}

function parse(request: ParsedPaymentScreenRequest): PaymentMessage {
  try {
    return parsePaymentMessage(request.message, request.type);
  } catch (error) {
    if (!(error instanceof PaymentMessageError)) throw error;
    // The pointer is into the HTTP body (`/message`, `/type`), then where in the message.
    const pointer = error.path === '/type' ? '/type' : '/message';
    const detail =
      pointer === '/message' && error.path !== '/message' ? `${error.path}: ${error.message}` : error.message;
    throw new DomainError('PAYMENT_MESSAGE_INVALID', `The payment message cannot be read: ${error.message}.`, [
      { pointer, detail },
    ]);
  }
}

/** "ofac_sdn BANK MELLI (IRAN): SDN-listed BIC BMJIIRTH" or "… : name match, score 0.97". */
function reasonOf(result: ScreenResult): string {
  const listed = result.explanation.qualifiers.find((q) => q.qualifier === 'identifier')?.detail;
  const programmes = result.programs.join(', ') || 'no programme';
  const how = listed ?? `${result.matchedOn} match, score ${result.score.toFixed(2)}`;
  return `${result.sourceDataset} ${result.name} (${programmes}): ${how}`;
}

function answerParty(party: MessageParty, hits: PaymentHit[]): PaymentParty {
  return {
    role: party.role,
    path: party.path,
    name: party.name?.value ?? null,
    countries: [...new Set(party.countries.map((c) => c.value))],
    identifiers: party.identifiers.map((i) => ({ type: i.type, value: i.value, field: i.field })),
    status: worst(hits.map((h) => h.status)),
    hits,
  };
}
