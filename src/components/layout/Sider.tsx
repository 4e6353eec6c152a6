import ChevronLeft from '@mui/icons-material/ChevronLeft';
import MenuIcon from '@mui/icons-material/Menu';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useThemedLayoutContext } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import { Brand } from './Brand.js';
import { SideMenu } from './SideMenu.js';

const WIDTH = 240;
const COLLAPSED_WIDTH = 64;

/**
 * The sider of the signed-in frame, on ThemedLayout's collapse and mobile-drawer state. Refine's own
 * ThemedSider wraps custom menus in a list and has an unlabelled collapse button; this one keeps the
 * navigation landmark valid and every control named in the user's language.
 */
export function Sider() {
  const { t } = useTranslation();
  const { siderCollapsed, setSiderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
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

  return (
    <>
      <Box sx={{ width, flexShrink: 0, display: { xs: 'none', md: 'block' }, transition: 'width 0.2s' }} />
      <Drawer
        variant="temporary"
        open={mobileSiderOpen}
        onClose={() => setMobileSiderOpen(false)}
        ModalProps={{ keepMounted: true }}
        sx={{ display: { xs: 'block', md: 'none' } }}
      >
        <Box sx={{ width: WIDTH }} onClick={() => setMobileSiderOpen(false)}>
          {header(false, false)}
          <SideMenu collapsed={false} />
        </Box>
      </Drawer>
      <Drawer
        variant="permanent"
        open
        sx={{
          display: { xs: 'none', md: 'block' },
          '& .MuiDrawer-paper': { width, overflowX: 'hidden', transition: 'width 0.2s' },
        }}
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
