import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import { DomainError, parseMessage } from '@vigil/platform';
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
} from '@vigil/proto';
import type { Request } from 'express';
import { z } from 'zod';
import { bodyOf } from '../auth/caller.js';
import { Credentials } from '../credentials/credentials.js';
import { typedQuery } from '../http/query.js';
import { clientOf } from '../screening-api/screening-api.controller.js';
import { ClientLists } from './client-lists.service.js';

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
  @Credentials('dashboard')
  list(@Req() req: Request): Promise<ClientListsReply> {
    return this.lists.lists(clientOf(req).clientId);
  }

  @Get('client/lists/download/:id')
  @Credentials('dashboard')
  async download(@Req() req: Request, @Param('id') id: string): Promise<Response> {
    const { clientId } = clientOf(req);
    parseMessage(clientListDownloadRequestSchema, { clientId, id }, 'download request');
    const { name, csv } = await this.lists.download(clientId, id);
    return new Response(ReadableStream.from(csv).pipeThrough(new TextEncoderStream()), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || 'client-list'}.csv"`,
      },
    });
  }

  /** One list's entries (the View dialog); `search` matches name, email or any alias. */
  @Get('client/lists/:id/entries')
  @Credentials('dashboard')
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive part of a name, email or alias.' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 100.' })
  @ApiQuery({ name: 'offset', required: false })
  entries(
    @Req() req: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ClientListEntriesReply> {
    const typed = typedQuery(query, { search: 'string', limit: 'number', offset: 'number' });
    return this.lists.entries(
      parseMessage(clientListEntriesRequestSchema, { ...typed, id, clientId: clientOf(req).clientId }, 'query'),
    );
  }

  /** multipart/form-data: `file` (a .csv of at most 10 MB), `name` (default: the file name without .csv), `description`. */
  @Post('client-lists/upload-csv')
  @HttpCode(201)
  @Credentials('dashboard')
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
  upload(@Req() req: Request, @UploadedFile() file: UploadedCsv | undefined): Promise<ClientList> {
    const client = clientOf(req);
    const fields = parseMessage(uploadFieldsSchema, bodyOf(req), 'upload');
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
    return this.lists.upload(client, file.buffer, {
      name: name.slice(0, 200),
      fileName,
      ...(fields.description ? { description: fields.description } : {}),
    });
  }

  @Delete('client-lists/:id')
  @Credentials('dashboard')
  remove(@Req() req: Request, @Param('id') id: string): Promise<ClientListDeleteReply> {
    const { clientId } = clientOf(req);
    parseMessage(clientListDeleteRequestSchema, { clientId, id }, 'deletion');
    return this.lists.delete(clientId, id);
  }
}
