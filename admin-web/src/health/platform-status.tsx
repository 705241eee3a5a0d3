import { describeHealthError, StatusWidget } from '@vigil/ui';
import { useGetHealthQuery } from './health.api.js';

const POLL_EVERY_MS = 10_000;

/** The gateway's health, kept fresh while the widget is on screen. */
export function PlatformStatus({ className }: { className?: string }) {
  const { data, error, isLoading, isFetching, fulfilledTimeStamp, refetch } = useGetHealthQuery(undefined, {
    pollingInterval: POLL_EVERY_MS,
    skipPollingIfUnfocused: true,
  });
  return (
    <StatusWidget
      className={className}
      health={data}
      isLoading={isLoading}
      isRefreshing={isFetching && !isLoading}
      error={describeHealthError(error)}
      checkedAt={fulfilledTimeStamp}
      onRefresh={() => void refetch()}
    />
  );
}
