import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  contracts,
  type AdminListsResponse,
  type ListVersionsResponse,
  type ParsedRequestOf,
  type TotalSearchesReply,
} from '@vigil/proto';
import { ListAdminService } from './list-admin.service.js';

/** Admin only: the gateway checks the role before it asks. */
@Controller()
export class ListAdminHandler {
  constructor(private readonly lists: ListAdminService) {}

  @Handles(contracts.screening.adminLists, 'admin lists request')
  adminLists(): Promise<AdminListsResponse> {
    return this.lists.lists();
  }

  @Handles(contracts.screening.listVersions, 'list versions request')
  versions(request: ParsedRequestOf<typeof contracts.screening.listVersions>): Promise<ListVersionsResponse> {
    return this.lists.versions(request.source, request.limit);
  }

  @Handles(contracts.screening.totalSearches, 'total searches request')
  totalSearches(): Promise<TotalSearchesReply> {
    return this.lists.totalSearches();
  }
}
