import { ACCOUNT_RESOURCES } from '../../providers/accountResources.js';
import { http } from '../../providers/index.js';
import type { PageName, ResourceName } from '../routing/routes.js';

/**
 * The record a screen shows first, the session user's own (`useOne({ resource, id: 'me' })` on that screen).
 * It is asked for as the app starts, beside the screen's code, and src/refine.ts puts it in Refine's cache
 * before the first render (primeFirstScreen), so the screen is drawn with it. Asked for by the screen's hook
 * after its first render, it kept a spinner or skeleton on screen while it came: a further round trip, and on the
 * home a spinner redrawn every frame while the load's code still ran.
 */
export const FIRST_RECORDS: Partial<Record<PageName, ResourceName>> = {
  home: 'overview',
  subscription: 'subscription',
  paymentOptions: 'subscription',
  deviceManager: 'seats',
};

export interface FirstRecord {
  resource: ResourceName;
  /** The API's answer, as the data provider's `getOne` returns it. */
  answer: { data: unknown };
}

/** Asks for a screen's first record; null when the screen has none or the request failed (its hook asks again and shows the error). */
export function askFirstRecord(page: PageName): Promise<FirstRecord | null> {
  const resource = FIRST_RECORDS[page];
  const path = resource ? ACCOUNT_RESOURCES[resource]?.one : undefined;
  if (!resource || !path) return Promise.resolve(null);
  return http<unknown>(path).then(
    (data) => ({ resource, answer: { data } }),
    () => null,
  );
}
