import type { Permission } from '../../contract/permissions.js';
import type { Access } from './guard.js';

/**
 * The one route table (spec section 2): every screen's path, who may see it, its frame, its title, the
 * Refine resource it shows, and the menu it appears in. Refine's resources (src/refine.ts), the menus
 * (src/routing/menu.ts), the access rules (providers/accessControlProvider.ts), the router (src/App.tsx) and
 * every link's address (src/routing/paths.ts) are all derived from it; nothing else lists routes.
 */

/** Each screen's module under src/pages/; src/pages/index.tsx imports each one by name, typed. */
export const PAGE_MODULES = {
  login: 'auth/Login',
  adminLogin: 'auth/AdminLogin',
  notFound: 'public/NotFound',
  forgotPassword: 'auth/ForgotPassword',
  resetPassword: 'auth/ResetPassword',
  verifyEmail: 'auth/VerifyEmail',
  confirmCode: 'auth/ConfirmCode',
  registration: 'auth/Registration',
  registrationSiggraph: 'auth/Registration',
  registrationSuccess: 'auth/RegistrationSuccess',
  legal: 'public/LegalDocument',
  socialCallback: 'auth/SocialCallback',
  externalCheckout: 'auth/ExternalCheckout',
  home: 'account/Home',
  profile: 'account/Profile',
  socialAccount: 'account/SocialAccount',
  subscription: 'account/Subscription',
  purchaseHistory: 'account/PurchaseHistory',
  licences: 'account/Licences',
  billingInfo: 'account/BillingInfo',
  paymentOptions: 'account/PaymentOptions',
  deviceManager: 'account/DeviceManager',
  security: 'account/Security',
  subPayment: 'checkout/SubPayment',
  paypalReturn: 'checkout/PayPalReturn',
  choosePlan: 'checkout/ChoosePlan',
  checkoutNew: 'checkout/CheckoutNew',
  purchaseSuccess: 'checkout/PurchaseSuccess',
  perpetualProducts: 'checkout/PerpetualProducts',
  shapelabLite: 'admin/ShapelabLite',
  users: 'admin/Users',
  userShow: 'admin/UserShow',
  analytics: 'admin/Analytics',
  cohort: 'admin/Cohort',
  jobs: 'admin/Jobs',
  audit: 'admin/Audit',
} as const;
export type PageName = keyof typeof PAGE_MODULES;

/** Screens of the signed-in frame (its own lazy chunk, src/pages/account-pages.ts) and of the public frame. */
type FrameOf<M extends string> = M extends `${'account' | 'checkout' | 'admin'}/${string}` ? 'account' : 'public';
export type AccountPageName = { [K in PageName]: FrameOf<(typeof PAGE_MODULES)[K]> extends 'account' ? K : never }[PageName];
export type PublicPageName = Exclude<PageName, AccountPageName>;

/** The lazy module of the signed-in frame (src/components/layout/AccountLayout.tsx). */
export const ACCOUNT_LAYOUT_MODULE = 'src/components/layout/AccountLayout.tsx';
/** The lazy gate of the signed-in frame (src/routing/AccessGate.tsx). */
export const ACCESS_GATE_MODULE = 'src/routing/AccessGate.tsx';
/** The lazy list of the signed-in frame's screens (src/pages/account-pages.ts). */
export const ACCOUNT_PAGES_MODULE = 'src/pages/account-pages.ts';
/** The signed-in frame's Refine setup, asked for beside the frame (src/main.tsx). */
export const REFINE_MODULE = 'src/refine.ts';

/** The side menu an entry appears in: the account menu, the admin menu, or the admin menu's store analytics group. */
export type MenuName = 'account' | 'admin' | 'storeAnalytics';

interface BaseRoute {
  /** Path without locale prefix and without leading slash; '' is the root. */
  path: string;
  access: Access;
  titleKey: string;
  /** Spec section 2: routes that stay reachable while the profile-redirect flag is set. */
  allowAll?: boolean;
  /** The menu that lists this route (under its title). */
  menu?: MenuName;
}
export interface AccountRoute extends BaseRoute {
  layout: 'account';
  page: AccountPageName;
  /** The Refine resource the screen shows; the access control provider decides by it. */
  resource: ResourceName;
}
export interface PublicRoute extends BaseRoute {
  layout: 'public';
  page: PublicPageName;
}
export type RouteEntry = AccountRoute | PublicRoute;

/**
 * Refine's resources: what the signed-in screens show and edit through the data provider, with who may
 * read them: any signed-in user, or staff with a permission (issue 47, contract/permissions.ts: the one the
 * server's routes behind the screen check). Screens name one of these; the data provider knows each one's
 * API path.
 */
