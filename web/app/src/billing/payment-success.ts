/** Spec §4/§9: the success page waits 1.5 s for the payment to be recorded, then looks every 3 s. */
export const FIRST_LOOKUP_DELAY_MS = 1500;
export const LOOKUP_RETRY_MS = 3000;

export type ProcessingStep = { label: string; done: boolean };

/** The checklist shown while the account is being set up. */
export function processingChecklist(phase: 'waiting' | 'looking' | 'ready'): ProcessingStep[] {
  return [
    { label: 'Payment confirmed', done: phase !== 'waiting' },
    { label: 'Creating your account', done: phase === 'ready' },
    { label: 'Issuing your API key', done: phase === 'ready' },
  ];
}

export function usagePercent(usage: number, quota: number): number {
  return quota > 0 ? Math.round((usage / quota) * 100) : 0;
}
