import { lazy } from 'react';

/**
 * The security page's forms that open on a click (a dialog, the app's setup): each its own chunk, loaded
 * then, with react-hook-form, zod and MUI's text field, so the page's first load carries none of them
 * (scripts/bundle-weights.ts, ON_DEMAND_MODULES).
 */
export const ReauthDialog = lazy(() => import('./ReauthDialog.js').then((module) => ({ default: module.ReauthDialog })));
export const PasskeyNameDialog = lazy(() => import('./PasskeyNameDialog.js').then((module) => ({ default: module.PasskeyNameDialog })));
export const TotpSetup = lazy(() => import('./TotpSetup.js').then((module) => ({ default: module.TotpSetup })));
