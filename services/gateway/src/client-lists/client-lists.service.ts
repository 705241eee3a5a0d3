import { Inject, Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import {
  CLIENT_LIST_PART_BYTES,
  subjects,
  type ClientList,
  type ClientListDeleteReply,
  type ClientListDownloadReply,
  type ClientListEntriesReply,
  type ParsedClientListEntriesRequest,
  type ClientListsReply,
  type ResolvedKey,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { monitoringCaller } from '../monitoring/monitoring.service.js';

const on = subjects.monitoring.clientLists;

/** Client lists over NATS: the file goes to monitoring in parts, downloads come back in pages. */
@Injectable()
export class ClientLists {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async upload(
    client: ResolvedKey,
    file: Buffer,
    list: { name: string; description?: string; fileName: string },
  ): Promise<ClientList> {
    const { clientId } = client;
    const uploadId = randomUUID();
    const parts = Math.max(1, Math.ceil(file.length / CLIENT_LIST_PART_BYTES));
    // One part at a time: a 10 MB file is 20 small requests, and monitoring's pool is not flooded.
    for (let part = 0; part < parts; part++) {
      const data = file.subarray(part * CLIENT_LIST_PART_BYTES, (part + 1) * CLIENT_LIST_PART_BYTES).toString('base64');
      await this.rpc.request(on.uploadPart, { clientId, uploadId, part, data });
    }
    return this.rpc.request(
      on.upload,
      { clientId, uploadId, parts, ...list, caller: monitoringCaller(client) },
      { timeoutMs: this.config.BULK_SCREEN_TIMEOUT_MS },
    );
  }

  lists(clientId: string): Promise<ClientListsReply> {
    return this.rpc.request(on.list, { clientId });
  }

  /**
   * The first page is fetched before answering, so a missing list is a 404 problem rather
   * than a broken download; the rest streams page by page.
   */
  async download(clientId: string, id: string): Promise<{ name: string; csv: AsyncIterable<string> }> {
    const first = await this.page(clientId, id);
    return { name: first.name, csv: this.pages(clientId, id, first) };
  }

  entries(request: ParsedClientListEntriesRequest): Promise<ClientListEntriesReply> {
    return this.rpc.request(on.entries, request);
  }

  delete(clientId: string, id: string): Promise<ClientListDeleteReply> {
    return this.rpc.request(on.delete, { clientId, id });
  }

  private async *pages(clientId: string, id: string, first: ClientListDownloadReply): AsyncGenerator<string> {
    let page = first;
    yield page.csv;
    while (page.nextRow !== null) {
      page = await this.page(clientId, id, page.nextRow);
      yield page.csv;
    }
  }

  private page(clientId: string, id: string, afterRow?: number): Promise<ClientListDownloadReply> {
    return this.rpc.request(on.download, { clientId, id, ...(afterRow !== undefined ? { afterRow } : {}) });
  }
}
