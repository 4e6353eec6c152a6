/**
 * What a user may do with the desktop application, read from everything they hold (a subscription, the
 * licences, coupon access, Lite keys): the one answer the desktop API, the account home and the seat
 * limit share. A read model without routes of its own.
 */
export { entitlementsOf, type Entitlements } from './entitlements.js';
