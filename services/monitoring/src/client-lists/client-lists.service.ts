import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import {
  CLIENT_LIST_MAX_BYTES,
  type ClientList,
  type ClientListCompleteRequest,
  type ClientListDeleteReply,
  type ClientListDeleteRequest,
  type ClientListDownloadReply,
  type ClientListEntriesReply,
  type ParsedClientListEntriesRequest,
  type ClientListUploadPartReply,
  type ClientListUploadPartRequest,
  type ClientListsReply,
  type ClientListsRequest,
  type ParsedClientListDownloadRequest,
} from '@vigil/proto';
import { CSV_HEADER, MAX_REPORTED_PROBLEMS, parseClientList, toCsvLine } from './client-lists.csv.js';
import { MonitoringClientsRepository } from '../clients/monitoring-clients.repository.js';
import { ChecksScheduler } from '../checks/checks.scheduler.js';
import { ClientListsRepository } from './client-lists.repository.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Upload (in parts), list, download and delete of a client's own customer lists. */
@Injectable()
export class ClientListsService {
  constructor(
    private readonly repository: ClientListsRepository,
    private readonly clients: MonitoringClientsRepository,
    private readonly scheduler: ChecksScheduler,
  ) {}

  async uploadPart(request: ClientListUploadPartRequest): Promise<ClientListUploadPartReply> {
    const stored = await this.repository.savePart(
      request.clientId,
      request.uploadId,
      request.part,
      Buffer.from(request.data, 'base64'),
    );
    if (!stored)
      throw new DomainError('CONFLICT', `Upload ${request.uploadId} belongs to another upload; start a new one.`);
    return { uploadId: request.uploadId, part: request.part };
  }

  async upload(request: ClientListCompleteRequest): Promise<ClientList> {
    const { clientId, uploadId } = request;
    if (request.caller.clientId !== clientId) throw new DomainError('FORBIDDEN', 'The caller is another client.');
    const parts = await this.repository.parts(clientId, uploadId);
    try {
      if (parts.length !== request.parts || parts.some((p, i) => p.part !== i)) {
        throw new DomainError(
          'BAD_REQUEST',
          `Upload ${uploadId} is incomplete: ${parts.length} of ${request.parts} parts arrived.`,
        );
      }
      const bytes = Buffer.concat(parts.map((p) => p.data));
      if (bytes.length > CLIENT_LIST_MAX_BYTES) {
        throw new DomainError('PAYLOAD_TOO_LARGE', 'Please select a file smaller than 10MB.');
      }
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        throw invalidFile([{ row: null, detail: 'The file is not UTF-8 text; save it as CSV UTF-8.' }]);
      }
      const parsed = parseClientList(text);
      if (parsed.problems.length > 0) throw invalidFile(parsed.problems);
      const client = await this.clients.remember(request.caller);
      const list = await this.repository.create(
        clientId,
        uploadId,
        { name: request.name, description: request.description || null, fileName: request.fileName },
        parsed.rows,
        client.settings.default_check_frequency,
      );
      if (!list) throw new DomainError('CONFLICT', `Upload ${uploadId} belongs to another upload; start a new one.`);
      this.scheduler.kick();
      return list;
    } catch (error) {
      // A refused file is not kept around waiting for a retry that would be refused too.
      await this.repository.discardUpload(clientId, uploadId);
      throw error;
    }
  }

  async lists(request: ClientListsRequest): Promise<ClientListsReply> {
    return { lists: await this.repository.lists(request.clientId) };
  }

  async download(request: ParsedClientListDownloadRequest): Promise<ClientListDownloadReply> {
    const list = await this.repository.list(request.clientId, request.id);
    if (!list) throw notFound(request.id);
    const after = request.afterRow ?? 0;
    const entries = await this.repository.entries(request.clientId, request.id, after, request.limit + 1);
    const page = entries.slice(0, request.limit);
    const csv = (request.afterRow === undefined ? CSV_HEADER : '') + page.map(toCsvLine).join('');
    const nextRow = entries.length > request.limit ? page[page.length - 1]!.row : null;
    return { id: list.id, name: list.name, csv, nextRow };
  }

  async entries(request: ParsedClientListEntriesRequest): Promise<ClientListEntriesReply> {
    const { clientId, id, search, limit, offset } = request;
    const list = await this.repository.list(clientId, id);
    if (!list) throw notFound(id);
    const page = await this.repository.search(clientId, id, search, { limit, offset });
    return { list, entries: page.entries, total: page.total, limit, offset };
  }

  async delete(request: ClientListDeleteRequest): Promise<ClientListDeleteReply> {
    if (!(await this.repository.delete(request.clientId, request.id))) throw notFound(request.id);
    return { id: request.id, deleted: true };
  }
}

const notFound = (id: string) => new DomainError('NOT_FOUND', `No client list ${id}.`);

function invalidFile(problems: ReadonlyArray<{ row: number | null; detail: string }>): DomainError {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => ({
    pointer: p.row === null ? '/file' : `/file/rows/${p.row}`,
    detail: p.detail,
  }));
  const more = problems.length - shown.length;
  if (more > 0) shown.push({ pointer: '/file', detail: `…and ${more} more problems.` });
  return new DomainError(
    'VALIDATION_FAILED',
    problems.length === 1
      ? problems[0]!.detail
      : `The CSV file has ${problems.length} problems; the first is: ${problems[0]!.detail}`,
    shown,
  );
}
