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

/**
 * The refresh's lease lapsed and another holder took it. Not a failure of the list: the holder
 * that took it refreshes the source, so nothing is recorded and the lease is not given back.
 */
export class LeaseLost extends Error {
  constructor() {
    super('the refresh lease lapsed and another replica took it');
    this.name = 'LeaseLost';
  }
}
