import type { Access } from './guard.js';

/**
 * The one route table (spec section 2): every screen's path, who may see it, its frame, its title, the
 * Refine resource it shows, and the menu it appears in. Refine's resources (src/refine.ts), the menus
 * (src/routing/menu.ts), the access rules (providers/accessControlProvider.ts) and the router (src/App.tsx)
 * are all derived from it; nothing else lists routes.
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
 * read them. Screens name one of these; the data provider knows each one's API path.
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
  plans: 'user',
  'perpetual-products': 'user',
  checkout: 'user',
  users: 'admin',
  'lite-keys': 'admin',
  analytics: 'admin',
  cohorts: 'admin',
  'analytics-steam': 'admin',
  'analytics-subscription': 'admin',
  'analytics-metapc': 'admin',
  'analytics-perpetual-2024': 'admin',
  'analytics-viveport': 'admin',
  'analytics-android': 'admin',
  jobs: 'admin',
} as const satisfies Record<string, Extract<Access, 'user' | 'admin'>>;
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

export const ROUTES: RouteEntry[] = [
  // Signed-in area (User and Admin).
  // Issue 20: the root is the account home (an overview, then the profile's sections), first in the account menu.
  account('', 'home', 'overview', 'account'),
  account('account/profile', 'profile', 'profile', 'account'),
  account('account/subscription', 'subscription', 'subscription', 'account'),
  account('account/subscription/choose-plan', 'choosePlan', 'plans'),
  account('account/payment-options', 'paymentOptions', 'payment-method', 'account'),
  account('account/billing-info', 'billingInfo', 'billing-info', 'account'),
  account('account/purchase-history', 'purchaseHistory', 'invoices', 'account'),
  account('account/licences', 'licences', 'licences', 'account'),
  account('account/device-manager', 'deviceManager', 'seats', 'account'),
  account('account/security', 'security', 'sessions', 'account'),
  account('checkout-new/:type/:priceId?', 'checkoutNew', 'checkout'),
  account('sub-payment', 'subPayment', 'checkout', undefined, 'checkoutNew'),
  account('perpetual', 'perpetualProducts', 'perpetual-products'),
  account('perpetual/success', 'purchaseSuccess', 'checkout', undefined, 'perpetualSuccess'),
  account('subscription/success', 'purchaseSuccess', 'checkout', undefined, 'subscriptionSuccess'),
  // Redirect helpers that need a session.
  account('google/connect', 'socialAccount', 'profile', undefined, 'googleConnect'),
  account('facebook/connect', 'socialAccount', 'profile', undefined, 'facebookConnect'),
  account('facebook/disconnect', 'socialAccount', 'profile', undefined, 'facebookDisconnect'),
  account('paypal/return', 'paypalReturn', 'payment-method'),
  account('paypal/cancel', 'paypalReturn', 'payment-method', undefined, 'paypalCancel'),

  // Public pages.
  publicPage('terms', 'routes.terms', 'public', 'legal'),
  publicPage('privacy-policy', 'routes.privacyPolicy', 'public', 'legal'),
  publicPage('login', 'pages.login.title', 'anonymous', 'login'),
  publicPage('registration', 'routes.registration', 'anonymous', 'registration'),
  publicPage('registration/success', 'routes.registrationSuccess', 'public', 'registrationSuccess'),
  publicPage('registration/siggraph2023', 'routes.registrationSiggraph', 'anonymous', 'registrationSiggraph'),
  publicPage('forgot-password', 'routes.forgotPassword', 'anonymous', 'forgotPassword'),
  publicPage('forgot-password/validate/:token', 'routes.forgotPasswordValidate', 'anonymous', 'resetPassword'),
  publicPage('users/confirm', 'routes.usersConfirm', 'public', 'confirmCode'),
  publicPage('users/validate/:token', 'routes.usersValidate', 'public', 'verifyEmail'),
  publicPage('checkout/:type/:tab/:priceId?', 'routes.checkoutExternal', 'public', 'externalCheckout'),
  publicPage('google/redirect', 'routes.googleRedirect', 'public', 'socialCallback'),
  publicPage('facebook/redirect', 'routes.facebookRedirect', 'public', 'socialCallback'),

  // Admin area.
  publicPage('admin/login', 'pages.adminLogin.title', 'anonymous', 'adminLogin'),
  account('admin/analytics', 'analytics', 'analytics', 'admin'),
  account('admin/cohort', 'cohort', 'cohorts', 'admin'),
  account('admin/users', 'users', 'users', 'admin'),
  // Issue 21: one user as support sees them (Refine's show page of `users`).
  account('admin/users/:id', 'userShow', 'users'),
  account('admin/shapelab-lite', 'shapelabLite', 'lite-keys', 'admin'),
  account('admin/jobs', 'jobs', 'jobs', 'admin'),
  account('admin/analytics/steam', 'analytics', 'analytics-steam', 'storeAnalytics', 'steamAnalytics'),
  account('admin/analytics/subscription', 'analytics', 'analytics-subscription', 'storeAnalytics', 'subscriptionAnalytics'),
  account('admin/analytics/metapc-store', 'analytics', 'analytics-metapc', 'storeAnalytics', 'metaPcStoreAnalytics'),
  account('admin/analytics/perpetual-2024', 'analytics', 'analytics-perpetual-2024', 'storeAnalytics', 'perpetual2024Analytics'),
  account('admin/analytics/viveport', 'analytics', 'analytics-viveport', 'storeAnalytics', 'viveportAnalytics'),
  account('admin/analytics/android', 'analytics', 'analytics-android', 'storeAnalytics', 'androidAnalytics'),

  // Catch-all.
  publicPage('*', 'pages.notFound.title', 'public', 'notFound'),
];

/** The access a resource needs (the access control provider's rule); undefined for an unknown name. */
export function accessOf(resource: string | undefined): 'user' | 'admin' | undefined {
  return resource !== undefined && Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource as ResourceName] : undefined;
}
