import { Activity, FileBarChart, Gauge, LayoutDashboard, ShieldAlert, Users } from 'lucide-react';
import type { ComponentType } from 'react';

type Entry = { label: string; anchor: string; icon: ComponentType<{ 'aria-hidden'?: boolean }> };

/** Spec §2 admin sidebar: six entries that scroll to the dashboard's sections, in this order. */
export const ADMIN_SIDEBAR: readonly Entry[] = [
  { label: 'Overview', anchor: 'overview', icon: LayoutDashboard },
  { label: 'Clients', anchor: 'clients', icon: Users },
  { label: 'Quota Monitoring', anchor: 'quota-monitoring', icon: Gauge },
  { label: 'Security Logs', anchor: 'security-logs', icon: ShieldAlert },
  { label: 'System Reports', anchor: 'system-reports', icon: FileBarChart },
  { label: 'System Health', anchor: 'system-health', icon: Activity },
];

/** Spec §7: the dashboard refreshes every 30 seconds. */
export const DASHBOARD_REFRESH_MS = 30_000;
