/**
 * The signed-in user's own resources and where the API keeps them (spec section 7). A `one` resource is
 * the user's single record (`useOne({ resource, id: 'me' })`, the id is not sent); a `list` resource
 * answers a plain array. `item` is the path of one of its records, for deleting it. Resources not named
 * here (the admin lists: users, lite-keys) follow the REST paths `/{resource}` and `/{resource}/{id}`.
 */
export const ACCOUNT_RESOURCES: Record<string, { one?: string; list?: string; item?: (id: string) => string; update?: 'PATCH' | 'PUT' }> = {
  overview: { one: '/users/me/overview' },
  subscription: { one: '/subscription/user' },
  'payment-method': { one: '/subscription/payment-method' },
  'billing-info': { one: '/subscription/billing-info', update: 'PATCH' },
  invoices: { list: '/subscription/billing/invoice' },
  licences: { list: '/perpetual/license' },
  seats: { one: '/perpetual/seats', item: (id) => `/perpetual/seats?id=${encodeURIComponent(id)}` },
  sessions: { list: '/users/me/sessions', item: (id) => `/users/me/sessions/${encodeURIComponent(id)}` },
  // Issue 44: the second factor's state, and the passkeys (created at the list's path, renamed and removed at the item's).
  'two-factor': { one: '/users/me/two-factor' },
  passkeys: { list: '/users/me/passkeys', item: (id) => `/users/me/passkeys/${encodeURIComponent(id)}` },
  // Issue 47: when support viewed the account as its owner sees it (the security page).
  'support-views': { list: '/users/me/views' },
  plans: { list: '/paddle/list-plans' },
  'perpetual-products': { list: '/perpetual/products' },
};
