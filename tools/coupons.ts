/**
 * Coupons from the command line, on the database the portal's configuration names (the same
 * environment variables as `npm start`: SQLite under ./data by default, or DATABASE_URL).
 *
 *   npm run coupons -- create --code SIGGRAPH2026 --licence 2024 [--limit 500] [--expires 2027-01-31T23:59:59Z]
 *   npm run coupons -- create --code TRY30 --days 30 [--limit 1000] [--expires ...]
 *   npm run coupons -- list
 */
import { parseArgs } from 'node:util';
import { couponCreateSchema } from '../contract/licensing.js';
import { SystemClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { migrateToLatest, openDatabase } from '../server/db/index.js';
import { createCoupon, listCoupons } from '../server/modules/coupons/service.js';
import { AppError } from '../server/errors.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    code: { type: 'string' },
    licence: { type: 'string' },
    days: { type: 'string' },
    limit: { type: 'string' },
    expires: { type: 'string' },
  },
});

const db = openDatabase(loadConfig().database);
try {
  await migrateToLatest(db);
  if (positionals[0] === 'create') {
    const input = couponCreateSchema.safeParse({
      code: values.code,
      grant: values.licence ? 'licence' : 'access',
      ...(values.licence ? { release: values.licence } : {}),
      ...(values.days ? { days: Number(values.days) } : {}),
      ...(values.limit ? { usageLimit: Number(values.limit) } : {}),
      ...(values.expires ? { expiresAt: new Date(values.expires).toISOString() } : {}),
    });
    if (!input.success) {
      process.stderr.write(`${input.error.issues.map((issue) => `${issue.path.join('.') || 'coupon'}: ${issue.message}`).join('\n')}\n`);
      process.exitCode = 2;
    } else {
      process.stdout.write(`${JSON.stringify(await createCoupon({ db: db.kysely, clock: new SystemClock() }, input.data, null))}\n`);
    }
  } else if (positionals[0] === 'list') {
    for (const coupon of await listCoupons(db.kysely)) process.stdout.write(`${JSON.stringify(coupon)}\n`);
  } else {
    process.stderr.write('usage: npm run coupons -- create --code CODE (--licence 2024 | --days 30) [--limit N] [--expires ISO] | list\n');
    process.exitCode = 2;
  }
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  process.stderr.write(`${error.messageKey}\n`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
