import { Navigate, type RouteObject } from 'react-router-dom';
import { RequireAdmin } from '../auth/require-admin.js';
import { CONSOLE_HOME, SignInPage } from '../auth/sign-in-page.js';
import { AdminDashboard } from '../dashboard/admin-dashboard.js';
import { SessionRoot } from '../shell/session-root.js';

/**
 * Spec §2: the admin dashboard is one page whose sidebar scrolls to its sections; /login is
 * the only public screen. Anything else leads to the dashboard (and from there to /login).
 */
export const routes: RouteObject[] = [
  {
    element: <SessionRoot />,
    children: [
      { path: '/login', element: <SignInPage /> },
      { element: <RequireAdmin />, children: [{ path: CONSOLE_HOME, element: <AdminDashboard /> }] },
      { path: '*', element: <Navigate to={CONSOLE_HOME} replace /> },
    ],
  },
];
