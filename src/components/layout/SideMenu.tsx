import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { CanAccess, useGetIdentity } from '@refinedev/core';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../contract/users.js';
import { isAdminPath, reachableWhileEnrolling } from '../../routing/guard.js';
import { splitLocale } from '../../routing/locale.js';
import { ADMIN_MENU, firstAdminPath, USER_MENU, type MenuEntry } from '../../routing/menu.js';
import { useLocale } from '../LocaleScope.js';

/**
 * The admin screen the user lands on in the admin area (issue 47: the first their permissions open, ./menu.ts),
 * or null when they may see none (a customer, a read-only view) or must set up a second factor first.
 */
export function useAdminLanding(): string | null {
  const { data } = useGetIdentity<Me>();
  const landing = firstAdminPath(data?.permissions ?? []);
  return data?.twoFactorEnrolmentRequired === true ? null : landing;
}

/** Whether the user may go into the admin area: there is a screen of it their permissions open. */
export function useCanOpenAdminArea(): boolean {
  return useAdminLanding() !== null;
}

/**
 * Issue 44: the user is staff who must set up a second factor first. The menus then offer only what the
 * route guard lets them reach (src/routing/guard.ts, reachableWhileEnrolling), and sign-out.
 */
export function useEnrolmentRequired(): boolean {
  const { data } = useGetIdentity<Me>();
  return data?.twoFactorEnrolmentRequired === true;
}

/** The menu entries the user may follow now: all of them, or while enrolling only the security page. */
export function useReachable(entries: readonly MenuEntry[]): MenuEntry[] {
  const enrolling = useEnrolmentRequired();
  return enrolling ? entries.filter((entry) => reachableWhileEnrolling(entry.path)) : [...entries];
}

/**
 * The side menu: the user menu on account pages; for staff in the admin area, the admin menu with the
 * store analytics group. Which one shows follows the area the view switch moved to; each entry shows
 * when the access control provider lets the user see its resource.
 */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const location = useLocation();
  const path = splitLocale(location.pathname).path;
  const adminView = useCanOpenAdminArea() && isAdminPath(path);
  const entries = useReachable(adminView ? ADMIN_MENU : USER_MENU);

  const item = (entry: MenuEntry) => {
    const selected = path === entry.path;
    return (
      // No params: the answer is the resource's, whatever the screen (and the one src/refine.ts puts in first).
      <CanAccess key={entry.key} resource={entry.resource} action="list" params={{}}>
        <ListItem disablePadding>
          <ListItemButton
            component={RouterLink}
            to={localize(entry.path)}
            selected={selected}
            aria-current={selected ? 'page' : undefined}
            aria-label={collapsed ? t(entry.labelKey) : undefined}
          >
            <ListItemText primary={collapsed ? t(entry.labelKey).charAt(0) : t(entry.labelKey)} />
          </ListItemButton>
        </ListItem>
      </CanAccess>
    );
  };

  return (
    <nav aria-label={t('menu.navigation')}>
      <List subheader={collapsed ? undefined : <ListSubheader>{t(adminView ? 'menu.admin' : 'menu.account')}</ListSubheader>}>
        {entries.filter((e) => e.menu !== 'storeAnalytics').map(item)}
      </List>
      {adminView && (
        <List subheader={collapsed ? undefined : <ListSubheader>{t('menu.storeAnalytics')}</ListSubheader>}>
          {entries.filter((e) => e.menu === 'storeAnalytics').map(item)}
        </List>
      )}
    </nav>
  );
}
