import type { Kysely, Migration } from 'kysely';

/**
 * Issue 48 item 5: the browser that asked for a verification mail (registered, or asked for it again) keeps a
 * random key in a cookie; its digest is kept with the pending verification, so the mailed link, opened in that
 * browser, signs the new account in there. Null where no browser asked (support's resend, mails from before).
 */
export function verificationBrowsers(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('email_verifications').addColumn('browser_hash', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('email_verifications').dropColumn('browser_hash').execute();
    },
  };
}
