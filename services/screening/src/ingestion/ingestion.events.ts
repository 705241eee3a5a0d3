import { LIST_DELTA_MAX_IDS, subjects, type ListsRefreshFailedEvent, type ListsUpdatedEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import type { OutboxMessage } from '../events/outbox.repository.js';
import { entityId } from '../index/candidate-index.js';
import type { SourceDefinition } from '../sources/source.js';
import type { Delta } from './delta.js';
import type { IngestionStage } from './ingestion.errors.js';

export function listsUpdatedMessage(
  definition: SourceDefinition,
  version: { versionId: number; previousVersionId: number | null; sha256: string; entityCount: number; fetchedAt: Date },
  delta: Delta,
): OutboxMessage {
  const complete = delta.added.length + delta.changed.length + delta.removed.length <= LIST_DELTA_MAX_IDS;
  const ids = (list: string[]) => (complete ? list.map((id) => entityId(definition.source, id)) : []);
  const payload: ListsUpdatedEvent = {
    eventId: randomUUID(),
    source: definition.source,
    feed: definition.feed,
    versionId: version.versionId,
    previousVersionId: version.previousVersionId,
    sha256: version.sha256,
    entityCount: version.entityCount,
    fetchedAt: version.fetchedAt.toISOString(),
    counts: { added: delta.added.length, changed: delta.changed.length, removed: delta.removed.length },
    added: ids(delta.added),
    changed: ids(delta.changed),
    removed: ids(delta.removed),
    complete,
  };
  return { id: payload.eventId, subject: subjects.lists.updated, payload };
}

export function refreshFailedMessage(definition: Pick<SourceDefinition, 'source' | 'feed'>, stage: IngestionStage, error: string, servingVersionId: number | null): OutboxMessage {
  const payload: ListsRefreshFailedEvent = {
    eventId: randomUUID(),
    source: definition.source,
    feed: definition.feed,
    stage,
    error,
    failedAt: new Date().toISOString(),
    servingVersionId,
  };
  return { id: payload.eventId, subject: subjects.lists.refreshFailed, payload };
}
