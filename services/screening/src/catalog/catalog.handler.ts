import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  datasetsRequestSchema,
  entityRequestSchema,
  listsRequestSchema,
  searchRequestSchema,
  subjects,
  type DatasetsResponse,
  type EntityDetails,
  type ListsResponse,
  type SearchResponse,
} from '@vigil/proto';
import { CatalogService } from './catalog.service.js';

@Controller()
export class CatalogHandler {
  constructor(private readonly catalog: CatalogService) {}

  @MessagePattern(subjects.screening.entity)
  entity(@Payload() data: unknown): Promise<EntityDetails> {
    return this.catalog.entity(parseMessage(entityRequestSchema, data, 'entity request'));
  }

  @MessagePattern(subjects.screening.lists)
  lists(@Payload() data: unknown): Promise<ListsResponse> {
    parseMessage(listsRequestSchema, data ?? {}, 'lists request');
    return this.catalog.lists();
  }

  @MessagePattern(subjects.screening.datasets)
  datasets(@Payload() data: unknown): Promise<DatasetsResponse> {
    return this.catalog.dataset(parseMessage(datasetsRequestSchema, data, 'datasets request'));
  }

  @MessagePattern(subjects.screening.search)
  search(@Payload() data: unknown): Promise<SearchResponse> {
    return this.catalog.search(parseMessage(searchRequestSchema, data, 'search request'));
  }
}
