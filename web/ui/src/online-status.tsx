import { Badge } from './badge.js';
import { Wifi, WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine);
}

/** Spec: shown after an offline event, cleared when the browser is back online. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-0 bottom-0 z-[60] flex items-center justify-center gap-2 bg-warning-soft px-4 py-3 text-sm text-warning-foreground shadow-float"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden />
      <p>
        <strong>No Internet Connection</strong> - You're currently offline. Some features may not work properly.
      </p>
    </div>
  );
}

/** Words and an icon as well as colour, so the state does not rely on colour alone. */
export function OnlineBadge() {
  const online = useOnline();
  return (
    <Badge tone={online ? 'success' : 'warning'} data-testid="online-badge">
      {online ? <Wifi aria-hidden /> : <WifiOff aria-hidden />}
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}
