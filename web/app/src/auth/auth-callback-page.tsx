import { Button, Spinner } from '@vigil/ui';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../api/api-error.js';
import { usePageTitle } from '../shell/page-title.js';
import { AuthCard } from './auth-card.js';
import { useCompleteOidcMutation } from './auth.api.js';
import { useBackGoesToDashboard } from './back-to-dashboard.js';
import { useRouteAfterSignIn } from './post-sign-in.js';
import { useStartSession } from './use-auth.js';

/** Where Google sends the browser back: trade the code for a session, then route as the spec says. */
export function AuthCallbackPage() {
  usePageTitle('Completing sign in');
  useBackGoesToDashboard();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [complete] = useCompleteOidcMutation();
  const startSession = useStartSession();
  const routeAfterSignIn = useRouteAfterSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
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
        startSession(session, false);
        return routeAfterSignIn(session, {
          adminTarget: '/dashboard',
          delayMs: 0,
          welcome: { title: 'Welcome Back!', description: 'You already have an active subscription. Redirecting to dashboard...' },
        });
      })
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [params, complete, startSession, routeAfterSignIn, navigate]);

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
