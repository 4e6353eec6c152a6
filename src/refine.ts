import { keys, type RefineProps, type ResourceProps } from '@refinedev/core';
import { hashKey, keepPreviousData, QueryClient, type QueryKey } from '@tanstack/react-query';
import { createAccessControlProvider } from '../providers/accessControlProvider.js';
import { createDataProvider } from '../providers/dataProvider.js';
import { errorText } from '../providers/errors.js';
import { isApiError, openStream, type ApiError } from '../providers/http.js';
import { createI18nProvider } from '../providers/i18nProvider.js';
import { createLiveProvider } from '../providers/liveProvider.js';
import { authProvider, cache, http, session } from '../providers/index.js';
import { sessionIdOf } from '../providers/session.js';
import { i18n } from './i18n.js';
import { splitLocale, withLocale } from './routing/locale.js';
import { routerProvider } from './routing/routerProvider.js';
import type { FirstRecord } from './boot/firstRecord.js';
import { accessOf, RESOURCES, ROUTES, type ResourceName } from './routing/routes.js';

/** A screen of one record (`.../:id`): the resource's show page. */
const isShowPath = (path: string) => path.endsWith('/:id');

/**
 * Refine's resources, from the route table: each resource with the path of the screen that lists it
 * (the menu's entry, when it has one), the screen that shows one of its records (a path ending in
 * `/:id`, so useShow reads the id from the address and useNavigation's `show` builds it), and the
 * access it needs.
 */
export const resources: ResourceProps[] = (Object.keys(RESOURCES) as ResourceName[]).map((name) => {
  const screens = ROUTES.filter((route) => route.layout === 'account' && route.resource === name);
  const lists = screens.filter((route) => !isShowPath(route.path));
  const list = lists.find((route) => route.menu) ?? lists[0];
  const show = screens.find((route) => isShowPath(route.path));
  return { name, ...(list ? { list: `/${list.path}` } : {}), ...(show ? { show: `/${show.path}` } : {}), meta: { access: RESOURCES[name] } };
});

/**
 * When primeFirstScreen put each answer in (by query hash). A hook that mounts within PRIMED_FRESH_MS of it
 * shows that answer without asking again: the first screen's hooks mount right after the priming, and their
 * second request for the same answer was the server's work and a further render in the middle of the load.
 * Later mounts ask as usual, and the live provider's events refresh these queries as any other.
 */
const PRIMED_FRESH_MS = 5_000;

/** React Query's own: a failed query is asked three times more (after 1, 2 and 4 s). */
const QUERY_RETRIES = 3;

/**
 * Whether a query that failed is asked again. Not when the server refused the session (401, after the HTTP
 * client's own renewal) or a staff member without a second factor (403 TWO_FACTOR_ENROLMENT_REQUIRED): the
 * answer would be the same, and the auth provider's onError, which sends the person to sign in or to the
 * security page, runs only once the retries are through: a session ended elsewhere showed a spinner for 7 s
 * before the sign-in page (tests/e2e/passkeys.test.ts, 2026-11-28). Anything else is retried as before.
 */
export function retriesQuery(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && (error.statusCode === 401 || (error.statusCode === 403 && error.messageKey === 'TWO_FACTOR_ENROLMENT_REQUIRED'))) return false;
  return failureCount < QUERY_RETRIES;
}

/**
 * Refine's query client, with the defaults Refine gives its own (no refetch when the window regains focus,
 * the previous page's data while the next loads); created here so the first screen's answers can be put
 * in before it renders (primeFirstScreen).
 */
function newQueryClient(primedAt: Map<string, number>): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        placeholderData: keepPreviousData,
        retry: retriesQuery,
        refetchOnMount: (query) => Date.now() - (primedAt.get(query.queryHash) ?? Number.NEGATIVE_INFINITY) > PRIMED_FRESH_MS,
      },
    },
  });
}

interface SessionQueries {
  /** The server session (the access token's `sid`) whose answers the client holds. */
  session: string | null;
  client: QueryClient;
  primedAt: Map<string, number>;
}
let current: SessionQueries | null = null;

/**
 * Refine's query client of one server session (issue 44 item 8). A tab outlives its sessions, and one
 * client for the tab's life showed the next user the last one's plan, price and card until each screen
 * had asked again: a query the next screen mounts with finds the last session's answer, and Refine's
 * `keepPreviousData` shows the answer a mounted query had before. Each session gets a client of its own,
 * and the signed-in frame mounts anew for it (src/App.tsx, SignedInFrame), so no query and no observer
 * crosses from one session to the next. The session's end drops its client (the cache store below).
 */
