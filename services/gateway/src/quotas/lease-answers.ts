import { Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, QUOTA_LEASE_ANSWERS_MAX } from '@vigil/proto';
import type { Settlement } from './quota-leases.repository.js';

/** How many screens were answered under each quota lease: what a lease is settled to. */
export type LeaseAnswers = {
  count(leaseIds: readonly string[]): Promise<Settlement[]>;
};

export const LEASE_ANSWERS = Symbol('LEASE_ANSWERS');

/**
 * Screening's count: it logs every answered screen, under the lease it was counted by, before the
 * answer leaves it, so its logs are the record of what was answered (a retried screen whose first
 * answer was lost is logged once, under its operation id).
 */
@Injectable()
export class ScreeningLeaseAnswers implements LeaseAnswers {
  constructor(private readonly rpc: RpcClient) {}

  async count(leaseIds: readonly string[]): Promise<Settlement[]> {
    const answers: Settlement[] = [];
    for (let i = 0; i < leaseIds.length; i += QUOTA_LEASE_ANSWERS_MAX) {
      const reply = await this.rpc.request(contracts.screening.quotaLeaseAnswers, {
        leaseIds: leaseIds.slice(i, i + QUOTA_LEASE_ANSWERS_MAX),
      });
      answers.push(...reply.answers);
    }
    return answers;
  }
}
