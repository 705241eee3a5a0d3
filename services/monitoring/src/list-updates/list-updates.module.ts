import { Module } from '@nestjs/common';
import { ChecksModule } from '../checks/checks.module.js';
import { ListUpdatesConsumer } from './list-updates.consumer.js';
import { ListUpdatesRepository } from './list-updates.repository.js';
import { ListUpdatesService } from './list-updates.service.js';

@Module({
  imports: [ChecksModule],
  providers: [ListUpdatesRepository, ListUpdatesService, ListUpdatesConsumer],
  exports: [ListUpdatesRepository, ListUpdatesService, ListUpdatesConsumer],
})
export class ListUpdatesModule {}
