// Each './boot/after-*' import ends a task of the entry's evaluation where it stands (src/boot/yieldToBrowser.ts).
import { ThemeProvider } from '@mui/material/styles';
import './boot/after-mui-styles.js';
import CssBaseline from '@mui/material/CssBaseline';
import './boot/after-mui-baseline.js';
import { Suspense, useEffect } from 'react';
import { BrowserRouter, createRoutesFromElements, Outlet, Route, useLocation, useRoutes } from 'react-router';
import { listenToOtherTabs } from '../providers/authProvider.js';
import { authChannel, authProvider, cache, session } from '../providers/index.js';
import { sessionIdOf } from '../providers/session.js';
import { FullPageSpinner } from './components/FullPageSpinner.js';
import { LocaleScope } from './components/LocaleScope.js';
import { PublicLayout } from './components/layout/PublicLayout.js';
import { pageOf } from './pages/index.js';
import { isAdminPath, LOGIN_PATH, ADMIN_LOGIN_PATH, takeSessionFromQuery } from './routing/guard.js';
import { isLocale, readStoredLocale, splitLocale, withLocale, type Locale } from './routing/locale.js';
import { preloadable } from './routing/preloadable.js';
import { RouteGuard } from './routing/RouteGuard.js';
import { ROUTES, type RouteEntry } from './routing/routes.js';
import { theme } from './theme.js';
import './boot/after-theme.js';

/**
 * The signed-in frame: its layout mounts <Refine> (src/refine.ts) and the MUI layout, and its gate asks
 * Refine's access control provider whether the user may see a screen (src/routing/AccessGate.tsx). Public
 * pages never load either; src/main.tsx preloads both when the first screen is a signed-in one.
 */
export const signedInFrame = {
  layout: preloadable(() => import('./components/layout/AccountLayout.js')),
  gate: preloadable(() => import('./routing/AccessGate.js')),
};
const AccountLayout = signedInFrame.layout.Component;
const AccessGate = signedInFrame.gate.Component;

/**
 * The signed-in frame around a signed-in screen. A visitor without a stored session never loads it: the
 * screen's route guard sends them to sign-in (spec section 2) without the frame's code on the way.
 *
 * One frame serves one server session (issue 44 item 8). Read on every navigation, the stored token names
 * the session; when it is another one than the memory holds (tokens replaced in another tab or by hand), the
 * memory is emptied and a new frame, with a query client of its own, mounts in place of the last one before
 * anything of it renders: nothing the last session read, and no query that held it, shows in the next.
 */
function SignedInFrame() {
  useLocation();
  const token = session.getToken();
  if (token === null && session.getOfflineToken() === null) return <Outlet />;
  const sessionId = sessionIdOf(token);
  cache.claim(sessionId);
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <AccountLayout key={sessionId ?? ''} session={sessionId} />
    </Suspense>
  );
}

function screen(entry: RouteEntry) {
  const Page = pageOf(entry.page);
  const page = (
    <Suspense fallback={<FullPageSpinner />}>
      <Page titleKey={entry.titleKey} />
    </Suspense>
  );
  return (
    <RouteGuard entry={entry}>{entry.layout === 'account' ? <AccessGate resource={entry.resource}>{page}</AccessGate> : page}</RouteGuard>
  );
}

function routeElement(entry: RouteEntry) {
  return entry.path === '' ? (
    <Route key="index" index element={screen(entry)} />
  ) : (
    <Route key={entry.path} path={entry.path} element={screen(entry)} />
  );
}

/** One branch per locale prefix (none, /en, /de), all from the one route table. */
function localeBranch(prefix: Locale | null) {
  return (
    <Route key={prefix ?? 'none'} path={prefix ? `/${prefix}` : '/'} element={<LocaleScope prefix={prefix} />}>
      <Route element={<PublicLayout />}>{ROUTES.filter((r) => r.layout === 'public').map(routeElement)}</Route>
      <Route element={<SignedInFrame />}>
        {ROUTES.filter((r) => r.layout === 'account').map(routeElement)}
      </Route>
    </Route>
  );
}

/**
 * One route tree per locale prefix, each built once: <Routes> would rebuild its tree from the elements on
 * every render. React Router flattens and ranks the whole tree it is given on every match (each render of
 * AppRoutes, so each load and each navigation); one prefix's tree is a third of the three together, and
 * its match a third of the time (bench/README.md, 2026-11-28).
 */
const ROUTE_TREES = {
  none: createRoutesFromElements(localeBranch(null)),
  en: createRoutesFromElements(localeBranch('en')),
  de: createRoutesFromElements(localeBranch('de')),
} satisfies Record<Locale | 'none', unknown>;

/** The tree whose prefix the path starts with; React Router matches a prefix in any case, so this does too. */
function treeOf(pathname: string) {
  const first = pathname.split('/', 2)[1]?.toLowerCase();
  return isLocale(first) ? ROUTE_TREES[first] : ROUTE_TREES.none;
}

function AppRoutes() {
  const location = useLocation();
  const routes = useRoutes(treeOf(location.pathname));
  // Tokens handed over in the address of the running app (a link inside it): the address is loaded anew, so
  // they are taken as on any load (src/main.tsx), before anything renders, with nothing of the session
  // before in memory.
  const { accessToken, offlineToken, viewToken } = takeSessionFromQuery(location.search);
  const handedOver = accessToken !== null || offlineToken !== null || viewToken !== null;
  useEffect(() => {
    if (handedOver) window.location.reload();
  }, [handedOver]);
  return handedOver ? <FullPageSpinner /> : routes;
}

/** Another tab signed out: drop this tab's session and go to sign-in. Another tab signed in: start over. */
function useCrossTabSession() {
  useEffect(() => {
    if (!authChannel) return;
    return listenToOtherTabs(authChannel, {
      // Issue 47: a read-only view's tab holds a session of its own, which another tab's sign-in or out leaves be.
      onLogout: () => {
        if (session.isReadOnlyView()) return;
        authProvider.handleRemoteLogout();
        const { path } = splitLocale(window.location.pathname);
        const target = isAdminPath(path) ? ADMIN_LOGIN_PATH : LOGIN_PATH;
        window.location.assign(withLocale(target, readStoredLocale(sessionStorage)));
      },
      onLogin: () => {
        if (session.isReadOnlyView()) return;
        authProvider.handleRemoteLogin();
        window.location.assign(window.location.origin);
      },
    });
  }, []);
}

export function App() {
  useCrossTabSession();
  return (
    <BrowserRouter>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <AppRoutes />
      </ThemeProvider>
    </BrowserRouter>
  );
}
