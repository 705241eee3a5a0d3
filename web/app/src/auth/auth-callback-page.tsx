import { Button, Spinner, errorMessage } from '@vigil/ui';
import type { Factor, Session } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../shell/page-title.js';
import { AuthCard } from './auth-card.js';
import { useCompleteOidcMutation } from './auth.api.js';
import { useBackGoesToDashboard } from './back-to-dashboard.js';
import { useRouteAfterSignIn } from './post-sign-in.js';
import { secondFactorDue } from '@vigil/ui/session';
import { SecondFactorStep } from './second-factor-step.js';
import { useAuth, useStartSession } from '@vigil/ui/session';

/** Where Google sends the browser back: trade the code for a session, then route as the spec says. */
export function AuthCallbackPage() {
  usePageTitle('Completing sign in');
  useBackGoesToDashboard();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [complete] = useCompleteOidcMutation();
  const startSession = useStartSession();
  const { status } = useAuth();
  const routeAfterSignIn = useRouteAfterSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  const [secondFactor, setSecondFactor] = useState<{ session: Session; factor: Factor } | null>(null);

  const finish = useCallback(
    (session: Session) => {
      startSession(session, false);
      return routeAfterSignIn(session, {
        adminTarget: '/dashboard',
        delayMs: 0,
        welcome: {
          title: 'Welcome Back!',
          description: 'You already have an active subscription. Redirecting to dashboard...',
        },
      });
    },
    [startSession, routeAfterSignIn],
  );

  useEffect(() => {
    // Wait for a stored session to be restored: a Back into the provider can land here again
    // with a code for a state already spent, and someone signed in is sent on (spec §4) instead.
    if (started.current || status === 'loading') return;
    started.current = true;
    if (status === 'authenticated') {
      navigate('/dashboard', { replace: true });
      return;
    }
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) {
      navigate('/login', { replace: true });
      return;
    }
    const iss = params.get('iss') ?? undefined;
    const scope = params.get('scope') ?? undefined;
    complete({ code, state, ...(iss ? { iss } : {}), ...(scope ? { scope } : {}) })
      .unwrap()
      .then((session) => {
        // Google proves the password step only: an authenticator app is still asked for.
        const factor = secondFactorDue(session);
        if (factor) {
          setSecondFactor({ session, factor });
          return;
        }
        return finish(session);
      })
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [status, params, complete, finish, navigate]);

  if (secondFactor) {
    return (
      <AuthCard title="Two-step verification" lead="Your account is protected with an authenticator app.">
        <SecondFactorStep
          session={secondFactor.session}
          factor={secondFactor.factor}
          onCancel={() => navigate('/login', { replace: true })}
          onVerified={finish}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Completing sign in...">
      {failure ? (
        <div role="alert" className="flex flex-col gap-4 text-sm">
          <p className="text-destructive-foreground">{failure}</p>
          <Button onClick={() => navigate('/login', { replace: true })}>Back to Sign In</Button>
        </div>
      ) : (
        <Spinner label="Completing sign in..." />
      )}
    </AuthCard>
  );
}
