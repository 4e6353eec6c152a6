import routerProvider from '@refinedev/react-router';
import type { RefineProps, ResourceProps } from '@refinedev/core';
import { createAccessControlProvider } from '../providers/accessControlProvider.js';
import { createDataProvider } from '../providers/dataProvider.js';
import { openStream } from '../providers/http.js';
import { createI18nProvider } from '../providers/i18nProvider.js';
import { createLiveProvider } from '../providers/liveProvider.js';
import { authProvider, http } from '../providers/index.js';
import { i18n } from './i18n.js';
import { accessOf, RESOURCES, ROUTES, type ResourceName } from './routing/routes.js';

/** A messageKey's text in the screen's language (DEFAULT's when the key is unknown). */
export function messageText(messageKey: string): string {
  return i18n.t(`errors.${messageKey}`, { defaultValue: i18n.t('errors.DEFAULT') });
}

/** A screen of one record (`.../:id`): the resource's show page. */
const isShowPath = (path: string) => path.endsWith('/:id');

/**
 * Refine's resources, from the route table: each resource with the path of the screen that lists it
 * (the menu's entry, when it has one), the screen that shows one of its records (a path ending in
 * `/:id`, so useShow reads the id from the address and useNavigation's `show` builds it), and the
 * access it needs.
 */
export const resources: ResourceProps[] = (Object.keys(RESOURCES) as ResourceName[]).map((name) => {
  const screens = ROUTES.filter((route) => route.layout === 'account' && route.resource === name);
  const lists = screens.filter((route) => !isShowPath(route.path));
  const list = lists.find((route) => route.menu) ?? lists[0];
  const show = screens.find((route) => isShowPath(route.path));
  return { name, ...(list ? { list: `/${list.path}` } : {}), ...(show ? { show: `/${show.path}` } : {}), meta: { access: RESOURCES[name] } };
});

/**
 * Refine's configuration: the providers, the resources the menus, access control and data hooks know
 * about (spec sections 2 and 6), and the options. <Refine> itself is mounted by the signed-in frame
 * (src/components/layout/AccountLayout.tsx, which adds the notification provider), so the public pages
 * never download Refine.
 */
export const refineProps = {
  routerProvider,
  dataProvider: createDataProvider(http, { translate: messageText }),
  liveProvider: createLiveProvider(openStream),
  authProvider,
  accessControlProvider: createAccessControlProvider({ getRoles: () => authProvider.getPermissions(), accessOf }),
  i18nProvider: createI18nProvider(i18n),
  resources,
  options: { disableTelemetry: true, syncWithLocation: true, warnWhenUnsavedChanges: false, liveMode: 'auto' },
} satisfies Omit<RefineProps, 'children'>;
