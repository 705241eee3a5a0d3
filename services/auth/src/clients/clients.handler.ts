import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  clientIdRequestSchema,
  clientRequestSchema,
  createClientRequestSchema,
  findByKeyRequestSchema,
  listClientsRequestSchema,
  provisionClientRequestSchema,
  resolveKeyRequestSchema,
  subjects,
  updateSubscriptionRequestSchema,
  updateThresholdsRequestSchema,
  type ApiKeyStatus,
  type Client,
  type ClientWithKey,
  type ListClientsReply,
  type MessageReply,
  type NotificationSettings,
  type ProvisionClientReply,
  type ResolvedKey,
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

  @MessagePattern(subjects.clients.list)
  async list(@Payload() data: unknown): Promise<ListClientsReply> {
    await this.sessions.authenticateAdmin(parseMessage(listClientsRequestSchema, data).accessToken);
    return { clients: await this.clients.list() };
  }

  @MessagePattern(subjects.clients.create)
  async create(@Payload() data: unknown): Promise<ClientWithKey> {
    const request = parseMessage(createClientRequestSchema, data, 'client');
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.create(request);
  }

  @MessagePattern(subjects.clients.delete)
  async delete(@Payload() data: unknown): Promise<MessageReply> {
    const request = parseMessage(clientIdRequestSchema, data);
    await this.sessions.authenticateAdmin(request.accessToken);
    await this.clients.delete(request.clientId);
    return { message: 'Client deleted successfully' };
  }

  @MessagePattern(subjects.clients.findByKey)
  async findByKey(@Payload() data: unknown): Promise<Client> {
    const request = parseMessage(findByKeyRequestSchema, data);
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.findByKey(request.apiKey);
  }

  @MessagePattern(subjects.clients.regenerateKey)
  async regenerateKey(@Payload() data: unknown): Promise<ClientWithKey> {
    const request = parseMessage(clientIdRequestSchema, data);
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.regenerateKey(request.clientId);
  }

  @MessagePattern(subjects.clients.revokeKey)
  async revokeKey(@Payload() data: unknown): Promise<ApiKeyStatus> {
    const request = parseMessage(clientIdRequestSchema, data);
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.revokeKey(request.clientId);
  }

  @MessagePattern(subjects.clients.keyStatus)
  async keyStatus(@Payload() data: unknown): Promise<ApiKeyStatus> {
    const request = parseMessage(clientIdRequestSchema, data);
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.keyStatus(request.clientId);
  }

  @MessagePattern(subjects.clients.updateThresholds)
  async updateThresholds(@Payload() data: unknown): Promise<Client> {
    const request = parseMessage(updateThresholdsRequestSchema, data, 'threshold configuration');
    await this.sessions.authenticateAdmin(request.accessToken);
    return this.clients.updateThresholds(request.clientId, request.threshold_config);
  }

  @MessagePattern(subjects.clients.resolveKey)
  resolveKey(@Payload() data: unknown): Promise<ResolvedKey> {
    return this.clients.resolveKey(parseMessage(resolveKeyRequestSchema, data).keyHash);
  }

  @MessagePattern(subjects.clients.resolveClient)
  resolveClient(@Payload() data: unknown): Promise<ResolvedKey> {
    return this.clients.resolveClient(parseMessage(clientRequestSchema, data).clientId);
  }

  @MessagePattern(subjects.clients.provision)
  provision(@Payload() data: unknown): Promise<ProvisionClientReply> {
    return this.clients.provision(parseMessage(provisionClientRequestSchema, data));
  }

  /** billing: reads usage and quota for quota monitoring and the payment success page. */
  @MessagePattern(subjects.clients.get)
  get(@Payload() data: unknown): Promise<Client> {
    return this.clients.get(parseMessage(clientRequestSchema, data).clientId);
  }

  @MessagePattern(subjects.clients.notificationSettings)
  notificationSettings(@Payload() data: unknown): Promise<NotificationSettings> {
    return this.clients.notificationSettings(parseMessage(clientRequestSchema, data).clientId);
  }

  @MessagePattern(subjects.clients.updateSubscription)
  updateSubscription(@Payload() data: unknown): Promise<Client> {
    return this.clients.updateSubscription(parseMessage(updateSubscriptionRequestSchema, data));
  }
}
