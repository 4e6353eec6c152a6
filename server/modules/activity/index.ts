/**
 * The account's timeline (`activity_log`): every service writes an entry in the transaction of the change
 * it records; the admin user page reads it, the data export takes it whole. A library module: no routes of
 * its own, and no other module's table (the acting admin's email is added by the reader, from users).
 */
export { activityForExport, activityOf, activityOfKinds, forgetActivity, recordActivity, type ActivityRecord, type LoggedEntry } from './repo.js';
