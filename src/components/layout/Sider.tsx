import ChevronLeft from '@mui/icons-material/ChevronLeft';
import MenuIcon from '@mui/icons-material/Menu';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useThemedLayoutContext } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import { Brand } from './Brand.js';
import { SideMenu } from './SideMenu.js';

const WIDTH = 240;
const COLLAPSED_WIDTH = 64;

/**
 * The sider of the signed-in frame, on Refine's layout state (collapse, phone drawer; Frame.tsx). Refine's own
 * ThemedSider wraps custom menus in a list and has an unlabelled collapse button; this one keeps the
 * navigation landmark valid and every control named in the user's language.
 *
 * Only the drawer the screen's width calls for is rendered, and a phone's drawer only while it is open:
 * both drawers, one hidden by CSS and one kept mounted off screen, rendered the menu twice on every
 * signed-in page load, and the hidden drawer's slide measured the page layout in the middle of it (issue 18:
 * main-thread work on a phone, bench/README.md of 2026-11-26).
 */
export function Sider() {
  const { t } = useTranslation();
  const { siderCollapsed, setSiderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
  // Read at the first render (noSsr), so a phone never renders the desktop drawer first.
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const width = siderCollapsed ? COLLAPSED_WIDTH : WIDTH;
  const header = (collapsed: boolean, toggle: boolean) => (
    <Box
      sx={{
        height: 64,
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'space-between',
        px: collapsed ? 0 : 1,
        borderBottom: 1,
        borderColor: 'divider',
        flexShrink: 0,
      }}
    >
      <Brand collapsed={collapsed} />
      {toggle && (
        <IconButton
          size="small"
          onClick={() => setSiderCollapsed(!collapsed)}
          aria-label={t(collapsed ? 'menu.expand' : 'menu.collapse')}
          aria-expanded={!collapsed}
        >
          {collapsed ? <ChevronRight /> : <ChevronLeft />}
        </IconButton>
      )}
    </Box>
  );

  if (!wide) {
    return (
      <Drawer variant="temporary" open={mobileSiderOpen} onClose={() => setMobileSiderOpen(false)}>
        <Box sx={{ width: WIDTH }} onClick={() => setMobileSiderOpen(false)}>
          {header(false, false)}
          <SideMenu collapsed={false} />
        </Box>
      </Drawer>
    );
  }
  // The breakpoint in CSS as well: when a window narrows, CSS hides the rail at once, before React hears of
  // the change and swaps the drawers (a phone-width page is never wider than its screen meanwhile).
  return (
    <>
      <Box sx={{ width, flexShrink: 0, display: { xs: 'none', md: 'block' }, transition: 'width 0.2s' }} />
      <Drawer
        variant="permanent"
        open
        sx={{ display: { xs: 'none', md: 'block' }, '& .MuiDrawer-paper': { width, overflowX: 'hidden', transition: 'width 0.2s' } }}
      >
        {header(siderCollapsed, true)}
        <SideMenu collapsed={siderCollapsed} />
      </Drawer>
    </>
  );
}

/** Opens the sider: the mobile drawer on small screens, the collapsed rail on large ones. */
export function MenuButton() {
  const { t } = useTranslation();
  const { siderCollapsed, setSiderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
  return (
    <>
      <IconButton
        color="inherit"
        edge="start"
        aria-label={t('menu.open')}
        onClick={() => setMobileSiderOpen(!mobileSiderOpen)}
        sx={{ display: { xs: 'inline-flex', md: 'none' } }}
      >
        <MenuIcon />
      </IconButton>
      {siderCollapsed && (
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t('menu.expand')}
          onClick={() => setSiderCollapsed(false)}
          sx={{ display: { xs: 'none', md: 'inline-flex' } }}
        >
          <MenuIcon />
        </IconButton>
      )}
    </>
  );
}
