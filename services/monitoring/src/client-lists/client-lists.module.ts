import { Module } from '@nestjs/common';
import { ChecksModule } from '../checks/checks.module.js';
import { ClientListsHandler } from './client-lists.handler.js';
import { ClientListsRepository } from './client-lists.repository.js';
import { ClientListsService } from './client-lists.service.js';

@Module({
  imports: [ChecksModule],
  controllers: [ClientListsHandler],
  providers: [ClientListsRepository, ClientListsService],
})
export class ClientListsModule {}
