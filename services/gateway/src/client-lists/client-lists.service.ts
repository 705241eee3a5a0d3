import { Inject, Injectable } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  CLIENT_LIST_PART_BYTES,
  contracts,
  textProblem,
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

const on = contracts.monitoring.clientLists;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text rule for an uploaded file: UTF-8 (monitoring reads nothing else) and no NUL. */
export function uploadedTextProblem(file: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(file);
  } catch {
    return 'the file is not UTF-8 text; save it as CSV UTF-8';
  }
  const problem = textProblem(text);
  return problem ? `the file ${problem}` : undefined;
}

/** Client lists over NATS: the file goes to monitoring in parts, downloads come back in pages. */
@Injectable()
export class ClientLists {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * `operationId` (the Idempotency-Key's operation, when the caller sent one) is the upload's id:
   * a retry whose first answer was lost completes the same upload, and monitoring answers the
   * list it already stored instead of storing it twice.
   */
  async upload(
    client: ResolvedKey,
    file: Buffer,
    list: { name: string; description?: string; fileName: string },
    operationId?: string,
  ): Promise<ClientList> {
    const problem = uploadedTextProblem(file);
    if (problem) {
      throw new DomainError('VALIDATION_FAILED', 'The file is not valid CSV text.', [
        { pointer: '/file', detail: problem },
      ]);
    }
    const { clientId } = client;
    const uploadId = operationId ?? randomUUID();
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
