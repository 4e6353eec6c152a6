import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Refine, type AccessControlProvider, type AuthProvider } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControlProvider } from '../../providers/accessControlProvider.js';
import { SideMenu } from '../../src/components/layout/SideMenu.js';
import AccessGate from '../../src/routing/AccessGate.js';
import { ADMIN_MENU, USER_MENU } from '../../src/routing/menu.js';
import { accessOf, RESOURCES, ROUTES } from '../../src/routing/routes.js';
import { resources } from '../../src/refine.js';

const signedIn: AuthProvider = {
  login: () => Promise.resolve({ success: true }),
  logout: () => Promise.resolve({ success: true }),
  check: () => Promise.resolve({ authenticated: true }),
  onError: () => Promise.resolve({}),
};

/** The signed-in frame's pieces under a <Refine> whose access control answers as `can` says. */
function renderAt(path: string, can: AccessControlProvider['can'], children: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Refine routerProvider={routerProvider} authProvider={signedIn} accessControlProvider={{ can }} resources={resources} options={{ disableTelemetry: true }}>
        <Routes>
          <Route path="/" element={<p>root page</p>} />
          <Route path="*" element={children} />
        </Routes>
      </Refine>
    </MemoryRouter>,
  );
}

afterEach(cleanup);
/** The provider answers asynchronously; a loaded machine (CI) may take more than waitFor's default second. */
const WAIT = { timeout: 10_000 };

const allowAll: AccessControlProvider['can'] = () => Promise.resolve({ can: true });
const noUsers: AccessControlProvider['can'] = ({ resource }) => Promise.resolve({ can: resource !== 'users' });
const noInvoices: AccessControlProvider['can'] = ({ resource }) => Promise.resolve({ can: resource !== 'invoices' });

// Each test waits up to WAIT twice, so it gets more than the unit project's 5 s default.
describe('the access control provider decides what a user sees (issue 18)', { timeout: 30_000 }, () => {
  it('the admin menu shows what it allows and hides what it refuses', async () => {
    const users = ADMIN_MENU.find((entry) => entry.resource === 'users');
    if (!users) throw new Error('the admin menu has no users entry');
    const { unmount } = renderAt('/admin/analytics', allowAll, <SideMenu collapsed={false} />);
    await waitFor(() => expect(screen.getByRole('link', { name: users.labelKey })).toBeDefined(), WAIT);
    unmount();

    // The same user, the same page: the provider now refuses `users`, so the entry and the admin area go.
    renderAt('/admin/analytics', noUsers, <SideMenu collapsed={false} />);
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(USER_MENU.length), WAIT);
    expect(screen.queryByRole('link', { name: users.labelKey })).toBeNull();
  });

  it('the account menu follows it too', async () => {
    const history = USER_MENU.find((entry) => entry.resource === 'invoices');
    if (!history) throw new Error('the account menu has no purchase history entry');
    renderAt('/account/profile', noInvoices, <SideMenu collapsed={false} />);
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(USER_MENU.length - 1), WAIT);
    expect(screen.queryByRole('link', { name: history.labelKey })).toBeNull();
  });

  it('the route guard shows a screen it allows and sends the user to the root when it refuses', async () => {
    const { unmount } = renderAt('/admin/users', allowAll, <AccessGate resource="users"><p>users screen</p></AccessGate>);
    await waitFor(() => expect(screen.getByText('users screen')).toBeDefined(), WAIT);
    unmount();
    renderAt('/admin/users', noUsers, <AccessGate resource="users"><p>users screen</p></AccessGate>);
    await waitFor(() => expect(screen.getByText('root page')).toBeDefined(), WAIT);
    expect(screen.queryByText('users screen')).toBeNull();
  });

  it("the portal's provider: admin resources need the admin role, unknown resources are refused", async () => {
    const provider = (roles: string[]) => createAccessControlProvider({ getRoles: () => Promise.resolve(roles), accessOf });
    expect(await provider(['user']).can({ resource: 'users', action: 'list' })).toMatchObject({ can: false });
    expect(await provider(['user', 'admin']).can({ resource: 'users', action: 'list' })).toMatchObject({ can: true });
    expect(await provider(['user']).can({ resource: 'invoices', action: 'list' })).toMatchObject({ can: true });
    expect(await provider(['user', 'admin']).can({ resource: 'no-such-screen', action: 'list' })).toMatchObject({ can: false });
  });

  it('every resource, menu entry and screen comes from the one route table', () => {
    expect(resources.map((resource) => resource.name).sort()).toEqual(Object.keys(RESOURCES).sort());
    for (const entry of [...USER_MENU, ...ADMIN_MENU]) {
      expect(ROUTES.some((route) => route.layout === 'account' && `/${route.path}` === entry.path && route.resource === entry.resource)).toBe(true);
    }
    for (const route of ROUTES) if (route.layout === 'account') expect(route.access).toBe(RESOURCES[route.resource]);
  });
});
