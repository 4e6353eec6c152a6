// Each './boot/after-*' import ends a task of the entry's evaluation where it stands (src/boot/yieldToBrowser.ts).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './boot/after-react.js';
import { matchPath } from 'react-router';
import { authProvider, session } from '../providers/index.js';
import { writeSessionHint } from '../providers/session.js';
import './boot/after-providers.js';
import { App, signedInFrame } from './App.js';
import './boot/after-app.js';
import { loadAccountTexts, loadLanguage, preloadAccountTexts } from './i18n.js';
import './boot/after-i18n.js';
import { preloadPage } from './pages/index.js';
import { askFirstRecord } from './boot/firstRecord.js';
import { DEFAULT_LOCALE, readStoredLocale, splitLocale, type Locale } from './routing/locale.js';
import { takeSessionFromQuery } from './routing/guard.js';
import { ROUTES } from './routing/routes.js';

/**
 * Tokens handed over in the address (`access-token`, `offline-token`, spec section 2) become the session
 * before anything renders, and leave the address so they are not bookmarked or shared. They replace the
 * session the tab held, both tokens of it (the auth provider's adoptSession).
 */
function adoptSessionFromAddress(): void {
  const taken = takeSessionFromQuery(window.location.search);
  if (!taken.accessToken && !taken.offlineToken && !taken.viewToken) return;
  // Issue 47: a read-only view of a customer's account is this tab's alone; the browser's session stays.
  if (taken.viewToken) authProvider.adoptReadOnlyView(taken.viewToken);
  // Its local part is done when this returns; the server's end of a session replaced follows on its own.
  else void authProvider.adoptSession({ accessToken: taken.accessToken, offlineToken: taken.offlineToken });
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${taken.search}${window.location.hash}`);
}

/**
 * The first screen's code, asked for beside its texts and awaited before the first render, so React renders
 * the whole screen at once instead of a spinner, a paint, and the screen again once its chunk arrives. A
 * signed-in screen also needs the frame, its gate, the account texts, the current user and the access
 * control provider's answers (the route guard, the frame and its menu would each show a spinner or nothing
 * until theirs arrived), all asked for at once.
 */
function firstScreenReady(path: string, language: Locale, languageLoaded: Promise<void>): Promise<unknown> {
  const entry = ROUTES.find((route) => matchPath(`/${route.path}`, path));
  if (!entry) return Promise.resolve();
  if (entry.layout !== 'account') return preloadPage(entry.page);
  if (session.getToken() === null && session.getOfflineToken() === null) return Promise.resolve();
  // The account texts download now and join the language's own texts once those are in.
  preloadAccountTexts(language);
  // The screen's own record too, before Refine's chunk has run (src/boot/firstRecord.ts).
  const firstRecord = askFirstRecord(entry.page);
  return Promise.all([
    // The user is asked for at once, beside the code, not after Refine's chunk has run (primeFirstScreen
    // shares this request).
    authProvider.getIdentity(),
    signedInFrame.layout.preload(),
    signedInFrame.gate.preload(),
    preloadPage(entry.page),
    languageLoaded.then(() => loadAccountTexts(language)),
    import('./refine.js').then(({ primeFirstScreen }) => primeFirstScreen(firstRecord)),
  ]).catch(() => undefined);
}

adoptSessionFromAddress();
// The session-hint cookie follows the stored session (one kept from before the hint, or ended in another tab);
// a read-only view's tab holds a session of its own, which is not the browser's (issue 47).
if (!session.isReadOnlyView()) writeSessionHint(session.getToken() !== null || session.getOfflineToken() !== null);
const { locale, path } = splitLocale(window.location.pathname);
const language = locale ?? readStoredLocale(sessionStorage) ?? DEFAULT_LOCALE;
// The first screen's texts and code arrive before the first render, so nothing flashes in the wrong language
// and no spinner stands in for a screen whose code is a moment away.
// The wait for the screen is capped: past it (a slow API), the screen renders with its own loading states.
const languageLoaded = loadLanguage(language);
const screenWaitMs = 3000;
await Promise.all([
  languageLoaded,
  Promise.race([firstScreenReady(path, language, languageLoaded), new Promise((resolve) => setTimeout(resolve, screenWaitMs))]),
]);

// A transition: React renders the first screen in slices and lets the browser paint and answer input between them.
const root = createRoot(document.getElementById('root') as HTMLElement);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
