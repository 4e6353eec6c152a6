import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Refine, type AccessControlProvider, type AuthProvider } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLE_PERMISSIONS, type Permission } from '../../contract/permissions.js';
import { createAccessControlProvider } from '../../providers/accessControlProvider.js';
import { SideMenu } from '../../src/components/layout/SideMenu.js';
import AccessGate from '../../src/routing/AccessGate.js';
import { ADMIN_MENU, firstAdminPath, landingOf, USER_MENU } from '../../src/routing/menu.js';
import { accessOf, RESOURCES, ROUTES } from '../../src/routing/routes.js';
import { resources } from '../../src/refine.js';

/** A signed-in user whose `GET /users/me` says these permissions (issue 47). */
const signedIn = (permissions: readonly Permission[] = []): AuthProvider => ({
  login: () => Promise.resolve({ success: true }),
  logout: () => Promise.resolve({ success: true }),
  check: () => Promise.resolve({ authenticated: true }),
  onError: () => Promise.resolve({}),
  getIdentity: () => Promise.resolve({ id: 'u1', email: 'someone@example.com', permissions }),
});

/** The signed-in frame's pieces under a <Refine> whose access control answers as `can` says. */
function renderAt(path: string, can: AccessControlProvider['can'], children: React.ReactNode, permissions: readonly Permission[] = [], landings = false) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Refine routerProvider={routerProvider} authProvider={signedIn(permissions)} accessControlProvider={{ can }} resources={resources} options={{ disableTelemetry: true }}>
        <Routes>
          <Route path="/" element={<p>root page</p>} />
          {landings && <Route path="/admin/analytics" element={<AccessGate resource="analytics"><p>analytics screen</p></AccessGate>} />}
          <Route path="*" element={children} />
        </Routes>
      </Refine>
    </MemoryRouter>,
  );
}

/** The portal's own provider over these permissions. */
const portal = (permissions: readonly Permission[]) => createAccessControlProvider({ getPermissions: () => Promise.resolve(permissions), accessOf });

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
    const { unmount } = renderAt('/admin/analytics', allowAll, <SideMenu collapsed={false} />, PERMISSIONS);
    await waitFor(() => expect(screen.getByRole('link', { name: users.labelKey })).toBeDefined(), WAIT);
    unmount();

    // The same user, the same page: the provider now refuses `users`, so the entry goes; the others stay.
    const { unmount: again } = renderAt('/admin/analytics', noUsers, <SideMenu collapsed={false} />, PERMISSIONS);
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(ADMIN_MENU.length - 1), WAIT);
    expect(screen.queryByRole('link', { name: users.labelKey })).toBeNull();
    again();

    // Issue 47: with no staff permission there is no admin area: the account menu shows on admin paths too.
    renderAt('/admin/analytics', allowAll, <SideMenu collapsed={false} />, []);
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(USER_MENU.length), WAIT);
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

  it("the portal's provider answers from the server's permissions: screens by their resource, actions by name; unknown ones are refused", async () => {
    expect(await portal([]).can({ resource: 'users', action: 'list' })).toMatchObject({ can: false });
    expect(await portal(PERMISSIONS).can({ resource: 'users', action: 'list' })).toMatchObject({ can: true });
    expect(await portal([]).can({ resource: 'invoices', action: 'list' })).toMatchObject({ can: true });
    expect(await portal(PERMISSIONS).can({ resource: 'no-such-screen', action: 'list' })).toMatchObject({ can: false });
    // Issue 47: support opens users but neither deletes them nor refunds; an analyst sees the figures only.
    const support = portal(ROLE_PERMISSIONS.support);
    expect(await support.can({ resource: 'users', action: 'show' })).toMatchObject({ can: true });
    expect(await support.can({ resource: 'users', action: 'viewAs' })).toMatchObject({ can: true });
    expect(await support.can({ resource: 'users', action: 'delete' })).toMatchObject({ can: false });
    expect(await support.can({ resource: 'users', action: 'roles' })).toMatchObject({ can: false });
    expect(await support.can({ resource: 'billing', action: 'refund' })).toMatchObject({ can: false });
    expect(await support.can({ resource: 'analytics', action: 'list' })).toMatchObject({ can: false });
    const analyst = portal(ROLE_PERMISSIONS.analyst);
    expect(await analyst.can({ resource: 'cohorts', action: 'list' })).toMatchObject({ can: true });
    expect(await analyst.can({ resource: 'users', action: 'list' })).toMatchObject({ can: false });
    expect(await portal(PERMISSIONS).can({ resource: 'users', action: 'deletee' })).toMatchObject({ can: false, reason: 'NOT_FOUND' });
  });

  it('each role lands on the first admin screen it may see; a customer on the root', () => {
    expect(firstAdminPath(ROLE_PERMISSIONS.admin)).toBe('/admin/users');
    expect(firstAdminPath(ROLE_PERMISSIONS.support)).toBe('/admin/users');
    expect(firstAdminPath(ROLE_PERMISSIONS.analyst)).toBe('/admin/analytics');
    expect(firstAdminPath([])).toBeNull();
    expect(landingOf([])).toBe('/');
    expect(landingOf(undefined)).toBe('/');
    expect(landingOf(['jobs.read'])).toBe('/admin/jobs');
  });

  it('a staff member refused a screen lands on their first one, not on the root', async () => {
    const { unmount } = renderAt('/admin/analytics', (params) => portal(ROLE_PERMISSIONS.support).can(params), <AccessGate resource="users"><p>users screen</p></AccessGate>, ROLE_PERMISSIONS.support, true);
    await waitFor(() => expect(screen.getByText('users screen')).toBeDefined(), WAIT);
    expect(screen.queryByText('analytics screen')).toBeNull();
    unmount();
    renderAt('/admin/users', (params) => portal(ROLE_PERMISSIONS.analyst).can(params), <AccessGate resource="users"><p>users screen</p></AccessGate>, ROLE_PERMISSIONS.analyst, true);
    await waitFor(() => expect(screen.getByText('analytics screen')).toBeDefined(), WAIT);
    expect(screen.queryByText('users screen')).toBeNull();
  });

  it('every resource, menu entry and screen comes from the one route table', () => {
    expect(resources.map((resource) => resource.name).sort()).toEqual(Object.keys(RESOURCES).sort());
    for (const entry of [...USER_MENU, ...ADMIN_MENU]) {
      expect(ROUTES.some((route) => route.layout === 'account' && `/${route.path}` === entry.path && route.resource === entry.resource)).toBe(true);
    }
    for (const route of ROUTES) if (route.layout === 'account') expect(route.access).toBe(RESOURCES[route.resource]);
  });
});
