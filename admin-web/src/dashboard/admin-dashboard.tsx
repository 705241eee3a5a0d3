import { useState } from 'react';
import { ClientsSection } from '../clients/clients-section.js';
import { ListsSection } from '../lists/lists-section.js';
import { OverviewSection, SystemHealthSection, SystemReportsSection } from '../overview/overview-sections.js';
import { QuotaSection } from '../quotas/quota-section.js';
import { SecurityLogsSection } from '../security-logs/security-logs-section.js';
import { ThresholdSection } from '../thresholds/threshold-section.js';
import { AccountActions } from './account-actions.js';
import { AdminShell } from './admin-shell.js';

/** Spec §2 "Admin dashboard": one page of sections the sidebar scrolls between. */
export function AdminDashboard() {
  const [thresholdClient, setThresholdClient] = useState<string | null>(null);
  return (
    <AdminShell>
      <div className="mx-auto flex max-w-7xl flex-col gap-10">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Clients, security events, quotas, lists, system health and matching thresholds.
          </p>
        </div>
        <OverviewSection />
        <ClientsSection
          onEditThresholds={(id) => {
            setThresholdClient(id);
            document.getElementById('thresholds')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
          }}
        />
        <QuotaSection />
        <SecurityLogsSection />
        <SystemReportsSection />
        <SystemHealthSection />
        <ListsSection />
        <ThresholdSection clientId={thresholdClient} onClientChange={setThresholdClient} />
        <AccountActions />
      </div>
    </AdminShell>
  );
}
