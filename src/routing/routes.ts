import type { Access } from './guard.js';

/**
 * Every route of spec section 2. `layout` picks the frame (the signed-in ThemedLayout or the public
 * frame); `page` names the screen (see src/pages/index.tsx).
 */
/** Each screen's module under src/pages/ (a lazy chunk of its own; the bundle budgets read this too). */
export const PAGE_MODULES = {
  login: 'auth/Login',
  adminLogin: 'auth/AdminLogin',
  notFound: 'public/NotFound',
  forgotPassword: 'auth/ForgotPassword',
  resetPassword: 'auth/ResetPassword',
  verifyEmail: 'auth/VerifyEmail',
  confirmCode: 'auth/ConfirmCode',
  registration: 'auth/Registration',
  registrationSiggraph: 'auth/RegistrationSiggraph',
  registrationSuccess: 'auth/RegistrationSuccess',
  profile: 'account/Profile',
  legal: 'public/LegalDocument',
  socialCallback: 'auth/SocialCallback',
  socialAccount: 'account/SocialAccount',
  subscription: 'account/Subscription',
  purchaseHistory: 'account/PurchaseHistory',
  licences: 'account/Licences',
  billingInfo: 'account/BillingInfo',
  externalCheckout: 'auth/ExternalCheckout',
  subPayment: 'checkout/SubPayment',
  paymentOptions: 'account/PaymentOptions',
  paypalReturn: 'checkout/PayPalReturn',
  choosePlan: 'checkout/ChoosePlan',
  checkoutNew: 'checkout/CheckoutNew',
  purchaseSuccess: 'checkout/PurchaseSuccess',
  deviceManager: 'account/DeviceManager',
  security: 'account/Security',
  shapelabLite: 'admin/ShapelabLite',
  users: 'admin/Users',
  analytics: 'admin/Analytics',
  cohort: 'admin/Cohort',
  perpetualProducts: 'checkout/PerpetualProducts',
} as const;
export type PageName = keyof typeof PAGE_MODULES;

/** The lazy module of the signed-in frame (src/components/layout/AccountLayout.tsx). */
export const ACCOUNT_LAYOUT_MODULE = 'src/components/layout/AccountLayout.tsx';
/** The lazy list of the signed-in frame's screens (src/pages/account-pages.ts). */
export const ACCOUNT_PAGES_MODULE = 'src/pages/account-pages.ts';

export interface RouteEntry {
  /** Path without locale prefix and without leading slash; '' is the root. */
  path: string;
  access: Access;
  layout: 'account' | 'public';
  titleKey: string;
  page: PageName;
  /** Spec section 2: routes that stay reachable while the profile-redirect flag is set. */
  allowAll?: boolean;
}

const account = (path: string, titleKey: string, access: Access, page: PageName): RouteEntry => ({
  path,
  access,
  layout: 'account',
  titleKey,
  page,
});

const publicPage = (path: string, titleKey: string, access: Access, page: PageName): RouteEntry => ({
  path,
  access,
  layout: 'public',
  titleKey,
  page,
  allowAll: true,
});

export const ROUTES: RouteEntry[] = [
  // Signed-in area (User and Admin).
  account('', 'routes.profile', 'user', 'profile'),
  account('account/profile', 'routes.profile', 'user', 'profile'),
  account('account/subscription', 'routes.subscription', 'user', 'subscription'),
  account('account/subscription/choose-plan', 'routes.choosePlan', 'user', 'choosePlan'),
  account('account/payment-options', 'routes.paymentOptions', 'user', 'paymentOptions'),
  account('account/billing-info', 'routes.billingInfo', 'user', 'billingInfo'),
  account('account/purchase-history', 'routes.purchaseHistory', 'user', 'purchaseHistory'),
  account('account/licences', 'routes.licences', 'user', 'licences'),
  account('account/device-manager', 'routes.deviceManager', 'user', 'deviceManager'),
  account('account/security', 'routes.security', 'user', 'security'),
  account('checkout-new/:type/:priceId?', 'routes.checkoutNew', 'user', 'checkoutNew'),
  account('sub-payment', 'routes.checkoutNew', 'user', 'subPayment'),
  account('perpetual', 'routes.perpetualProducts', 'user', 'perpetualProducts'),
  account('perpetual/success', 'routes.perpetualSuccess', 'user', 'purchaseSuccess'),
  account('subscription/success', 'routes.subscriptionSuccess', 'user', 'purchaseSuccess'),
  // Redirect helpers that need a session.
  account('google/connect', 'routes.googleConnect', 'user', 'socialAccount'),
  account('facebook/connect', 'routes.facebookConnect', 'user', 'socialAccount'),
  account('facebook/disconnect', 'routes.facebookDisconnect', 'user', 'socialAccount'),
  account('paypal/return', 'routes.paypalReturn', 'user', 'paypalReturn'),
  account('paypal/cancel', 'routes.paypalCancel', 'user', 'paypalReturn'),

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
  account('admin/analytics', 'routes.analytics', 'admin', 'analytics'),
  account('admin/cohort', 'routes.cohort', 'admin', 'cohort'),
  account('admin/users', 'routes.users', 'admin', 'users'),
  account('admin/shapelab-lite', 'routes.shapelabLite', 'admin', 'shapelabLite'),
  account('admin/analytics/steam', 'routes.steamAnalytics', 'admin', 'analytics'),
  account('admin/analytics/subscription', 'routes.subscriptionAnalytics', 'admin', 'analytics'),
  account('admin/analytics/metapc-store', 'routes.metaPcStoreAnalytics', 'admin', 'analytics'),
  account('admin/analytics/perpetual-2024', 'routes.perpetual2024Analytics', 'admin', 'analytics'),
  account('admin/analytics/viveport', 'routes.viveportAnalytics', 'admin', 'analytics'),
  account('admin/analytics/android', 'routes.androidAnalytics', 'admin', 'analytics'),

  // Catch-all.
  publicPage('*', 'pages.notFound.title', 'public', 'notFound'),
];
