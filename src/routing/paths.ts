import { SCREEN_PATHS, type ScreenName } from './routes.js';

/**
 * The address of every screen, built from the route table's paths (./routes.ts, SCREEN_PATHS): a link, a
 * redirect or a navigation names its screen here, with the screen's parameters typed, and never writes a path
 * by hand (eslint.config.js refuses a literal path in `localize(...)`, `navigate(...)` and `to=`). Addresses
 * are without the locale prefix: `localize` (src/components/LocaleScope.tsx) adds the reader's.
 */

/** A pattern's segments. */
type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : P;
type RequiredName<S> = S extends `:${string}?` ? never : S extends `:${infer Name}` ? Name : never;
type OptionalName<S> = S extends `:${infer Name}?` ? Name : never;

/** The parameters of a route pattern: `checkout-new/:type/:priceId?` takes `{ type: string; priceId?: string | null }`. */
export type PathParams<P extends string> = { [K in RequiredName<Segments<P>>]: string } & { [K in OptionalName<Segments<P>>]?: string | null };

/**
 * A pattern with its parameters filled in, each encoded as one path segment; an optional one left out when it
 * has no value.
 */
export function fillPath<P extends string>(pattern: P, params: PathParams<P>): string {
  const values = params as Record<string, string | null | undefined>;
  const segments = pattern.split('/').flatMap((segment) => {
    if (!segment.startsWith(':')) return [segment];
    const optional = segment.endsWith('?');
    const name = segment.slice(1, optional ? -1 : undefined);
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      if (optional) return [];
      throw new Error(`${pattern} needs ${name}`);
    }
    return [encodeURIComponent(value)];
  });
  return `/${segments.join('/')}`;
}

/** The screens whose path has no parameter: each one's address is a constant. */
type FixedScreen = { [K in ScreenName]: (typeof SCREEN_PATHS)[K] extends `${string}:${string}` | '*' ? never : K }[ScreenName];

const fixed = Object.fromEntries(
  (Object.keys(SCREEN_PATHS) as ScreenName[]).filter((name) => !SCREEN_PATHS[name].includes(':') && SCREEN_PATHS[name] !== '*').map((name) => [name, `/${SCREEN_PATHS[name]}`]),
) as Record<FixedScreen, string>;

/** `?name=value&...` of the values given (undefined ones left out), or '' without any. */
function query(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type CheckoutType = 'subscription' | 'perpetual';
/** The tabs of the public checkout page (`checkout/:type/:tab`): sign in or sign up first. */
export type ExternalCheckoutTab = 'login' | 'registration';
/**
 * The callback pages a provider sends the browser back to (spec section 2's helper routes), by provider and
 * purpose: a sign-in (`redirect`), a link to the signed-in account (`connect`), and Facebook's unlinking, which
 * asks the person to sign in to the linked account once more (Google is unlinked without leaving the portal).
 */
const SOCIAL_RETURNS = {
  google: { redirect: fixed.googleRedirect, connect: fixed.googleConnect },
  facebook: { redirect: fixed.facebookRedirect, connect: fixed.facebookConnect, disconnect: fixed.facebookDisconnect },
} as const;
export type SocialProvider = keyof typeof SOCIAL_RETURNS;
/** The purposes a provider has a callback page for (without one named: those every provider has). */
export type SocialPurpose<P extends SocialProvider = SocialProvider> = keyof (typeof SOCIAL_RETURNS)[P];

/**
 * Every screen the app links or navigates to. The two with a token in their path (resetPassword, verifyEmail)
 * are reached only from the server's mails, which build their links themselves; the catch-all has no address.
 */
export const paths = {
  ...fixed,
  /** The sign-in page after the account was deleted (issue 17): it says so. */
  loginAfterDeletion: `${fixed.login}${query({ deleted: '1' })}`,
  /** The code page after registration or sign-in of an unverified account, with the address the code went to. */
  confirmCode: (email?: string) => `${fixed.confirmCode}${query({ email })}`,
  /** The signed-in checkout of a kind of purchase, its price chosen or the first; `search` is kept as it is (`?discount=...`). */
  checkoutNew: (type: CheckoutType, priceId?: string | null, search = '') => `${fillPath(SCREEN_PATHS.checkoutNew, { type, priceId })}${search}`,
  /** The public checkout's sign-in or sign-up tab (spec section 2). */
  externalCheckout: (type: CheckoutType, tab: ExternalCheckoutTab, priceId?: string | null, search = '') =>
    `${fillPath(SCREEN_PATHS.externalCheckout, { type, tab, priceId })}${search}`,
  /** The success page of a completed checkout of that kind. */
  purchaseSuccess: (type: CheckoutType) => (type === 'subscription' ? fixed.subscriptionSuccess : fixed.perpetualSuccess),
  /** One user's page in the admin area. */
  userShow: (id: string) => fillPath(SCREEN_PATHS.userShow, { id }),
  /** Where a provider sends the browser back for a purpose. */
  socialReturn: <P extends SocialProvider>(provider: P, purpose: SocialPurpose<P>): string => (SOCIAL_RETURNS[provider] as Record<SocialPurpose<P>, string>)[purpose],
} as const;
