import type { RouteObject } from 'react-router-dom';
import { ErrorScreen } from '../errors/error-screen.js';
import { NotFoundPage } from '../errors/not-found-page.js';
import { HomePage } from '../home/home-page.js';
import { PublicLayout } from '../shell/public-layout.js';

/**
 * The route table. Public pages go under the layout (header and footer);
 * a signed-in area will get its own layout route beside it.
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    errorElement: <ErrorScreen />,
    children: [
      { index: true, element: <HomePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
