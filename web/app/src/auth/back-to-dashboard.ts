import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Spec §4 browser back: on /auth/callback and the payment pages, Back leads to
 * /dashboard instead of into a spent OAuth code or a finished checkout. A guard
 * entry is pushed so the first Back stays in the app and can be redirected.
 */
export function useBackGoesToDashboard() {
  const navigate = useNavigate();
  useEffect(() => {
    window.history.pushState(window.history.state, '', window.location.href);
    const onPopState = () => navigate('/dashboard', { replace: true });
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [navigate]);
}
