import { Refine } from '@refinedev/core';
import { ThemedLayout, ThemedSider } from '@refinedev/mui';
import { Outlet } from 'react-router';
import { refineProps } from '../../refine.js';
import { AccountHeader } from './AccountHeader.js';
import { Brand } from './Brand.js';
import { SideMenu } from './SideMenu.js';

function Sider() {
  return <ThemedSider Title={Brand} render={() => <SideMenu />} />;
}

/**
 * The signed-in frame (users and admins): <Refine> with the app's providers around Refine's ThemedLayout
 * with our menus and header. It is a lazy chunk: sign-in and registration never load it.
 */
export default function AccountLayout() {
  return (
    <Refine {...refineProps}>
      <ThemedLayout Header={AccountHeader} Sider={Sider} Title={Brand}>
        <Outlet />
      </ThemedLayout>
    </Refine>
  );
}
