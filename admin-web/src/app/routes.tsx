import { Navigate, type RouteObject } from 'react-router-dom';
import { SignInPage } from '../auth/sign-in-page.js';

/** The console has one public screen so far; every other path leads to it until the dashboard exists. */
export const routes: RouteObject[] = [
  { path: '/login', element: <SignInPage /> },
  { path: '*', element: <Navigate to="/login" replace /> },
];
