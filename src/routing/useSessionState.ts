import { startTransition, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { authProvider, session } from '../../providers/index.js';
import { isTokenFresh } from '../../providers/authProvider.js';

export type SessionState =
  | { status: 'pending' }
  | { status: 'ready'; authenticated: boolean; enrolmentRequired: boolean };

/**
 * What is known without waiting: a fresh token and the cached user of its session (with whether it must set
 * up a second factor first, issue 44), or clearly no session.
 */
function snapshot(): SessionState {
  const token = session.getToken();
  if (token !== null && isTokenFresh(token, Date.now())) {
    const user = authProvider.knownUser();
    return user ? { status: 'ready', authenticated: true, enrolmentRequired: user.twoFactorEnrolmentRequired } : { status: 'pending' };
  }
  if (session.getOfflineToken() !== null) return { status: 'pending' };
  return { status: 'ready', authenticated: false, enrolmentRequired: false };
}

/**
 * The session as the route guard sees it. On every navigation the session is validated (spec section 2);
 * renewal and the current user's fetch happen here, and the guard re-renders when they finish.
 */
export function useSessionState(): SessionState {
  const location = useLocation();
  const [, setVersion] = useState(0);
  const state = snapshot();

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await authProvider.check();
      await authProvider.getIdentity();
      // A transition: the screen the answer lets through renders in slices, between which the browser paints.
      if (!cancelled) startTransition(() => setVersion((v) => v + 1));
    })();
    return () => {
      cancelled = true;
    };
  }, [location.key, state.status]);

  return state;
}
