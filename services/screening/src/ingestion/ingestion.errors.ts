/** Where a refresh failed; recorded with the failure and published in lists.v1.refresh-failed. */
export type IngestionStage = 'fetch' | 'parse' | 'validate' | 'store';

export class IngestionError extends Error {
  constructor(
    readonly stage: IngestionStage,
    message: string,
  ) {
    super(message);
    this.name = 'IngestionError';
  }
}
