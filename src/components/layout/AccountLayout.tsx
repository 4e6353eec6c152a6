import { ThemedLayout, ThemedSider } from '@refinedev/mui';
import { Outlet } from 'react-router';
import { AccountHeader } from './AccountHeader.js';
import { Brand } from './Brand.js';
import { SideMenu } from './SideMenu.js';

function Sider() {
  return <ThemedSider Title={Brand} render={() => <SideMenu />} />;
}

/** The signed-in frame (users and admins): Refine's ThemedLayout with our menus and header. */
export default function AccountLayout() {
  return (
    <ThemedLayout Header={AccountHeader} Sider={Sider} Title={Brand}>
      <Outlet />
    </ThemedLayout>
  );
}
