import { Button, Card, Spinner, VigilLogo } from '@vigil/ui';
import { LogOut, ShieldX } from 'lucide-react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Session } from '@vigil/proto';
import { useAuth, useStartSession } from '@vigil/ui/session';
import { AdminSecondFactor } from './admin-second-factor.js';
import { needsSecondStep } from './admin-assurance.js';
import { useSignOut } from './use-sign-out.js';

/** Spec §2: the words a signed-in account without the admin role reads, word for word. */
export const ACCESS_DENIED_TEXT = 'Admin dashboard access is restricted to Vigil team members only.';

/**
 * The console's guard: anonymous visitors go to /login, non-admins see Access Denied. This only
 * decides what the browser shows; every admin route at the gateway checks the role again (403).
 */
export function RequireAdmin() {
  const { status, isAdmin, user, session } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner label="Checking access..." />
      </div>
    );
  }
  if (status === 'anonymous' || user === null) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  }
  if (!isAdmin) return <AccessDenied email={user.email} />;
  // A session kept from before admin routes needed aal2: it completes the code step here.
  if (session && needsSecondStep(session)) return <SecondStep session={session} />;
  return <Outlet />;
}

function SecondStep({ session }: { session: Session }) {
  const startSession = useStartSession();
  const { remember } = useAuth();
  const signOut = useSignOut();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 bg-background px-6 py-12">
      <VigilLogo suffix="Admin" />
      <AdminSecondFactor
        session={session}
        onVerified={(raised) => startSession(raised, remember)}
        onCancel={() => void signOut()}
      />
    </main>
  );
}

function AccessDenied({ email }: { email: string }) {
  const signOut = useSignOut();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 bg-background px-6 py-12">
      <VigilLogo suffix="Admin" />
      <Card className="w-full max-w-md p-8 text-center" role="alert">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-destructive-soft text-destructive">
          <ShieldX className="size-7" aria-hidden />
        </span>
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">Access Denied</h1>
        <p className="mt-3 text-muted-foreground">{ACCESS_DENIED_TEXT}</p>
        <p className="mt-4 text-sm">
          Signed in as{' '}
          <span className="font-medium" data-testid="denied-email">
            {email}
          </span>
        </p>
        <Button variant="outline" className="mt-8" onClick={() => void signOut()}>
          <LogOut aria-hidden /> Sign Out
        </Button>
      </Card>
    </main>
  );
}
