/**
 * The account's timeline (`activity_log`): every service writes an entry in the transaction of the change
 * it records; the admin user page reads it. A library module: no routes of its own.
 */
export { activityOf, activityOfKinds, forgetActivity, recordActivity, type ActivityRecord } from './log.js';