export function queryClientOf(sessionId: string | null): QueryClient {
  if (current?.session !== sessionId) {
    const dropped = current;
    const primedAt = new Map<string, number>();
    current = { session: sessionId, client: newQueryClient(primedAt), primedAt };
    // The frame of the session before may still be on screen for this render; its client empties after it.
    if (dropped) setTimeout(() => dropped.client.clear());
  }
  return current.client;
}

cache.add(() => {
  const dropped = current;
  current = null;
  liveProvider.reset();
  if (dropped) setTimeout(() => dropped.client.clear());
});

function prime(key: QueryKey, answer: unknown): void {
  const queries = queryClientOf(sessionIdOf(session.getToken()));
  queries.setQueryData(key, answer);
  current?.primedAt.set(hashKey(key), Date.now());
}

/**
 * The event stream was refused for the session the tab holds: it ended on the server (signed out on another
 * device, every other session ended there, expired). The tab ends it as a refused call of a screen does
 * (the auth provider's onError: sign-in follows, coming back here after), with a load of the sign-in page as
 * another tab's sign-out does (src/App.tsx): nothing of the session stays in memory.
 */
async function endRefusedSession(): Promise<void> {
  // Ended here already (a refused call of the screen came first): its sign-in is under way.
  if (session.getToken() === null) return;
  const refusal: ApiError = { messageKey: 'SESSION_EXPIRED', message: 'The event stream was refused', statusCode: 401 };
  const outcome = await authProvider.onError(refusal);
  if (!('redirectTo' in outcome) || !outcome.redirectTo) return;
  await authProvider.logout();
  window.location.assign(withLocale(outcome.redirectTo, splitLocale(window.location.pathname).locale));
}

const liveProvider = createLiveProvider(openStream, () => void endRefusedSession());
const accessControlProvider = createAccessControlProvider({ getPermissions: () => authProvider.getPermissions(), accessOf });

/**
 * The query key of the access control provider's answer for a resource's list, as Refine's useCan builds it
 * for `useCan({ resource, action: 'list' })` and `<CanAccess resource action="list" params={{}}>`.
 */
function accessKey(resource: ResourceName) {
  return keys().access().resource(resource).action('list').params({ params: { resource: undefined }, enabled: undefined }).get();
}

/** The query key of `useOne({ resource, id: 'me' })`, as Refine builds it (the default data provider, no meta). */
function ownRecordKey(resource: ResourceName) {
  return keys().data('default').resource(resource).action('one').id('me').params({}).get();
}

/**
 * Puts the session's user, the access control provider's answers for every resource and the screen's first
 * record (src/boot/firstRecord.ts, asked for as the app starts) into Refine's query cache before the first
 * signed-in screen renders (src/main.tsx awaits it), asked of the same providers the hooks ask. Without them
 * the frame painted an empty menu and no screen, and the answers' arrival rendered the menu and mounted the
 * screen in further passes (tests/e2e/first-load.test.ts checks that no such pass shows). The screen's hooks
 * that mount within a few seconds show these answers without asking again (PRIMED_FRESH_MS).
 */
export async function primeFirstScreen(firstRecord: Promise<FirstRecord | null>): Promise<void> {
  const [user, record] = await Promise.all([authProvider.getIdentity(), firstRecord]);
  if (record) prime(ownRecordKey(record.resource), record.answer);
  if (!user) return;
  prime(keys().auth().action('identity').get(), user);
  const names = Object.keys(RESOURCES) as ResourceName[];
  const answers = await Promise.all(names.map((resource) => accessControlProvider.can({ resource, action: 'list' })));
  names.forEach((resource, index) => prime(accessKey(resource), answers[index]));
}

// A refusal's text in the screen's language, for Refine's notifications (the one way, providers/errors.ts).
const dataProvider = createDataProvider(http, { translate: (messageKey) => errorText(i18n.t, messageKey) });
const i18nProvider = createI18nProvider(i18n);

/**
 * Refine's configuration for one server session: the providers, the resources the menus, access control and
 * data hooks know about (spec sections 2 and 6), and the options with the session's query client. <Refine>
 * itself is mounted by the signed-in frame (src/components/layout/AccountLayout.tsx, which adds the
 * notification provider), so the public pages never download Refine.
 */
export function refinePropsOf(sessionId: string | null) {
  return {
    routerProvider,
    dataProvider,
    liveProvider,
    authProvider,
    accessControlProvider,
    i18nProvider,
    resources,
    options: {
      disableTelemetry: true,
      syncWithLocation: true,
      warnWhenUnsavedChanges: false,
      liveMode: 'auto',
      reactQuery: { clientConfig: queryClientOf(sessionId) },
    },
  } satisfies Omit<RefineProps, 'children'>;
}
