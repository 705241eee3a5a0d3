import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { AuthCallbackPage } from '../auth/auth-callback-page.js';
import { RequireAccess } from '../auth/require-access.js';
import { ErrorScreen } from '../errors/error-screen.js';
import { NotFoundPage } from '../errors/not-found-page.js';
import { HomePage } from '../home/home-page.js';
import { lazyRoute } from '../shell/lazy-route.js';
import { PublicLayout } from '../shell/public-layout.js';
import { SessionRoot } from '../shell/session-root.js';

// Every page but Home, the 404 page and the Google callback is its own chunk, fetched on first
// visit: a visitor to the public site does not download the dashboard, account and upgrade code.
// Home and 404 are where most visits start or end up; the callback must not add a round trip to a sign-in.
const AboutPage = lazyRoute(() => import('../public/about-page.js').then((m) => m.AboutPage));
const ServicesPage = lazyRoute(() => import('../public/services-page.js').then((m) => m.ServicesPage));
const PricingPage = lazyRoute(() => import('../public/pricing-page.js').then((m) => m.PricingPage));
const DocsPage = lazyRoute(() => import('../docs/docs-page.js').then((m) => m.DocsPage));
const WatchlistsPage = lazyRoute(() => import('../public/watchlists-page.js').then((m) => m.WatchlistsPage));
const PrivacyPolicyPage = lazyRoute(() => import('../public/legal-pages.js').then((m) => m.PrivacyPolicyPage));
const TermsOfServicePage = lazyRoute(() => import('../public/legal-pages.js').then((m) => m.TermsOfServicePage));
const LoginPage = lazyRoute(() => import('../auth/login-page.js').then((m) => m.LoginPage));
const ForgotPasswordPage = lazyRoute(() => import('../auth/forgot-password-page.js').then((m) => m.ForgotPasswordPage));
const DashboardPage = lazyRoute(() => import('../dashboard/dashboard-page.js').then((m) => m.DashboardPage));
const AdminHandoffPage = lazyRoute(() => import('../dashboard/admin-handoff-page.js').then((m) => m.AdminHandoffPage));
const OnboardingPage = lazyRoute(() => import('../billing/onboarding-page.js').then((m) => m.OnboardingPage));
const SandboxCheckoutPage = lazyRoute(() => import('../billing/payment-pages.js').then((m) => m.SandboxCheckoutPage));
const PaymentSuccessPage = lazyRoute(() => import('../billing/payment-pages.js').then((m) => m.PaymentSuccessPage));
const PaymentCancelPage = lazyRoute(() => import('../billing/payment-pages.js').then((m) => m.PaymentCancelPage));
const InvitationPage = lazyRoute(() => import('../team/invitation-page.js').then((m) => m.InvitationPage));
const AccountPage = lazyRoute(() => import('../account/account-page.js').then((m) => m.AccountPage));
const UpgradePage = lazyRoute(() => import('../billing/upgrade-page.js').then((m) => m.UpgradePage));
// The screening dashboard: its own shell (sidebar and top bar), one chunk per page.
const DashboardShell = lazyRoute(() => import('../screening/dashboard-shell.js').then((m) => m.DashboardShell));
const SCREENING_PAGES: readonly [string, ComponentType][] = [
  ['api-screen', lazyRoute(() => import('../screening/entity-screening-page.js').then((m) => m.EntityScreeningPage))],
  ['bulk-search', lazyRoute(() => import('../screening/bulk-search-page.js').then((m) => m.BulkSearchPage))],
  ['status', lazyRoute(() => import('../screening/status-page.js').then((m) => m.StatusPage))],
  ['review-queue', lazyRoute(() => import('../screening/review-queue-page.js').then((m) => m.ReviewQueuePage))],
  ['alerts', lazyRoute(() => import('../screening/alerts-page.js').then((m) => m.AlertsPage))],
  ['logs', lazyRoute(() => import('../screening/logs-page.js').then((m) => m.LogsPage))],
  ['lists', lazyRoute(() => import('../screening/lists-pages.js').then((m) => m.ListsPage))],
  ['client-lists', lazyRoute(() => import('../screening/client-lists-page.js').then((m) => m.ClientListsPage))],
  [
    'ongoing-monitoring',
    lazyRoute(() => import('../screening/monitoring-page.js').then((m) => m.OngoingMonitoringPage)),
  ],
  ['datasets', lazyRoute(() => import('../screening/lists-pages.js').then((m) => m.DatasetsPage))],
  ['downloads', lazyRoute(() => import('../screening/downloads-page.js').then((m) => m.DownloadsPage))],
  ['webhooks', lazyRoute(() => import('../webhooks/webhooks-page.js').then((m) => m.WebhooksPage))],
  ['settings', lazyRoute(() => import('../screening/settings-page.js').then((m) => m.SettingsPage))],
];

/** The route table (spec §2): every page shares the shell; guarded groups sit under RequireAccess. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    errorElement: <ErrorScreen />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'about-us', element: <AboutPage /> },
      { path: 'services', element: <ServicesPage /> },
      { path: 'pricing', element: <PricingPage /> },
      { path: 'docs', element: <DocsPage /> },
      { path: 'watchlists', element: <WatchlistsPage /> },
      { path: 'privacy-policy', element: <PrivacyPolicyPage /> },
      { path: 'terms-of-service', element: <TermsOfServicePage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'auth/callback', element: <AuthCallbackPage /> },
      { path: 'invitation', element: <InvitationPage /> },
      {
        element: <RequireAccess level="signed-in" />,
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'onboarding', element: <OnboardingPage /> },
          { path: 'payment/checkout', element: <SandboxCheckoutPage /> },
          { path: 'payment/success', element: <PaymentSuccessPage /> },
          { path: 'payment/cancel', element: <PaymentCancelPage /> },
        ],
      },
      {
        element: <RequireAccess level="admin" />,
        children: [{ path: 'dashboard/admin', element: <AdminHandoffPage /> }],
      },
      {
        element: <RequireAccess level="subscribed" />,
        children: [
          { path: 'account', element: <AccountPage /> },
          { path: 'upgrade', element: <UpgradePage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Spec §2: the screening area, under its own shell; the bare path goes to Entity Screening.
    path: 'dashboard/screening',
    errorElement: <ErrorScreen />,
    element: <SessionRoot />,
    children: [
      {
        element: <RequireAccess level="subscribed" />,
        children: [
          {
            element: <DashboardShell />,
            children: [
              { index: true, element: <Navigate to="api-screen" replace /> },
              ...SCREENING_PAGES.map(([path, Page]) => ({ path, element: <Page /> })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