export const RESOURCES = {
  profile: 'user',
  // Issue 20: the account home's one answer (GET /users/me/overview).
  overview: 'user',
  subscription: 'user',
  'payment-method': 'user',
  'billing-info': 'user',
  invoices: 'user',
  licences: 'user',
  seats: 'user',
  sessions: 'user',
  // Issue 44: shown on the security page beside the sessions.
  'two-factor': 'user',
  passkeys: 'user',
  // Issue 47: support's read-only views of the account, shown on the security page.
  'support-views': 'user',
  plans: 'user',
  'perpetual-products': 'user',
  checkout: 'user',
  users: 'users.read',
  'lite-keys': 'liteKeys.manage',
  analytics: 'analytics.read',
  cohorts: 'analytics.read',
  'analytics-steam': 'analytics.read',
  'analytics-subscription': 'analytics.read',
  'analytics-metapc': 'analytics.read',
  'analytics-perpetual-2024': 'analytics.read',
  'analytics-viveport': 'analytics.read',
  'analytics-android': 'analytics.read',
  jobs: 'jobs.read',
  // Issue 47: the audit log of every staff action.
  audit: 'audit.read',
} as const satisfies Record<string, 'user' | Permission>;
export type ResourceName = keyof typeof RESOURCES;

/** A signed-in screen; its title is `routes.<page>` unless it names another. */
const account = (path: string, page: AccountPageName, resource: ResourceName, menu?: MenuName, title: string = page): AccountRoute => ({
  path,
  access: RESOURCES[resource],
  layout: 'account',
  titleKey: `routes.${title}`,
  page,
  resource,
  ...(menu ? { menu } : {}),
});

const publicPage = (path: string, titleKey: string, access: 'public' | 'anonymous', page: PublicPageName): PublicRoute => ({
  path,
  access,
  layout: 'public',
  titleKey,
  page,
  allowAll: true,
});

/**
 * Every screen's path, by name: without the locale prefix or a leading slash, '' for the root, `:name` a
 * parameter and `:name?` an optional one. The route table below registers them; links and navigations build
 * them with ./paths.ts, never by hand (eslint.config.js refuses a literal path in `localize`, `navigate` and `to`).
 */
export const SCREEN_PATHS = {
  home: '',
  profile: 'account/profile',
  subscription: 'account/subscription',
  choosePlan: 'account/subscription/choose-plan',
  paymentOptions: 'account/payment-options',
  billingInfo: 'account/billing-info',
  purchaseHistory: 'account/purchase-history',
  licences: 'account/licences',
  deviceManager: 'account/device-manager',
  security: 'account/security',
  checkoutNew: 'checkout-new/:type/:priceId?',
  subPayment: 'sub-payment',
  perpetualProducts: 'perpetual',
  perpetualSuccess: 'perpetual/success',
  subscriptionSuccess: 'subscription/success',
  googleConnect: 'google/connect',
  facebookConnect: 'facebook/connect',
  facebookDisconnect: 'facebook/disconnect',
  paypalReturn: 'paypal/return',
  paypalCancel: 'paypal/cancel',
  terms: 'terms',
  privacyPolicy: 'privacy-policy',
  login: 'login',
  registration: 'registration',
  registrationSuccess: 'registration/success',
  registrationSiggraph: 'registration/siggraph2023',
  forgotPassword: 'forgot-password',
  resetPassword: 'forgot-password/validate/:token',
  confirmCode: 'users/confirm',
  verifyEmail: 'users/validate/:token',
  externalCheckout: 'checkout/:type/:tab/:priceId?',
  googleRedirect: 'google/redirect',
  facebookRedirect: 'facebook/redirect',
  adminLogin: 'admin/login',
  analytics: 'admin/analytics',
  cohort: 'admin/cohort',
  users: 'admin/users',
  userShow: 'admin/users/:id',
  shapelabLite: 'admin/shapelab-lite',
  jobs: 'admin/jobs',
  audit: 'admin/audit',
  steamAnalytics: 'admin/analytics/steam',
  subscriptionAnalytics: 'admin/analytics/subscription',
  metaPcStoreAnalytics: 'admin/analytics/metapc-store',
  perpetual2024Analytics: 'admin/analytics/perpetual-2024',
  viveportAnalytics: 'admin/analytics/viveport',
  androidAnalytics: 'admin/analytics/android',
  notFound: '*',
} as const;
export type ScreenName = keyof typeof SCREEN_PATHS;
const S = SCREEN_PATHS;

