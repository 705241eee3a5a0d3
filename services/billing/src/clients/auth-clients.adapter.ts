import { Injectable } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import { contracts, type Client, type NotificationSettings, type ProvisionClientReply, type ProvisionClientRequest, type UpdateSubscriptionRequest } from '@vigil/proto';

/** The auth service owns clients, keys, tiers and quotas; billing asks it over NATS. */
@Injectable()
export class AuthClients {
  constructor(private readonly rpc: RpcClient) {}

  provision(request: Omit<ProvisionClientRequest, 'subscriptionStatus'> & { subscriptionStatus: ProvisionClientRequest['subscriptionStatus'] }): Promise<ProvisionClientReply> {
    return this.rpc.request(contracts.clients.provision, request);
  }

  updateSubscription(request: UpdateSubscriptionRequest): Promise<Client> {
    return this.rpc.request(contracts.clients.updateSubscription, request);
  }

  get(clientId: string): Promise<Client> {
    return this.rpc.request(contracts.clients.get, { clientId });
  }

  /** The client, or undefined when auth no longer has it (deleted). */
  async find(clientId: string): Promise<Client | undefined> {
    try {
      return await this.get(clientId);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  notificationSettings(clientId: string): Promise<NotificationSettings> {
    return this.rpc.request(contracts.clients.notificationSettings, { clientId });
  }
}
