import { toast, Spinner, Button, isApiError } from '@vigil/ui';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../app/hooks.js';
import { ACCESS_RETRY_LIMIT, checkSubscription, retryDelayMs } from './subscription.js';
import { useAuth } from '@vigil/ui/session';

export type AccessLevel = 'signed-in' | 'subscribed' | 'admin';

type Check =
  | { state: 'checking'; attempt: number }
  | { state: 'allowed' }
  | { state: 'redirect'; to: string }
  | { state: 'failed' };

/**
 * The route guard (spec §2, §4). Public pages need none; `signed-in` pages need a
 * session; `subscribed` pages also need an active subscription; `admin` needs the
 * admin role. The browser only decides where to send people: every call behind
 * these pages is checked again by the gateway.
 */
export function RequireAccess({ level, children }: { level: AccessLevel; children?: ReactNode }) {
  const { status, isAdmin, user } = useAuth();
  const location = useLocation();

  if (status === 'loading') return <CheckingAccess />;
  if (status === 'anonymous') {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (level === 'admin') return isAdmin ? <>{children ?? <Outlet />}</> : <Navigate to="/dashboard" replace />;
  if (level === 'signed-in') return <>{children ?? <Outlet />}</>;
  // Admins hold no subscription of their own; their home is the admin dashboard (spec: /upgrade sends admins there).
  if (isAdmin) return <Navigate to="/dashboard/admin" replace />;
  return <SubscriptionGate key={user?.id}>{children ?? <Outlet />}</SubscriptionGate>;
}

function CheckingAccess({ label = 'Checking access...' }: { label?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-6 pt-28">
      <Spinner label={label} />
    </div>
  );
}

function SubscriptionGate({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const [check, setCheck] = useState<Check>({ state: 'checking', attempt: 0 });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let cancelled = false;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    void (async () => {
      for (let attempt = 0; attempt <= ACCESS_RETRY_LIMIT; attempt++) {
        if (attempt > 0) {
          setCheck({ state: 'checking', attempt });
          await sleep(retryDelayMs(attempt));
          if (cancelled) return;
        }
        try {
          const result = await checkSubscription(dispatch);
          if (cancelled) return;
          setCheck(result.hasSubscription ? { state: 'allowed' } : { state: 'redirect', to: '/onboarding' });
          return;
        } catch (error) {
          if (cancelled) return;
          if (!isApiError(error)) {
            setCheck({ state: 'failed' });
            return;
          }
          if (error.status === 401) {
            setCheck({ state: 'redirect', to: '/login' });
            return;
          }
        }
      }
      toast({ title: 'Error', description: 'Unable to verify subscription status. Please try again.', variant: 'destructive' });
      setCheck({ state: 'redirect', to: '/onboarding' });
    })();
    return () => {
      cancelled = true;
    };
  }, [dispatch, round]);

  if (check.state === 'allowed') return <>{children}</>;
  if (check.state === 'redirect') return <Navigate to={check.to} replace />;
  if (check.state === 'failed') return <AccessVerificationFailed onRetry={() => setRound((n) => n + 1)} />;
  return (
    <CheckingAccess
      label={check.attempt === 0 ? 'Checking access...' : `Retrying access check (${check.attempt}/${ACCESS_RETRY_LIMIT})...`}
    />
  );
}

function AccessVerificationFailed({ onRetry }: { onRetry: () => void }) {
  const navigate = useNavigate();
  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-6 pt-40 pb-24 text-center" role="alert">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-destructive-soft text-destructive">
        <ShieldAlert className="size-7" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">Access Verification Failed</h1>
      <p className="mt-3 text-muted-foreground">Access verification failed. Please try again.</p>
      <div className="mt-8 flex gap-3">
        <Button onClick={onRetry}>Try Again</Button>
        <Button variant="outline" onClick={() => navigate('/dashboard')}>
          Go to Dashboard
        </Button>
      </div>
    </section>
  );
}
