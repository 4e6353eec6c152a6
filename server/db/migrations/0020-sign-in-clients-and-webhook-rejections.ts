import Bowser from 'bowser';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * The browser or system name of a description written by 0013's sessions ("Chrome 131", "macOS Sonoma",
 * "Samsung Internet for Android 25"): the longest of Bowser's names it starts with, else the text without
 * a trailing version number. Kept here, not imported, so this migration says the same thing forever.
 */
function nameOf(described: string | null, known: string[]): string {
  if (!described) return '';
  const name = known.find((candidate) => described === candidate || described.startsWith(`${candidate} `));
  return name ?? described.replace(/ \d[\w.]*$/, '');
}

/**
 * Issue 44:
 * - item 7, a mail for a sign-in from a browser and system the account has not used in 90 days: each
 *   session keeps its browser and system by name without versions (`client_family`, "Chrome|Windows"; a
 *   browser update is no new browser), so "has this account used it lately" is one walk of an index.
 *   Sessions from before are given theirs from the descriptions they kept, so the first sign-ins after
 *   this migration mail no one who signs in as they always did.
 * - item 9, a correctly signed Paddle notification whose data the portal cannot read: answered 400 on
 *   every delivery, remembered here (by event id, or the body's digest when it has none) so it is logged
 *   once however often Paddle retries it, with how often it came.
 */
export function signInClientsAndWebhookRejections(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('client_family', 'text', (c) => c.notNull().defaultTo('')).execute();
      const browsers = Object.values(Bowser.BROWSER_MAP).sort((a, b) => b.length - a.length);
      const systems = Object.values(Bowser.OS_MAP).sort((a, b) => b.length - a.length);
      const typed = db as Kysely<{ sessions: { browser: string | null; os: string | null; client_family: string } }>;
      const pairs = await typed.selectFrom('sessions').select(['browser', 'os']).distinct().execute();
      for (const pair of pairs) {
        let update = typed.updateTable('sessions').set({ client_family: `${nameOf(pair.browser, browsers)}|${nameOf(pair.os, systems)}` });
        update = pair.browser === null ? update.where('browser', 'is', null) : update.where('browser', '=', pair.browser);
        update = pair.os === null ? update.where('os', 'is', null) : update.where('os', '=', pair.os);
        await update.execute();
      }
      await db.schema.createIndex('sessions_client_idx').on('sessions').columns(['user_id', 'client_family', 'last_active_at']).execute();

      await db.schema
        .createTable('webhook_rejections')
        /** `event:<event_id>`, or `body:<sha-256 of the raw body>` when the body has no readable event id. */
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text')
        .addColumn('event_type', 'text')
        /** Where the data failed the schema (paths and zod's codes, never values). */
        .addColumn('problem', 'text', (c) => c.notNull())
        .addColumn('deliveries', 'integer', (c) => c.notNull())
        .addColumn('first_at', ts, (c) => c.notNull())
        .addColumn('last_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webhook_rejections').execute();
      await db.schema.dropIndex('sessions_client_idx').execute();
      await db.schema.alterTable('sessions').dropColumn('client_family').execute();
    },
  };
}
