import AccountCircle from '@mui/icons-material/AccountCircle';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { CanAccess, useGetIdentity, useLogout } from '@refinedev/core';
import { useId, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../contract/users.js';
import { ADMIN_LOGIN_PATH, isAdminPath, LOGIN_PATH, PROFILE_PATH } from '../../routing/guard.js';
import { LOCALES, splitLocale } from '../../routing/locale.js';
import { USER_MENU } from '../../routing/menu.js';
import { LanguageSwitch } from '../LanguageSwitch.js';
import { useLocale } from '../LocaleScope.js';
import { MenuButton } from './Sider.js';
import { useAdminLanding, useReachable } from './SideMenu.js';

/** Top bar of the signed-in area: menu toggle, view switch (admins), language, account menu. */
export function AccountHeader() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const { data: user } = useGetIdentity<Me>();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const adminArea = isAdminPath(splitLocale(location.pathname).path);
  // Issue 47: each staff role's admin area starts on the first screen it may see.
  const adminLanding = useAdminLanding();
  const canOpenAdminArea = adminLanding !== null;
  const userMenu = useReachable(USER_MENU);
  const { language, switchTo } = useLocale();
  // Issue 20 item 10: on a phone the view switch, the language and the email do not fit one row; they
  // fold into the account menu behind one icon.
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const close = () => setAnchor(null);
  const openMenu = (event: { currentTarget: HTMLElement }) => setAnchor(event.currentTarget);
  const menuButton = {
    'aria-haspopup': 'menu' as const,
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? ('true' as const) : undefined,
    'aria-label': t('menu.openUserMenu'),
    onClick: openMenu,
  };

  return (
    <AppBar position="sticky" color="default" elevation={1}>
      <Toolbar sx={{ gap: 2 }}>
        <MenuButton />
        <Box sx={{ flex: 1 }} />
        {canOpenAdminArea && !compact && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={adminArea ? 'admin' : 'user'}
            aria-label={t('header.viewMode')}
            onChange={(_, mode: 'user' | 'admin' | null) => {
              if (mode) void navigate(localize(mode === 'admin' && adminLanding ? adminLanding : PROFILE_PATH));
            }}
          >
            <ToggleButton value="user">{t('header.viewUser')}</ToggleButton>
            <ToggleButton value="admin">{t('header.viewAdmin')}</ToggleButton>
          </ToggleButtonGroup>
        )}
        {!compact && <LanguageSwitch />}
        {compact ? (
          <IconButton color="inherit" {...menuButton}>
            <AccountCircle />
          </IconButton>
        ) : (
          <Button color="inherit" {...menuButton} sx={{ textTransform: 'none' }}>
            {user?.email ?? '…'}
          </Button>
        )}
        <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close}>
          {compact && [
            <ListSubheader key="email" sx={{ lineHeight: 2.5 }}>
              {user?.email ?? '…'}
            </ListSubheader>,
            ...(canOpenAdminArea
              ? [
                  <MenuItem key="view-user" selected={!adminArea} component={RouterLink} to={localize(PROFILE_PATH)} onClick={close}>
                    {t('header.viewUser')}
                  </MenuItem>,
                  <MenuItem key="view-admin" selected={adminArea} component={RouterLink} to={localize(adminLanding ?? PROFILE_PATH)} onClick={close}>
                    {t('header.viewAdmin')}
                  </MenuItem>,
                  <Divider key="view-divider" />,
                ]
              : []),
            ...LOCALES.map((locale) => (
              <MenuItem key={`language-${locale}`} selected={language === locale} component={RouterLink} to={switchTo(locale)} lang={locale} onClick={close}>
                {t(`languages.${locale}`)}
              </MenuItem>
            )),
            <Divider key="language-divider" />,
          ]}
          {userMenu.map((entry) => (
            <CanAccess key={entry.key} resource={entry.resource} action="list" params={{}}>
              <MenuItem component={RouterLink} to={localize(entry.path)} onClick={() => setAnchor(null)}>
                {t(entry.labelKey)}
              </MenuItem>
            </CanAccess>
          ))}
          <Divider />
          <SignOutItem redirectTo={localize(adminArea ? ADMIN_LOGIN_PATH : LOGIN_PATH)} onClick={close} />
        </Menu>
      </Toolbar>
    </AppBar>
  );
}

/**
 * The account menu's "Sign out". Its own component, so Refine's logout hook (a mutation, the router's
 * bindings, the notifications) is set up when the menu opens, not in every render of the top bar during
 * each signed-in screen's load (the top bar was 57 of a 95 ms task on Lighthouse's phone, 2026-11-27).
 */
function SignOutItem({ redirectTo, onClick }: { redirectTo: string; onClick: () => void }) {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout<{ redirectTo: string }>();
  return (
    <MenuItem
      onClick={() => {
        onClick();
        logout({ redirectTo });
      }}
    >
      {t('menu.logout')}
    </MenuItem>
  );
}
