import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from '../providers/index.js';
import { App } from './App.js';
import { takeSessionFromQuery } from './routing/guard.js';

/**
 * Tokens handed over in the address (`access-token`, `offline-token`, spec section 2) become the session
 * before anything renders, and leave the address so they are not bookmarked or shared.
 */
function adoptSessionFromAddress(): void {
  const taken = takeSessionFromQuery(window.location.search);
  if (!taken.accessToken && !taken.offlineToken) return;
  if (taken.accessToken) session.setToken(taken.accessToken);
  if (taken.offlineToken) session.setOfflineToken(taken.offlineToken);
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${taken.search}${window.location.hash}`);
}

adoptSessionFromAddress();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
