import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from '../providers/index.js';
import { App } from './App.js';
import { loadLanguage } from './i18n.js';
import { DEFAULT_LOCALE, readStoredLocale, splitLocale } from './routing/locale.js';
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
// The first screen's texts arrive before the first render, so nothing flashes in the wrong language.
await loadLanguage(splitLocale(window.location.pathname).locale ?? readStoredLocale(sessionStorage) ?? DEFAULT_LOCALE);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
