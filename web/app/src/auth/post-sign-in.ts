import type { Session } from '@vigil/proto';
import { toast } from '@vigil/ui';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../app/hooks.js';
import { checkSubscription } from './subscription.js';

/** Spec: after sign-in the redirect waits 500 ms, so the confirmation is seen. */
export const LOGIN_REDIRECT_DELAY_MS = 500;
export const SCREENING_HOME = '/dashboard/screening/api-screen';

/**
 * Where a fresh session goes (spec §2): admins to the admin dashboard, customers
 * with an active subscription to screening (with a welcome toast), everyone
 * else to onboarding. A failed subscription check also means onboarding.
 */
export function useRouteAfterSignIn() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async (session: Session, options: { adminTarget?: string; delayMs?: number; welcome?: { title: string; description: string } } = {}) => {
      const { adminTarget = '/dashboard/admin', delayMs = LOGIN_REDIRECT_DELAY_MS } = options;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (session.user.role === 'admin') {
        navigate(adminTarget, { replace: true });
        return;
      }
      const subscribed = await checkSubscription(dispatch)
        .then((result) => result.hasSubscription)
        .catch(() => false);
      if (subscribed) {
        toast(options.welcome ?? { title: 'Welcome back!', description: 'Taking you to your screening dashboard.' });
        navigate(SCREENING_HOME, { replace: true });
      } else {
        navigate('/onboarding', { replace: true });
      }
    },
    [dispatch, navigate],
  );
}
