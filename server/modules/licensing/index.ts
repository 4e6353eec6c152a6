/**
 * Perpetual licences: what a purchase or a coupon grants (one live licence per user and release) and the
 * free-updates rule of spec section 9. Billing lists them with their payments and takes them back on a
 * return; no routes of its own.
 */
export { grantPurchasedLicences, ownedPerpetual, updatesUntil, type PurchasedLine } from './licences.js';
export { licenceRecordsOf, licencesForSupport } from './account-data-repo.js';
