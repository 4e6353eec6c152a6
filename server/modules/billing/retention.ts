import type { Kysely } from 'kysely';
import { CANCELLATION_ROWS, type CancellationRow, type Retention, type RetentionQuery } from '../../../contract/retention.js';
import { CANCEL_REASONS } from '../../../contract/subscription.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { cancellationsBetween } from './cancellations-repo.js';
import { recoveriesEndedBetween } from './recoveries-repo.js';

/** The longest range asked for at once: three years of months. */
const MAX_MONTHS = 36;

const monthOf = (iso: string) => iso.slice(0, 7);

/**
 * Admin analytics' renewals and cancellations (issue 46 items 5 and 8): per month of [from, to], the failed
 * renewals recovered and lost (by the month they ended) and the cancellations by reason (by the month they
 * were made). Read from billing's own tables; the rows of a range are few (one per failed renewal or
 * cancellation), so they are counted here rather than grouped by each dialect's date functions.
 */
export async function retentionOf(db: Kysely<Database>, query: RetentionQuery): Promise<Retention> {
  const from = new Date(`${query.from}T00:00:00.000Z`);
  const end = new Date(`${query.to}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  if (Number.isNaN(from.getTime()) || Number.isNaN(end.getTime()) || end <= from) throw new AppError('ANALYTICS_RANGE_INVALID', 400);
  const months: string[] = [];
  for (const at = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1)); at < end; at.setUTCMonth(at.getUTCMonth() + 1)) {
    months.push(at.toISOString().slice(0, 7));
    if (months.length > MAX_MONTHS) throw new AppError('ANALYTICS_RANGE_INVALID', 400);
  }
  const [recoveries, cancellations] = await Promise.all([
    recoveriesEndedBetween(db, from.toISOString(), end.toISOString()),
    cancellationsBetween(db, from.toISOString(), end.toISOString()),
  ]);
  const known = new Set<string>(CANCEL_REASONS);
  return {
    months: months.map((month) => {
      const reasons = Object.fromEntries(CANCELLATION_ROWS.map((row) => [row, 0])) as Record<CancellationRow, number>;
      for (const cancellation of cancellations) {
        if (monthOf(cancellation.created_at) !== month) continue;
        const row: CancellationRow = cancellation.reason && known.has(cancellation.reason) ? (cancellation.reason as CancellationRow) : 'none';
        reasons[row] += 1;
      }
      const ended = recoveries.filter((recovery) => recovery.ended_at !== null && monthOf(recovery.ended_at) === month);
      return {
        month,
        renewals: { recovered: ended.filter((recovery) => recovery.outcome === 'recovered').length, lost: ended.filter((recovery) => recovery.outcome === 'lost').length },
        cancellations: reasons,
      };
    }),
  };
}
