import { Controller, Get } from '@nestjs/common';
import { publicListsResponseSchema, type PublicListsResponse } from '@vigil/proto';
import { Credentials } from '../credentials/credentials.js';
import { ScreeningApi } from './screening-api.service.js';
import { Answers } from '../http/answers.js';

/**
 * The public site's Watchlists page shows the list catalogue (names, entity counts,
 * versions, dates, checksums) to anonymous visitors, and nothing else of it. It holds no client data, so it needs no
 * credentials here, and one cached answer serves everyone; the public API v1's
 * /api/v1/lists takes the API key like every other v1 route.
 */
@Controller('api')
export class CatalogueController {
  constructor(private readonly screening: ScreeningApi) {}

  @Get('lists')
  @Answers(publicListsResponseSchema, { summary: 'The list catalogue (public)' })
  @Credentials('public')
  async lists(): Promise<PublicListsResponse> {
    // zod strips every field the public schema does not name (file locations, errors, ...).
    return publicListsResponseSchema.parse(await this.screening.lists());
  }
}
