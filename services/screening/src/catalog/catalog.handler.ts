import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type DatasetsResponse,
  type EntityDetails,
  type ListsResponse,
  type SearchResponse,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { CatalogService } from './catalog.service.js';

@Controller()
export class CatalogHandler {
  constructor(private readonly catalog: CatalogService) {}

  @Handles(contracts.screening.entity, 'entity request')
  entity(request: ParsedRequestOf<typeof contracts.screening.entity>): Promise<EntityDetails> {
    return this.catalog.entity(request);
  }

  @Handles(contracts.screening.lists, 'lists request')
  lists(): Promise<ListsResponse> {
    return this.catalog.lists();
  }

  @Handles(contracts.screening.datasets, 'datasets request')
  datasets(request: ParsedRequestOf<typeof contracts.screening.datasets>): Promise<DatasetsResponse> {
    return this.catalog.dataset(request);
  }

  @Handles(contracts.screening.search, 'search request')
  search(request: ParsedRequestOf<typeof contracts.screening.search>): Promise<SearchResponse> {
    return this.catalog.search(request);
  }
}
