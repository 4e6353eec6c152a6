import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router';
import { authProvider, session } from '../providers/index.js';
import { App } from './App.js';
import { loadLanguage, preloadAccountTexts } from './i18n.js';
import { preloadPage } from './pages/index.js';
import { DEFAULT_LOCALE, readStoredLocale, splitLocale, type Locale } from './routing/locale.js';
import { takeSessionFromQuery } from './routing/guard.js';
import { ROUTES } from './routing/routes.js';

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

/**
 * A signed-in screen needs the frame, its gate, its own code, the account texts and the current user. Each
 * would otherwise be asked for only when the one before it has rendered (five round trips one after the
 * other); they are all asked for now, beside the texts, and React finds them loaded.
 */
function preloadSignedInScreen(path: string, language: Locale): void {
  const entry = ROUTES.find((route) => matchPath(`/${route.path}`, path));
  if (entry?.layout !== 'account' || (session.getToken() === null && session.getOfflineToken() === null)) return;
  import('./components/layout/AccountLayout.js').catch(() => undefined);
  import('./routing/AccessGate.js').catch(() => undefined);
  preloadPage(entry.page);
  preloadAccountTexts(language);
  void authProvider.getIdentity();
}

adoptSessionFromAddress();
const { locale, path } = splitLocale(window.location.pathname);
const language = locale ?? readStoredLocale(sessionStorage) ?? DEFAULT_LOCALE;
preloadSignedInScreen(path, language);
// The first screen's texts arrive before the first render, so nothing flashes in the wrong language.
await loadLanguage(language);

// A transition: React renders the first screen in slices and lets the browser paint and answer input between them.
const root = createRoot(document.getElementById('root') as HTMLElement);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
