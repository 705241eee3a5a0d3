import type { RouteObject } from 'react-router-dom';
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

/** The route table (spec §2): every page shares the shell; guarded pages wrap themselves in RequireAccess. */
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
