import { sessionStarted } from '@vigil/ui/session';
import { GATEWAY_BASE, refreshSession } from '../api/gateway-api.js';
import type { AppStore } from '../app/store.js';
import { filterParams, type LogFilters } from './log-filters.js';

/**
 * GET /api/client/admin/logs/export with the panel's filters, saved as the file the gateway
 * names. A file download is not an RTK Query cache entry, so the bearer token (refreshed once
 * on a 401, as every other call) is added here.
 */
export async function exportSecurityLogs(store: AppStore, filters: LogFilters): Promise<void> {
  const url = `${GATEWAY_BASE}/api/client/admin/logs/export?${new URLSearchParams(filterParams(filters))}`;
  const send = (token: string | undefined) =>
    fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  let response = await send(store.getState().auth.session?.access_token);
  if (response.status === 401) {
    const refreshed = await refreshSession();
    if (refreshed) {
      store.dispatch(sessionStarted(refreshed));
      response = await send(refreshed.session.access_token);
    }
  }
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `security-logs-${new Date().toISOString().slice(0, 10)}.csv`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the blob once the click has been handled; revoking at once can cut it short.
  setTimeout(() => URL.revokeObjectURL(link.href), 1_000);
}
