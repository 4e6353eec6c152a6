/**
 * Perpetual licences: what a purchase or a coupon grants (one live licence per user and release) and the
 * free-updates rule of spec section 9; the owner of the licences table, full and Lite. Billing lists them
 * with their payments and takes them back on a return, the entitlements read what a user holds; no routes
 * of its own.
 */
export { grantPurchasedLicences, ownedPerpetual, updatesUntil, type PurchasedLine } from './licences.js';
export { grantCouponLicence, grantLiteLicence } from './redeemed-licences-repo.js';
export { heldLicences, perpetualLicenceOf, perpetualLicencesOf, revokeLicence, revokeLicencesOfTransaction, type HeldLicence, type PerpetualLicenceRow } from './repo.js';
export { licenceRecordsOf, licencesForSupport } from './account-data-repo.js';
