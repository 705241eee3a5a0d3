import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  clientListCompleteRequestSchema,
  clientListDeleteRequestSchema,
  clientListDownloadRequestSchema,
  clientListEntriesRequestSchema,
  clientListUploadPartRequestSchema,
  clientListsRequestSchema,
  subjects,
  type ClientList,
  type ClientListDeleteReply,
  type ClientListDownloadReply,
  type ClientListEntriesReply,
  type ClientListUploadPartReply,
  type ClientListsReply,
} from '@vigil/proto';
import { ClientListsService } from './client-lists.service.js';

const on = subjects.monitoring.clientLists;

@Controller()
export class ClientListsHandler {
  constructor(private readonly service: ClientListsService) {}

  @MessagePattern(on.uploadPart)
  uploadPart(@Payload() data: unknown): Promise<ClientListUploadPartReply> {
    return this.service.uploadPart(parseMessage(clientListUploadPartRequestSchema, data, 'upload part'));
  }

  @MessagePattern(on.upload)
  upload(@Payload() data: unknown): Promise<ClientList> {
    return this.service.upload(parseMessage(clientListCompleteRequestSchema, data, 'client list upload'));
  }

  @MessagePattern(on.list)
  lists(@Payload() data: unknown): Promise<ClientListsReply> {
    return this.service.lists(parseMessage(clientListsRequestSchema, data, 'client lists request'));
  }

  @MessagePattern(on.download)
  download(@Payload() data: unknown): Promise<ClientListDownloadReply> {
    return this.service.download(parseMessage(clientListDownloadRequestSchema, data, 'client list download'));
  }

  @MessagePattern(on.entries)
  entries(@Payload() data: unknown): Promise<ClientListEntriesReply> {
    return this.service.entries(parseMessage(clientListEntriesRequestSchema, data, 'client list entries request'));
  }

  @MessagePattern(on.delete)
  delete(@Payload() data: unknown): Promise<ClientListDeleteReply> {
    return this.service.delete(parseMessage(clientListDeleteRequestSchema, data, 'client list deletion'));
  }
}
