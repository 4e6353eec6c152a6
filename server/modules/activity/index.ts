/**
 * The logs of what happened to accounts. The account's timeline (`activity_log`): every service writes an
 * entry in the transaction of the change it records; the admin user page reads it, the data export takes it
 * whole, and it goes with the account. The audit log (`audit_log`, issue 47): every staff action across
 * accounts, append-only, kept after the accounts it names are gone; an entry written with its staff actor
 * (`staff`) lands in both. A library module: no routes of its own, and no other module's table (the emails of
 * the accounts named are added by the reader, from users).
 */
export { activityForExport, activityOf, activityOfKinds, forgetActivity, recordActivity, type ActivityRecord, type LoggedEntry } from './repo.js';
export { auditBatches, auditPageOf, recordStaffAction, type AuditRow, type AuditSelection, type StaffActionRecord, type StaffActor } from './audit-repo.js';
