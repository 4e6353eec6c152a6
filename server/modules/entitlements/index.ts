/**
 * What a user may do with the desktop application, read from everything they hold (a subscription, the
 * licences, coupon access, Lite keys): the one answer the desktop API, the account home and the seat
 * limit share. A read model without routes or tables of its own: it asks billing, licensing, coupons and
 * releases (a build's release line) through their public functions.
 */
export { entitlementsFrom, entitlementsOf, holdingsOf, type Entitlements, type Holdings } from './entitlements.js';
export { HOLDINGS_MAX_AGE_MS, KeptEntitlements } from './kept.js';
