import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type ClientList,
  type ClientListDeleteReply,
  type ClientListDownloadReply,
  type ClientListEntriesReply,
  type ClientListUploadPartReply,
  type ClientListsReply,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { ClientListsService } from './client-lists.service.js';

const on = contracts.monitoring.clientLists;

@Controller()
export class ClientListsHandler {
  constructor(private readonly service: ClientListsService) {}

  @Handles(on.uploadPart, 'upload part')
  uploadPart(request: ParsedRequestOf<typeof on.uploadPart>): Promise<ClientListUploadPartReply> {
    return this.service.uploadPart(request);
  }

  @Handles(on.upload, 'client list upload')
  upload(request: ParsedRequestOf<typeof on.upload>): Promise<ClientList> {
    return this.service.upload(request);
  }

  @Handles(on.list, 'client lists request')
  lists(request: ParsedRequestOf<typeof on.list>): Promise<ClientListsReply> {
    return this.service.lists(request);
  }

  @Handles(on.download, 'client list download')
  download(request: ParsedRequestOf<typeof on.download>): Promise<ClientListDownloadReply> {
    return this.service.download(request);
  }

  @Handles(on.entries, 'client list entries request')
  entries(request: ParsedRequestOf<typeof on.entries>): Promise<ClientListEntriesReply> {
    return this.service.entries(request);
  }

  @Handles(on.delete, 'client list deletion')
  delete(request: ParsedRequestOf<typeof on.delete>): Promise<ClientListDeleteReply> {
    return this.service.delete(request);
  }
}
