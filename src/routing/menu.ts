import { ADMIN_HOME_PATH } from './guard.js';
import { paths } from './paths.js';
import { RESOURCES, ROUTES, type MenuName, type ResourceName } from './routes.js';

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

/** Whether the permissions open a menu entry's screen. */
function opens(entry: MenuEntry, permissions: readonly string[]): boolean {
  const access = RESOURCES[entry.resource];
  return access === 'user' || permissions.includes(access);
}

/**
 * Issue 47: the admin screen a staff member lands on: the users list when they may see it (admins, support),
 * else the first screen of the admin menu they may see (an analyst's is the dashboard); null for someone who
 * may see none (a customer).
 */
export function firstAdminPath(permissions: readonly string[]): string | null {
  const entries = ADMIN_MENU.filter((entry) => opens(entry, permissions));
  return (entries.find((entry) => entry.path === ADMIN_HOME_PATH) ?? entries[0])?.path ?? null;
}

/**
 * Where someone lands after the admin sign-in, and from a screen they may not see (spec section 2: "missing
 * required role: sent to root"; issue 47: staff to the first admin screen theirs): staff on their first admin
 * screen, everyone else on the account home.
 */
export function landingOf(permissions: readonly string[] | undefined): string {
  return firstAdminPath(permissions ?? []) ?? paths.home;
}
