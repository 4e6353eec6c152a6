/**
 * The side menus of spec section 2: the user menu (account screens) and the admin menu (admin screens
 * and the store analytics entries). `resource` ties an entry to Refine's access control.
 */
export interface MenuEntry {
  key: string;
  path: string;
  labelKey: string;
  resource: string;
  group?: 'storeAnalytics';
}

export const USER_MENU: MenuEntry[] = [
  { key: 'profile', path: '/account/profile', labelKey: 'routes.profile', resource: 'profile' },
  { key: 'subscription', path: '/account/subscription', labelKey: 'routes.subscription', resource: 'subscription' },
  { key: 'payment-options', path: '/account/payment-options', labelKey: 'routes.paymentOptions', resource: 'payment-options' },
  { key: 'billing-info', path: '/account/billing-info', labelKey: 'routes.billingInfo', resource: 'billing-info' },
  { key: 'purchase-history', path: '/account/purchase-history', labelKey: 'routes.purchaseHistory', resource: 'purchase-history' },
  { key: 'licences', path: '/account/licences', labelKey: 'routes.licences', resource: 'licences' },
  { key: 'device-manager', path: '/account/device-manager', labelKey: 'routes.deviceManager', resource: 'device-manager' },
  { key: 'security', path: '/account/security', labelKey: 'routes.security', resource: 'security' },
];

export const ADMIN_MENU: MenuEntry[] = [
  { key: 'analytics', path: '/admin/analytics', labelKey: 'routes.analytics', resource: 'analytics' },
  { key: 'cohort', path: '/admin/cohort', labelKey: 'routes.cohort', resource: 'cohorts' },
  { key: 'users', path: '/admin/users', labelKey: 'routes.users', resource: 'users' },
  { key: 'shapelab-lite', path: '/admin/shapelab-lite', labelKey: 'routes.shapelabLite', resource: 'lite-keys' },
  { key: 'steam', path: '/admin/analytics/steam', labelKey: 'routes.steamAnalytics', resource: 'analytics-steam', group: 'storeAnalytics' },
  { key: 'subscription-analytics', path: '/admin/analytics/subscription', labelKey: 'routes.subscriptionAnalytics', resource: 'analytics-subscription', group: 'storeAnalytics' },
  { key: 'metapc', path: '/admin/analytics/metapc-store', labelKey: 'routes.metaPcStoreAnalytics', resource: 'analytics-metapc', group: 'storeAnalytics' },
  { key: 'perpetual-2024', path: '/admin/analytics/perpetual-2024', labelKey: 'routes.perpetual2024Analytics', resource: 'analytics-perpetual-2024', group: 'storeAnalytics' },
  { key: 'viveport', path: '/admin/analytics/viveport', labelKey: 'routes.viveportAnalytics', resource: 'analytics-viveport', group: 'storeAnalytics' },
  { key: 'android', path: '/admin/analytics/android', labelKey: 'routes.androidAnalytics', resource: 'analytics-android', group: 'storeAnalytics' },
];

