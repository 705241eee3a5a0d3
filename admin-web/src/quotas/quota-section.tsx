import type { QuotaMonitoringResponse } from '@vigil/proto';
import { Badge, Button, Tabs, TabsContent, TabsList, TabsTrigger, LoadError } from '@vigil/ui';
import { BellRing, CreditCard } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { SubscriptionBadge, TierBadge } from '../clients/client-badges.js';
import { notifyFailure, notifySuccess } from '../shell/notify.js';
import { EmptyState, formatCount, formatDateTime, Panel, Section } from '../shell/parts.js';
import { Spinner } from '@vigil/ui';
import {
  useCheckPaymentFailuresMutation,
  useCheckQuotaWarningsMutation,
  useGetQuotaMonitoringQuery,
} from './quotas.api.js';

type Row = QuotaMonitoringResponse['quotaWarnings'][number];

/** Spec §2 quota monitoring: four tabs and the two manual checks (§7), with §8's toasts. */
export function QuotaSection() {
  const quota = useGetQuotaMonitoringQuery();
  const [checkWarnings, warnings] = useCheckQuotaWarningsMutation();
  const [checkPayments, payments] = useCheckPaymentFailuresMutation();

  useEffect(() => {
    if (quota.isError) notifyFailure('Failed to load quota monitoring data', quota.error);
  }, [quota.isError, quota.error]);

  async function runWarnings() {
    try {
      await checkWarnings().unwrap();
      notifySuccess('Quota warnings check completed');
    } catch (error) {
      notifyFailure('Failed to trigger quota warnings check', error);
    }
  }
  async function runPayments() {
    try {
      await checkPayments().unwrap();
      notifySuccess('Payment failures check completed');
    } catch (error) {
      notifyFailure('Failed to trigger payment failures check', error);
    }
  }

  return (
    <Section
      id="quota-monitoring"
      title="Quota Monitoring"
      description="Clients near or over their monthly quota, failed payments and the latest billing events."
      actions={
        <>
          <Button size="sm" variant="outline" disabled={warnings.isLoading} onClick={() => void runWarnings()}>
            <BellRing aria-hidden /> Check Quota Warnings
          </Button>
          <Button size="sm" variant="outline" disabled={payments.isLoading} onClick={() => void runPayments()}>
            <CreditCard aria-hidden /> Check Payment Failures
          </Button>
        </>
      }
    >
      <Panel className="p-4">
        {quota.isLoading ? (
          <Spinner label="Loading quota monitoring..." className="py-10" />
        ) : quota.data === undefined ? (
          <LoadError
            title="Failed to load quota monitoring data. Please try again."
            error={quota.error}
            onRetry={() => void quota.refetch()}
          />
        ) : (
          <QuotaTabs data={quota.data} />
        )}
      </Panel>
    </Section>
  );
}

function QuotaTabs({ data }: { data: QuotaMonitoringResponse }) {
  return (
    <Tabs defaultValue="warnings">
      <TabsList aria-label="Quota monitoring">
        <TabsTrigger value="warnings">Quota Warnings ({data.quotaWarnings.length})</TabsTrigger>
        <TabsTrigger value="payments">Payment Failures ({data.paymentFailures.length})</TabsTrigger>
        <TabsTrigger value="exceeded">Quota Exceeded ({data.quotaExceeded.length})</TabsTrigger>
        <TabsTrigger value="events">Recent Events ({data.recentEvents.length})</TabsTrigger>
      </TabsList>
      <TabsContent value="warnings" className="mt-4">
        <UsageTable rows={data.quotaWarnings} empty="No clients are near their quota." />
      </TabsContent>
      <TabsContent value="payments" className="mt-4">
        <Table
          head={['Client', 'Tier', 'Subscription', 'Updated']}
          empty="No payment failures."
          rows={data.paymentFailures.map((row) => ({
            key: row.client_id,
            cells: [
              row.client_name,
              <TierBadge key="t" tier={row.tier} />,
              <SubscriptionBadge key="s" status={row.subscription_status} />,
              formatDateTime(row.updated_at),
            ],
          }))}
        />
      </TabsContent>
      <TabsContent value="exceeded" className="mt-4">
        <UsageTable rows={data.quotaExceeded} empty="No client is over its quota." />
      </TabsContent>
      <TabsContent value="events" className="mt-4">
        <Table
          head={['Event', 'Client', 'Usage', 'Quota', '%', 'When']}
          empty="No quota or payment events yet."
          rows={data.recentEvents.map((row) => ({
            key: row.id,
            cells: [
              <Badge key="e" tone={row.event_type === 'quota_warning' ? 'warning' : 'destructive'}>
                {row.event_type}
              </Badge>,
              row.client_name,
              row.usage === null ? '—' : formatCount(row.usage),
              row.quota === null ? '—' : formatCount(row.quota),
              row.percentage === null ? '—' : `${Math.round(row.percentage)}%`,
              formatDateTime(row.created_at),
            ],
          }))}
        />
      </TabsContent>
    </Tabs>
  );
}

function UsageTable({ rows, empty }: { rows: Row[]; empty: string }) {
  return (
    <Table
      head={['Client', 'Tier', 'Usage', 'Quota', 'Used']}
      empty={empty}
      rows={rows.map((row) => ({
        key: row.client_id,
        cells: [
          row.client_name,
          <TierBadge key="t" tier={row.tier} />,
          formatCount(row.usage_month),
          formatCount(row.quota_month),
          `${Math.round(row.usage_percent)}%`,
        ],
      }))}
    />
  );
}

/** A plain table that scrolls sideways on a phone instead of squeezing its columns. */
export function Table({
  head,
  rows,
  empty,
}: {
  head: string[];
  rows: { key: string; cells: ReactNode[]; onClick?: () => void }[];
  empty: string;
}) {
  if (rows.length === 0) return <EmptyState title={empty} />;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <thead className="text-xs text-muted-foreground">
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className="border-b border-border px-3 py-2 font-medium">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b border-border last:border-0">
              {row.cells.map((cell, index) => (
                <td key={index} className="px-3 py-2 align-middle">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
