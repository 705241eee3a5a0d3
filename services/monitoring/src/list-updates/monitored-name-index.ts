import { looksLikeCryptoAddress, normaliseIdentifierValue, type Entity } from '@vigil/lists';
import { CandidateIndex } from '@vigil/matching';
import type { CheckTarget } from '../checks/checks.repository.js';

/**
 * Candidates below this score (the delta's name against a monitored name, both directions of
 * the asymmetry considered loose) are not re-screened. It sits well under any review threshold
 * because the lookup runs the other way round from screening: the list entity's name is the
 * query here, so its extra tokens (middle names, patronymics) cost more than they do when the
 * monitored name is screened against it.
 */
export const CANDIDATE_MIN_SCORE = 0.3;
const CANDIDATES_PER_NAME = 100;

/**
 * An in-memory @vigil/matching index over the monitored names (and aliases), so that a list
 * update's names find the monitored entities they could match without rescanning the book:
 * each lookup touches only the names its tokens reach.
 */
export class MonitoredNameIndex {
  private readonly index: CandidateIndex;
  private readonly targets: readonly CheckTarget[];
  /**
   * Monitored names and aliases that are wallet addresses, by their normalised spelling: a list
   * update that adds an address must find the wallet monitored under it, and names cannot (an
   * address shares no token with the listed entity's name).
   */
  private readonly addresses = new Map<string, number[]>();

  constructor(targets: readonly CheckTarget[]) {
    this.targets = targets;
    targets.forEach((t, i) => {
      for (const name of [t.entityName, ...t.aliases]) {
        if (!looksLikeCryptoAddress(name)) continue;
        const key = normaliseIdentifierValue('crypto-address', name);
        this.addresses.set(key, [...(this.addresses.get(key) ?? []), i]);
      }
    });
    const entities: Entity[] = targets.map((t, i) => ({
      listId: 'opensanctions',
      sourceId: String(i),
      type: 'individual',
      typeInferred: true,
      names: [
        { full: t.entityName, strength: 'primary' },
        ...t.aliases.map((a) => ({ full: a, strength: 'strong' as const })),
      ],
      birthDates: [],
      birthPlaces: [],
      nationalities: [],
      citizenships: [],
      addresses: [],
      identifiers: [],
      programs: [],
    }));
    this.index = new CandidateIndex(entities, {
      candidateLimit: CANDIDATES_PER_NAME,
      resultLimit: CANDIDATES_PER_NAME,
    });
  }

  get size(): number {
    return this.targets.length;
  }

  /** The monitored entities any of `names` could match, or that are one of the `addresses` (a delta's wallets). */
  lookup(names: Iterable<string>, addresses: Iterable<string> = []): CheckTarget[] {
    const found = new Set<number>();
    for (const address of addresses) {
      for (const i of this.addresses.get(normaliseIdentifierValue('crypto-address', address)) ?? []) found.add(i);
    }
    for (const name of names) {
      if (name.trim() === '') continue;
      for (const m of this.index.screen({ name }, CANDIDATES_PER_NAME)) {
        if (m.score >= CANDIDATE_MIN_SCORE) found.add(Number(m.entity.sourceId));
      }
    }
    return [...found].sort((a, b) => a - b).map((i) => this.targets[i]!);
  }
}
