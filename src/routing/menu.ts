import { ROUTES, type MenuName, type ResourceName } from './routes.js';

/**
 * The side menus of spec section 2, derived from the route table: the account menu (account screens) and
 * the admin menu (admin screens and the store analytics group). Whether an entry shows is the access
 * control provider's answer for its resource (src/components/layout/SideMenu.tsx asks it).
 */
export interface MenuEntry {
  key: string;
  path: string;
  labelKey: string;
  resource: ResourceName;
  menu: MenuName;
}

function menu(...names: MenuName[]): MenuEntry[] {
  return ROUTES.flatMap((route) =>
    route.layout === 'account' && route.menu && names.includes(route.menu)
      ? [{ key: route.path, path: `/${route.path}`, labelKey: route.titleKey, resource: route.resource, menu: route.menu }]
      : [],
  );
}

export const USER_MENU: MenuEntry[] = menu('account');
export const ADMIN_MENU: MenuEntry[] = menu('admin', 'storeAnalytics');
