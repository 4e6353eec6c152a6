import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { cache } from '../../providers/index.js';
import { useLocale } from '../components/LocaleScope.js';
import { FullPageSpinner } from '../components/FullPageSpinner.js';
import { decideNavigation, PROFILE_FLAG_KEY } from './guard.js';
import { splitLocale } from './locale.js';
import type { RouteEntry } from './routes.js';
import { useSessionState } from './useSessionState.js';

/** The app path the user saw last, for "stay where they were" on anonymous-only pages; the session's own. */
let lastRenderedPath: string | null = null;
cache.add(() => {
  lastRenderedPath = null;
});

/** Applies the navigation rules of src/routing/guard.ts to one route on every navigation. */
export function RouteGuard({ entry, children }: { entry: RouteEntry; children: ReactNode }) {
  const location = useLocation();
  const { localize } = useLocale();
  const sessionState = useSessionState();
  const path = splitLocale(location.pathname).path;
  const decision =
    sessionState.status === 'pending'
      ? null
      : decideNavigation({
          path,
          returnTo: `${path}${location.search}`,
          access: entry.access,
          allowAll: entry.allowAll ?? false,
          authenticated: sessionState.authenticated,
          enrolmentRequired: sessionState.enrolmentRequired,
          profileFlag: sessionStorage.getItem(PROFILE_FLAG_KEY) !== null,
          previousPath: lastRenderedPath,
          requestedReturn: new URLSearchParams(location.search).get('to'),
        });

  useEffect(() => {
    if (decision?.type === 'render') lastRenderedPath = `${path}${location.search}`;
    if (decision?.type === 'redirect' && decision.clearProfileFlag) sessionStorage.removeItem(PROFILE_FLAG_KEY);
  });

  if (decision === null) return <FullPageSpinner />;
  if (decision.type === 'redirect') return <Navigate to={localize(decision.to)} replace />;
  return <>{children}</>;
}
