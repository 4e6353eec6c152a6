import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageName } from '../routing/routes.js';

/** Screens by name, each in its own chunk so a page downloads only what it shows. */
export const PAGES: Record<Exclude<PageName, 'planned'>, LazyExoticComponent<ComponentType>> = {
  login: lazy(() => import('./auth/Login.js')),
  adminLogin: lazy(() => import('./auth/AdminLogin.js')),
  notFound: lazy(() => import('./public/NotFound.js')),
};
