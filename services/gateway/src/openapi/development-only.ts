import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';

export const DEVELOPMENT_ONLY_METADATA = 'vigil:development-only';

/**
 * A route for development and tests only (the dev mailbox): it never appears in the public
 * OpenAPI document, and the marker lets tests tell it apart from the API.
 */
export const DevelopmentOnly = () =>
  applyDecorators(SetMetadata(DEVELOPMENT_ONLY_METADATA, true), ApiExcludeEndpoint());
