import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PAGE_MODULES, type PageName } from '../routing/routes.js';

export interface PageProps {
  /** The route's title key (spec section 2 screens); pages that know their title may ignore it. */
  titleKey: string;
}

type PageModule = { default: ComponentType<PageProps> };
const modules = import.meta.glob<PageModule>('./*/*.tsx');

function load(name: PageName): LazyExoticComponent<ComponentType<PageProps>> {
  const loader = modules[`./${PAGE_MODULES[name]}.tsx`];
  if (!loader) throw new Error(`No page module for ${name}`);
  return lazy(loader);
}

/** Screens by name, each in its own chunk so a route downloads only what it shows. */
export const PAGES = Object.fromEntries(
  (Object.keys(PAGE_MODULES) as PageName[]).map((name) => [name, load(name)]),
) as Record<PageName, LazyExoticComponent<ComponentType<PageProps>>>;
