import type { Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { usersAndSessions } from './0001-users-and-sessions.js';
import { accounts } from './0002-accounts.js';
import { profileCountry } from './0003-profile-country.js';
import { socialAccounts } from './0004-social-accounts.js';
import { billingCustomers } from './0005-billing-customers.js';
import { billingEvents } from './0006-billing-events.js';
import { transactions } from './0007-transactions.js';
import { licensing } from './0008-licensing.js';
import { adminUsers } from './0009-admin-users.js';
import { userSearchCovering } from './0010-user-search-covering.js';
import { analytics } from './0011-analytics.js';
import { purchases } from './0012-purchases.js';
import { sessions } from './0013-sessions.js';
import { jobs } from './0014-jobs.js';
import { emailChanges } from './0015-email-changes.js';
import { activityLog } from './0016-activity-log.js';
import { userFilters } from './0017-user-filters.js';
import { userSegmentCounts } from './0018-user-segment-counts.js';
import { twoFactor } from './0019-two-factor.js';
import { signInClientsAndWebhookRejections } from './0020-sign-in-clients-and-webhook-rejections.js';
import { revenue } from './0021-revenue.js';
import { staffRolesAndAuditLog } from './0022-staff-roles-and-audit-log.js';
import { verificationBrowsers } from './0024-verification-browsers.js';

/**
 * The one migration set for both dialects, applied in name order at start.
 * A migration gets the dialect so it can pick column types (timestamptz on PostgreSQL, text on SQLite).
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-users-and-sessions': usersAndSessions(dialect),
    '0002-accounts': accounts(dialect),
    '0003-profile-country': profileCountry(),
    '0004-social-accounts': socialAccounts(dialect),
    '0005-billing-customers': billingCustomers(dialect),
    '0006-billing-events': billingEvents(dialect),
    '0007-transactions': transactions(dialect),
    '0008-licensing': licensing(dialect),
    '0009-admin-users': adminUsers(dialect),
    '0010-user-search-covering': userSearchCovering(dialect),
    '0011-analytics': analytics(dialect),
    '0012-purchases': purchases(dialect),
    '0013-sessions': sessions(dialect),
    '0014-jobs': jobs(dialect),
    '0015-email-changes': emailChanges(dialect),
    '0016-activity-log': activityLog(),
    '0017-user-filters': userFilters(dialect),
    '0018-user-segment-counts': userSegmentCounts(dialect),
    '0019-two-factor': twoFactor(dialect),
    '0020-sign-in-clients-and-webhook-rejections': signInClientsAndWebhookRejections(dialect),
    '0021-revenue': revenue(dialect),
    '0022-staff-roles-and-audit-log': staffRolesAndAuditLog(dialect),
    '0024-verification-browsers': verificationBrowsers(),
  };
}
