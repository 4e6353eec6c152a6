import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PAGE_MODULES, type PageName } from '../routing/routes.js';

export interface PageProps {
  /** The route's title key (spec section 2 screens); pages that know their title may ignore it. */
  titleKey: string;
}

type PageModule = { default: ComponentType<PageProps> };
/** Public screens are listed here; the signed-in frame's are listed in their own chunk (account-pages.ts). */
const publicModules = import.meta.glob<PageModule>(['./auth/*.tsx', './public/*.tsx']);

function load(name: PageName): LazyExoticComponent<ComponentType<PageProps>> {
  const key = `./${PAGE_MODULES[name]}.tsx`;
  const loader = publicModules[key];
  if (loader) return lazy(loader);
  return lazy(async () => {
    const { ACCOUNT_PAGE_LOADERS } = await import('./account-pages.js');
    const accountLoader = ACCOUNT_PAGE_LOADERS[key];
    if (!accountLoader) throw new Error(`No page module for ${name}`);
    return accountLoader();
  });
}

/** Screens by name, each in its own chunk so a route downloads only what it shows. */
export const PAGES = Object.fromEntries(
  (Object.keys(PAGE_MODULES) as PageName[]).map((name) => [name, load(name)]),
) as Record<PageName, LazyExoticComponent<ComponentType<PageProps>>>;
