import type { RouteObject } from 'react-router-dom';
import { AccountPage } from '../account/account-page.js';
import { AuthCallbackPage } from '../auth/auth-callback-page.js';
import { ForgotPasswordPage } from '../auth/forgot-password-page.js';
import { LoginPage } from '../auth/login-page.js';
import { RequireAccess } from '../auth/require-access.js';
import { AdminHandoffPage } from '../dashboard/admin-handoff-page.js';
import { OnboardingPage } from '../billing/onboarding-page.js';
import { PaymentCancelPage, PaymentSuccessPage, SandboxCheckoutPage } from '../billing/payment-pages.js';
import { UpgradePage } from '../billing/upgrade-page.js';
import { DashboardPage } from '../dashboard/dashboard-page.js';
import { DocsPage } from '../docs/docs-page.js';
import { ErrorScreen } from '../errors/error-screen.js';
import { NotFoundPage } from '../errors/not-found-page.js';
import { HomePage } from '../home/home-page.js';
import { AboutPage } from '../public/about-page.js';
import { PrivacyPolicyPage, TermsOfServicePage } from '../public/legal-pages.js';
import { PricingPage } from '../public/pricing-page.js';
import { ServicesPage } from '../public/services-page.js';
import { WatchlistsPage } from '../public/watchlists-page.js';
import { PublicLayout } from '../shell/public-layout.js';

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
          // The screening dashboard itself is built with the second part of the client app.
          { path: 'dashboard/screening/*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
