import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type ApiKeyStatus,
  type Client,
  type ClientWithKey,
  type ListClientsReply,
  type MessageReply,
  type NotificationSettings,
  type ProvisionClientReply,
  type ResolvedKey,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { ClientsService } from './clients.service.js';

/** Client administration (admin token required) and the service-to-service client subjects. */
@Controller()
export class ClientsHandler {
  constructor(
    private readonly clients: ClientsService,
    private readonly sessions: SessionsService,
  ) {}

  @Handles(contracts.clients.list)
  async list(request: ParsedRequestOf<typeof contracts.clients.list>): Promise<ListClientsReply> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return { clients: await this.clients.list() };
  }

  @Handles(contracts.clients.create, 'client')
  async create(request: ParsedRequestOf<typeof contracts.clients.create>): Promise<ClientWithKey> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.create(request);
  }

  @Handles(contracts.clients.delete)
  async delete(request: ParsedRequestOf<typeof contracts.clients.delete>): Promise<MessageReply> {
    await this.sessions.authenticateAdmin(request.accessToken);
    await this.clients.delete(request.clientId);
    return { message: 'Client deleted successfully' };
  }

  @Handles(contracts.clients.findByKey)
  async findByKey(request: ParsedRequestOf<typeof contracts.clients.findByKey>): Promise<Client> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.findByKey(request.apiKey);
  }

  @Handles(contracts.clients.regenerateKey)
  async regenerateKey(request: ParsedRequestOf<typeof contracts.clients.regenerateKey>): Promise<ClientWithKey> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.regenerateKey(request.clientId);
  }

  @Handles(contracts.clients.revokeKey)
  async revokeKey(request: ParsedRequestOf<typeof contracts.clients.revokeKey>): Promise<ApiKeyStatus> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.revokeKey(request.clientId);
  }

  @Handles(contracts.clients.keyStatus)
  async keyStatus(request: ParsedRequestOf<typeof contracts.clients.keyStatus>): Promise<ApiKeyStatus> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.keyStatus(request.clientId);
  }

  @Handles(contracts.clients.updateThresholds, 'threshold configuration')
  async updateThresholds(request: ParsedRequestOf<typeof contracts.clients.updateThresholds>): Promise<Client> {
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.updateThresholds(request.clientId, request.threshold_config);
  }

  @Handles(contracts.clients.resolveKey)
  resolveKey(request: ParsedRequestOf<typeof contracts.clients.resolveKey>): Promise<ResolvedKey> {
    return this.clients.resolveKey(request.keyHash);
  }

  @Handles(contracts.clients.resolveClient)
  resolveClient(request: ParsedRequestOf<typeof contracts.clients.resolveClient>): Promise<ResolvedKey> {
    return this.clients.resolveClient(request.clientId);
  }

  @Handles(contracts.clients.provision)
  provision(request: ParsedRequestOf<typeof contracts.clients.provision>): Promise<ProvisionClientReply> {
    return this.clients.provision(request);
  }

  /** billing: reads usage and quota for quota monitoring and the payment success page. */
  @Handles(contracts.clients.get)
  get(request: ParsedRequestOf<typeof contracts.clients.get>): Promise<Client> {
    return this.clients.get(request.clientId);
  }

  @Handles(contracts.clients.notificationSettings)
  notificationSettings(
    request: ParsedRequestOf<typeof contracts.clients.notificationSettings>,
  ): Promise<NotificationSettings> {
    return this.clients.notificationSettings(request.clientId);
  }

  @Handles(contracts.clients.updateSubscription)
  updateSubscription(request: ParsedRequestOf<typeof contracts.clients.updateSubscription>): Promise<Client> {
    return this.clients.updateSubscription(request);
  }
}
