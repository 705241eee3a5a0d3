import { Controller, Get } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import {
  contracts,
  listSourceParamSchema,
  listVersionsQuerySchema,
  type AdminListsResponse,
  type AdminOverviewResponse,
  type ListVersionsQuery,
  type ListVersionsResponse,
  adminOverviewResponseSchema,
} from '@vigil/proto';
import { Credentials } from '../credentials/credentials.js';
import { ZodParam, ZodQuery } from '../http/route-params.js';
import { AdminOverview } from './admin-overview.service.js';
import { Answers } from '../http/answers.js';

/**
 * The admin console's overview and list freshness. Admins only: the credentials guard checks
 * the session's role on the server and answers 403 to anyone else.
 */
@Controller('api/client/admin')
export class AdminConsoleController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly overviewFigures: AdminOverview,
  ) {}

  /** Active users, security alerts (24 h), system health %, total searches, and each service's last hour. */
  @Get('overview')
  @Answers(adminOverviewResponseSchema, { summary: 'Platform overview figures for the admin console' })
  @Credentials('admin')
  overview(): Promise<AdminOverviewResponse> {
    return this.overviewFigures.overview();
  }

  /** Every source: version, entity count, checksum, last success, next refresh, last failure. */
  @Get('lists')
  @Answers(contracts.screening.adminLists, { summary: 'Every list source with its loaded version' })
  @Credentials('admin')
  lists(): Promise<AdminListsResponse> {
    return this.rpc.request(contracts.screening.adminLists, {});
  }

  /** One source's stored versions, newest first, with added/changed/removed counts. */
  @Get('lists/:source/versions')
  @Answers(contracts.screening.listVersions, { summary: "One list source's recent versions" })
  @Credentials('admin')
  versions(
    @ZodParam('source', listSourceParamSchema) source: string,
    @ZodQuery(listVersionsQuerySchema) query: ListVersionsQuery,
  ): Promise<ListVersionsResponse> {
    return this.rpc.request(contracts.screening.listVersions, { source, limit: query.limit });
  }
}