export const ROUTES: RouteEntry[] = [
  // Signed-in area (User and Admin).
  // Issue 20: the root is the account home (an overview, then the profile's sections), first in the account menu.
  account(S.home, 'home', 'overview', 'account'),
  account(S.profile, 'profile', 'profile', 'account'),
  account(S.subscription, 'subscription', 'subscription', 'account'),
  account(S.choosePlan, 'choosePlan', 'plans'),
  account(S.paymentOptions, 'paymentOptions', 'payment-method', 'account'),
  account(S.billingInfo, 'billingInfo', 'billing-info', 'account'),
  account(S.purchaseHistory, 'purchaseHistory', 'invoices', 'account'),
  account(S.licences, 'licences', 'licences', 'account'),
  account(S.deviceManager, 'deviceManager', 'seats', 'account'),
  account(S.security, 'security', 'sessions', 'account'),
  account(S.checkoutNew, 'checkoutNew', 'checkout'),
  account(S.subPayment, 'subPayment', 'checkout', undefined, 'checkoutNew'),
  account(S.perpetualProducts, 'perpetualProducts', 'perpetual-products'),
  account(S.perpetualSuccess, 'purchaseSuccess', 'checkout', undefined, 'perpetualSuccess'),
  account(S.subscriptionSuccess, 'purchaseSuccess', 'checkout', undefined, 'subscriptionSuccess'),
  // Redirect helpers that need a session.
  account(S.googleConnect, 'socialAccount', 'profile', undefined, 'googleConnect'),
  account(S.facebookConnect, 'socialAccount', 'profile', undefined, 'facebookConnect'),
  account(S.facebookDisconnect, 'socialAccount', 'profile', undefined, 'facebookDisconnect'),
  account(S.paypalReturn, 'paypalReturn', 'payment-method'),
  account(S.paypalCancel, 'paypalReturn', 'payment-method', undefined, 'paypalCancel'),

  // Public pages.
  publicPage(S.terms, 'routes.terms', 'public', 'legal'),
  publicPage(S.privacyPolicy, 'routes.privacyPolicy', 'public', 'legal'),
  publicPage(S.login, 'pages.login.title', 'anonymous', 'login'),
  publicPage(S.registration, 'routes.registration', 'anonymous', 'registration'),
  publicPage(S.registrationSuccess, 'routes.registrationSuccess', 'public', 'registrationSuccess'),
  publicPage(S.registrationSiggraph, 'routes.registrationSiggraph', 'anonymous', 'registrationSiggraph'),
  publicPage(S.forgotPassword, 'routes.forgotPassword', 'anonymous', 'forgotPassword'),
  publicPage(S.resetPassword, 'routes.forgotPasswordValidate', 'anonymous', 'resetPassword'),
  publicPage(S.confirmCode, 'routes.usersConfirm', 'public', 'confirmCode'),
  publicPage(S.verifyEmail, 'routes.usersValidate', 'public', 'verifyEmail'),
  publicPage(S.externalCheckout, 'routes.checkoutExternal', 'public', 'externalCheckout'),
  publicPage(S.googleRedirect, 'routes.googleRedirect', 'public', 'socialCallback'),
  publicPage(S.facebookRedirect, 'routes.facebookRedirect', 'public', 'socialCallback'),

  // Admin area.
  publicPage(S.adminLogin, 'pages.adminLogin.title', 'anonymous', 'adminLogin'),
  account(S.analytics, 'analytics', 'analytics', 'admin'),
  account(S.cohort, 'cohort', 'cohorts', 'admin'),
  account(S.users, 'users', 'users', 'admin'),
  // Issue 21: one user as support sees them (Refine's show page of `users`).
  account(S.userShow, 'userShow', 'users'),
  account(S.shapelabLite, 'shapelabLite', 'lite-keys', 'admin'),
  account(S.jobs, 'jobs', 'jobs', 'admin'),
  account(S.audit, 'audit', 'audit', 'admin'),
  account(S.steamAnalytics, 'analytics', 'analytics-steam', 'storeAnalytics', 'steamAnalytics'),
  account(S.subscriptionAnalytics, 'analytics', 'analytics-subscription', 'storeAnalytics', 'subscriptionAnalytics'),
  account(S.metaPcStoreAnalytics, 'analytics', 'analytics-metapc', 'storeAnalytics', 'metaPcStoreAnalytics'),
  account(S.perpetual2024Analytics, 'analytics', 'analytics-perpetual-2024', 'storeAnalytics', 'perpetual2024Analytics'),
  account(S.viveportAnalytics, 'analytics', 'analytics-viveport', 'storeAnalytics', 'viveportAnalytics'),
  account(S.androidAnalytics, 'analytics', 'analytics-android', 'storeAnalytics', 'androidAnalytics'),

  // Catch-all.
  publicPage(S.notFound, 'pages.notFound.title', 'public', 'notFound'),
];

/**
 * The access a resource needs (the access control provider's rule): any signed-in user, or a permission;
 * undefined for an unknown name.
 */
export function accessOf(resource: string | undefined): 'user' | Permission | undefined {
  return resource !== undefined && Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource as ResourceName] : undefined;
}
