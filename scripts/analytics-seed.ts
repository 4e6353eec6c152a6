import { pathToFileURL } from 'node:url';
import { loadConfig } from '../server/config.js';
import { migrateToLatest, openDatabase, type Db } from '../server/db/index.js';
import { deleteGenerated, generateAnalytics, type GeneratedAnalytics } from './analytics-data.js';

/**
 * The demo's usage analytics (issue "Usage analytics and cohorts"): a few thousand users with sessions,
 * exports, launches and sales over the last months, so the admin's analytics, cohort and store pages
 * have something to show. Replaces the users an earlier seed generated (nothing else), so it can be
 * run again to bring the data up to today.
 *
 *   npm run seed:analytics      the database `npm start` uses (DATABASE_URL, default ./data/portal.db)
 */
export async function seedAnalyticsDemo(db: Db, options: { users?: number; days?: number; now?: Date } = {}): Promise<GeneratedAnalytics> {
  const users = options.users ?? 2_000;
  await deleteGenerated(db);
  return generateAnalytics(db, {
    users,
    sessions: users * 10,
    exports: users * 2,
    days: options.days ?? 120,
    end: options.now ?? new Date(),
    // The demo's admin is the one the server seeds at start (ADMIN_EMAIL), not a generated user.
    ensureAdmin: false,
    log: () => undefined,
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const config = loadConfig();
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const { counts, timings } = await seedAnalyticsDemo(db);
    const where = config.database.dialect === 'sqlite' ? config.database.file : 'PostgreSQL (DATABASE_URL)';
    process.stdout.write(
      `Seeded ${where} in ${timings.total?.toFixed(1)} s: ${Object.entries(counts)
        .map(([name, n]) => `${n.toLocaleString('en')} ${name}`)
        .join(', ')}.\nStart the portal (npm start) and sign in as the admin to see /admin/analytics and /admin/cohort.\n`,
    );
  } finally {
    await db.destroy();
  }
}
