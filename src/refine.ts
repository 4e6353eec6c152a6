import routerProvider from '@refinedev/react-router';
import type { RefineProps } from '@refinedev/core';
import { createAccessControlProvider } from '../providers/accessControlProvider.js';
import { createDataProvider } from '../providers/dataProvider.js';
import { createI18nProvider } from '../providers/i18nProvider.js';
import { authProvider, http } from '../providers/index.js';
import { i18n } from './i18n.js';

/**
 * Refine's configuration: the providers, the resources the menus, access control and data hooks know
 * about (spec sections 2 and 6), and the options. <Refine> itself is mounted by the signed-in frame
 * (src/components/layout/AccountLayout.tsx), so the public pages never download Refine.
 */
export const refineProps = {
  routerProvider,
  dataProvider: createDataProvider(http),
  authProvider,
  accessControlProvider: createAccessControlProvider(() => authProvider.getPermissions()),
  i18nProvider: createI18nProvider(i18n),
  resources: [
    { name: 'profile', list: '/account/profile' },
    { name: 'subscription', list: '/account/subscription' },
    { name: 'payment-options', list: '/account/payment-options' },
    { name: 'billing-info', list: '/account/billing-info' },
    { name: 'purchase-history', list: '/account/purchase-history' },
    { name: 'licences', list: '/account/licences' },
    { name: 'device-manager', list: '/account/device-manager' },
    { name: 'security', list: '/account/security' },
    { name: 'analytics', list: '/admin/analytics' },
    { name: 'cohorts', list: '/admin/cohort' },
    { name: 'users', list: '/admin/users' },
    { name: 'lite-keys', list: '/admin/shapelab-lite' },
  ],
  options: { disableTelemetry: true, syncWithLocation: true, warnWhenUnsavedChanges: false },
} satisfies Omit<RefineProps, 'children'>;
