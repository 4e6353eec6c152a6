import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useGetIdentity } from '@refinedev/core';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '../../../contract/roles.js';
import type { Me } from '../../../contract/users.js';
import { isAdminPath } from '../../routing/guard.js';
import { splitLocale } from '../../routing/locale.js';
import { ADMIN_MENU, USER_MENU, type MenuEntry } from '../../routing/menu.js';
import { useLocale } from '../LocaleScope.js';

/**
 * The side menu: the user menu on account pages; for admins in the admin area, the admin menu with the
 * store analytics group. Which one shows follows the area the view switch moved to.
 */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const location = useLocation();
  const { data: user } = useGetIdentity<Me>();
  const path = splitLocale(location.pathname).path;
  const adminView = isAdmin(user?.roles) && isAdminPath(path);
  const entries = adminView ? ADMIN_MENU : USER_MENU;

  const item = (entry: MenuEntry) => {
    const selected = path === entry.path;
    return (
      <ListItem key={entry.key} disablePadding>
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
    );
  };

  return (
    <nav aria-label={t('menu.navigation')}>
      <List subheader={collapsed ? undefined : <ListSubheader>{t(adminView ? 'menu.admin' : 'menu.account')}</ListSubheader>}>
        {entries.filter((e) => !e.group).map(item)}
      </List>
      {adminView && (
        <List subheader={collapsed ? undefined : <ListSubheader>{t('menu.storeAnalytics')}</ListSubheader>}>
          {entries.filter((e) => e.group === 'storeAnalytics').map(item)}
        </List>
      )}
    </nav>
  );
}
