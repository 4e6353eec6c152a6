import type { ComponentType } from 'react';
import { preloadable, type Preloadable } from '../routing/preloadable.js';
import type { AccountPageName, PageName, PublicPageName } from '../routing/routes.js';

export interface PageProps {
  /** The route's title key (spec section 2 screens); pages that know their title may ignore it. */
  titleKey: string;
}

export type PageModule = { default: ComponentType<PageProps> };
export type PageLoaders<Name extends string> = { [K in Name]: () => Promise<PageModule> };

/**
 * The public screens, each a typed lazy import: a page the route table names but that is not here, or a
 * module that is missing or exports no page, fails the type check. The signed-in screens are listed in
 * their own chunk (account-pages.ts) so sign-in and registration never carry the list of them.
 */
const PUBLIC_PAGES: PageLoaders<PublicPageName> = {
  login: () => import('./auth/Login.js'),
  adminLogin: () => import('./auth/AdminLogin.js'),
  notFound: () => import('./public/NotFound.js'),
  forgotPassword: () => import('./auth/ForgotPassword.js'),
  resetPassword: () => import('./auth/ResetPassword.js'),
  verifyEmail: () => import('./auth/VerifyEmail.js'),
  confirmCode: () => import('./auth/ConfirmCode.js'),
  registration: () => import('./auth/Registration.js'),
  registrationSiggraph: () => import('./auth/Registration.js'),
  registrationSuccess: () => import('./auth/RegistrationSuccess.js'),
  legal: () => import('./public/LegalDocument.js'),
  socialCallback: () => import('./auth/SocialCallback.js'),
  externalCheckout: () => import('./auth/ExternalCheckout.js'),
};

function isPublic(name: PageName): name is PublicPageName {
  return Object.hasOwn(PUBLIC_PAGES, name);
}

/** Downloads (once) and evaluates a screen's module; the lazy component and preloadPage share it. */
async function loadPage(name: PageName): Promise<PageModule> {
  if (isPublic(name)) return PUBLIC_PAGES[name]();
  const { ACCOUNT_PAGES } = await import('./account-pages.js');
  return ACCOUNT_PAGES[name satisfies AccountPageName]();
}

const cache = new Map<PageName, Preloadable<PageProps>>();
function entry(name: PageName): Preloadable<PageProps> {
  let page = cache.get(name);
  if (!page) {
    page = preloadable(() => loadPage(name));
    cache.set(name, page);
  }
  return page;
}

/**
 * Downloads (once) and evaluates a screen's module before React asks for it (src/main.tsx awaits the
 * first screen's); a failure is the page component's to show.
 */
export function preloadPage(name: PageName): Promise<void> {
  return entry(name).preload();
}

/** A screen by name (one component each, code split per screen, so a route downloads only what it shows). */
export function pageOf(name: PageName): ComponentType<PageProps> {
  return entry(name).Component;
}
