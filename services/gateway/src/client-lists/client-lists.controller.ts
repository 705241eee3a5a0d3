import { Controller, Delete, Get, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import { DomainError } from '@vigil/platform';
import {
  CLIENT_LIST_MAX_BYTES,
  clientListDeleteRequestSchema,
  clientListDownloadRequestSchema,
  clientListEntriesRequestSchema,
  clientListNameSchema,
  type ClientList,
  type ClientListDeleteReply,
  type ClientListEntriesReply,
  type ClientListsReply,
  type ParsedClientListEntriesRequest,
  type ResolvedKey,
  contracts,
} from '@vigil/proto';
import { z } from 'zod';
import { Credentials, RequiresMemberRole } from '../credentials/credentials.js';
import { OperationId } from '../idempotency/operation-id.js';
import { CurrentClient, ZodRequest } from '../http/route-params.js';
import { ClientLists } from './client-lists.service.js';
import { Answers } from '../http/answers.js';

/** A list of the caller's, as the path names it. */
type ListRef = { clientId: string; id: string };

/** What multer hands over for the `file` field (memory storage). */
type UploadedCsv = { originalname: string; size: number; buffer: Buffer };

const uploadFieldsSchema = z.object({
  name: clientListNameSchema.optional(),
  description: z.string().trim().max(1000).optional(),
});

// The guard runs before the interceptor, so an anonymous request never gets its file read;
// a file over 10 MB is cut off by multer and answered 413 PAYLOAD_TOO_LARGE.
const csvUpload = FileInterceptor('file', {
  limits: { fileSize: CLIENT_LIST_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
});

/** Client Sanctions Lists: the client's own customers, uploaded as CSV, kept by monitoring. */
@Controller('api')
export class ClientListsController {
  constructor(private readonly lists: ClientLists) {}

  @Get('client/lists')
  @Answers(contracts.monitoring.clientLists.list, { summary: "The client's own lists" })
  @Credentials('dashboard')
  list(@CurrentClient() client: ResolvedKey): Promise<ClientListsReply> {
    return this.lists.lists(client.clientId);
  }

  @Get('client/lists/download/:id')
  @Answers({ mediaType: 'text/csv' }, { summary: 'Download a client list as CSV' })
  @Credentials('dashboard')
  async download(
    @ZodRequest(clientListDownloadRequestSchema, 'download request', {
      body: false,
      client: true,
      params: { id: 'id' },
    })
    request: ListRef,
  ): Promise<Response> {
    const { name, csv } = await this.lists.download(request.clientId, request.id);
    return new Response(ReadableStream.from(csv).pipeThrough(new TextEncoderStream()), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || 'client-list'}.csv"`,
      },
    });
  }

  /** One list's entries (the View dialog); `search` matches name, email or any alias. */
  @Get('client/lists/:id/entries')
  @Answers(contracts.monitoring.clientLists.entries, { summary: "A client list's entries, one page" })
  @Credentials('dashboard')
  entries(
    @ZodRequest(clientListEntriesRequestSchema, 'query', {
      body: false,
      client: true,
      params: { id: 'id' },
      query: true,
    })
    request: ParsedClientListEntriesRequest,
  ): Promise<ClientListEntriesReply> {
    return this.lists.entries(request);
  }

  /** multipart/form-data: `file` (a .csv of at most 10 MB), `name` (default: the file name without .csv), `description`. */
  @Post('client-lists/upload-csv')
  @Answers(contracts.monitoring.clientLists.upload, { status: 201, summary: 'Upload a client list (CSV)' })
  @HttpCode(201)
  @Credentials('dashboard')
  @RequiresMemberRole('supervisor')
  @UseInterceptors(csvUpload)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        name: { type: 'string', maxLength: 200 },
        description: { type: 'string', maxLength: 1000 },
      },
    },
  })
  upload(
    @CurrentClient() client: ResolvedKey,
    @ZodRequest(uploadFieldsSchema, 'upload', { documentBody: false }) fields: z.output<typeof uploadFieldsSchema>,
    @UploadedFile() file: UploadedCsv | undefined,
    @OperationId() operationId: string | undefined,
  ): Promise<ClientList> {
    if (!file) {
      throw new DomainError('VALIDATION_FAILED', 'Please select a file and enter a list name.', [
        { pointer: '/file', detail: 'a multipart/form-data field "file" with the CSV is required' },
      ]);
    }
    if (!/\.csv$/i.test(file.originalname)) {
      throw new DomainError('VALIDATION_FAILED', 'Please select a CSV file.', [
        { pointer: '/file', detail: 'the file name must end in .csv' },
      ]);
    }
    const fileName = file.originalname.slice(0, 255);
    const name = fields.name ?? (fileName.replace(/\.csv$/i, '').trim() || fileName);
    return this.lists.upload(
      client,
      file.buffer,
      { name: name.slice(0, 200), fileName, ...(fields.description ? { description: fields.description } : {}) },
      operationId,
    );
  }

  @Delete('client-lists/:id')
  @Answers(contracts.monitoring.clientLists.delete, { summary: 'Delete a client list' })
  @Credentials('dashboard')
  @RequiresMemberRole('supervisor')
  remove(
    @ZodRequest(clientListDeleteRequestSchema, 'deletion', { body: false, client: true, params: { id: 'id' } })
    request: ListRef,
  ): Promise<ClientListDeleteReply> {
    return this.lists.delete(request.clientId, request.id);
  }
}
