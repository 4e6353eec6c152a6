import { inject } from 'vitest';
import type { RouteEntry } from '../../src/routing/routes.js';
import { createVerifiedUser, url } from './browser.js';

/**
 * What the walks over every route of the route table share (the accessibility walk and the 390 px walk):
 * who visits a route, a concrete address for its pattern, and the tokens of a user and the admin.
 */
export type Visitor = 'visitor' | 'user' | 'admin';

export function visitorOf(route: RouteEntry): Visitor {
  if (route.access === 'admin') return 'admin';
  if (route.access === 'user') return 'user';
  return 'visitor';
}

/** An id no account has: a record page walked without a real one shows its "not found" page. */
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The address of a route pattern under a locale prefix ('/en', '/de'). A record's `:id` is the walk's
 * own user when given (the admin user page shows a real account), else an id that matches nothing.
 */
export function addressOf(route: RouteEntry, prefix: string, subject: { userId?: string } = {}): string {
  const path = `/${route.path}`
    .replace(':id', subject.userId ?? NO_SUCH_ID)
    .replace(':type', 'subscription')
    .replace(':tab', 'login')
    .replace(':priceId?', 'pri_monthly')
    .replace(':token', 'sample-token')
    .replace('*', 'no-such-page');
  return `${prefix}${path}`.replace(/\/$/, '') || '/';
}

async function accessToken(email: string, password: string, admin: boolean): Promise<string> {
  const response = await fetch(url(admin ? '/api/auth/admin-login' : '/api/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The access tokens a walk signs in with: a fresh verified user's and the seeded admin's, and the user's id. */
export async function walkTokens(): Promise<{ user: string; admin: string; userId: string }> {
  const user = await createVerifiedUser();
  const token = await accessToken(user.email, user.password, false);
  const me = await fetch(url('/api/users/me'), { headers: { Authorization: `Bearer ${token}` } });
  return {
    user: token,
    admin: await accessToken(inject('adminEmail'), inject('adminPassword'), true),
    userId: ((await me.json()) as { id: string }).id,
  };
}
