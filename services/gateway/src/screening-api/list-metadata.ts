import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ListInfo, ListsResponse } from '@vigil/proto';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { BytesReply } from '../http/bytes-reply.js';

/**
 * How long a client may reuse the list catalogue before asking again: the gateway itself keeps it
 * a few seconds, and a list changes at most a few times a day, so a minute costs nobody a version.
 */
export const LIST_METADATA_CACHE_CONTROL = 'private, max-age=60';

const URL_LOCATION = /^[a-z][a-z\d+.-]*:\/\//i;
// An absolute POSIX or Windows path (not the path part of a URL): only its last segment is kept.
const SERVER_PATH = /(?<![\w:/.\\-])(?:[A-Za-z]:)?(?:[/\\][^\s'"/\\]+)+[/\\]([^\s'"/\\]+)/g;

/** A catalogue entry without where this server keeps its files: a file location becomes its name. */
export function withoutServerPaths(info: ListInfo): ListInfo {
  const fileName = (path: string) => path.split(/[/\\]/).filter(Boolean).pop() ?? path;
  return {
    ...info,
    location: URL_LOCATION.test(info.location) ? info.location : fileName(info.location),
    lastError: info.lastError?.replace(SERVER_PATH, '$1') ?? null,
  };
}

/**
 * The catalogue as a client's cache can keep it: a strong ETag of the bytes sent, and 304 with no
 * body when the client already holds them (If-None-Match, a list of tags or `*`).
 */
export function listMetadataReply(catalogue: ListsResponse, ifNoneMatch: string | undefined): BytesReply {
  const body = Buffer.from(JSON.stringify({ ...catalogue, lists: catalogue.lists.map(withoutServerPaths) }));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const headers = { etag, 'cache-control': LIST_METADATA_CACHE_CONTROL };
  const held = (ifNoneMatch ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
  return held
    ? new BytesReply(new Uint8Array(), 304, 'application/json; charset=utf-8', headers)
    : new BytesReply(body, 200, undefined, headers);
}

/**
 * The If-None-Match header (Nest's @Headers would make it a required header in /openapi.json; the
 * route documents it as optional itself).
 */
export const IfNoneMatch = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().headers['if-none-match'],
);
