import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReportOf } from './report.js';

/**
 * The raw reports as they came (one table per kind, keyed by user and the client's id, so a retried
 * report is stored once) and each user's first activation per store channel. Every insert skips the ids
 * stored already and answers those it inserted: what is new is what gets counted.
 */

type Trx = Transaction<Database>;
type Inserted = { user_id: string; id: string }[];

export async function insertSessions(trx: Trx, reports: ReportOf<'session'>[], receivedAt: string): Promise<Inserted> {
  return trx
    .insertInto('analytics_sessions')
    .values(
      reports.map((r) => ({
        user_id: r.userId,
        id: r.id,
        seat_id: r.seatId,
        channel: r.channel,
        started_at: r.startedAt.toISOString(),
        ended_at: r.endedAt.toISOString(),
        length_seconds: r.lengthSeconds,
        played_seconds: r.playedSeconds,
        suspicious: r.suspicious ? 1 : 0,
        received_at: receivedAt,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .returning(['user_id', 'id'])
    .execute();
}

export async function insertExports(trx: Trx, reports: ReportOf<'export'>[], receivedAt: string): Promise<Inserted> {
  return trx
    .insertInto('analytics_exports')
    .values(reports.map((r) => ({ user_id: r.userId, id: r.id, channel: r.channel, format: r.format, exported_at: r.exportedAt.toISOString(), received_at: receivedAt })))
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .returning(['user_id', 'id'])
    .execute();
}

export async function insertLaunches(trx: Trx, reports: ReportOf<'launch'>[]): Promise<Inserted> {
  return trx
    .insertInto('analytics_launches')
    .values(reports.map((r) => ({ user_id: r.userId, id: r.id, channel: r.channel, launched_at: r.at.toISOString() })))
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .returning(['user_id', 'id'])
    .execute();
}

export async function insertActivations(trx: Trx, reports: ReportOf<'activation'>[]): Promise<Inserted> {
  return trx
    .insertInto('analytics_activations')
    .values(reports.map((r) => ({ user_id: r.userId, id: r.id, channel: r.channel, activated_at: r.at.toISOString() })))
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .returning(['user_id', 'id'])
    .execute();
}

export async function insertSales(trx: Trx, reports: ReportOf<'sale'>[]): Promise<Inserted> {
  return trx
    .insertInto('analytics_sales')
    .values(reports.map((r) => ({ user_id: r.userId, id: r.id, channel: r.channel, sold_at: r.at.toISOString() })))
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .returning(['user_id', 'id'])
    .execute();
}

/** Records the user's first use of a store channel (an activation through it); false when they used it before. */
export async function insertFirstChannelUse(trx: Trx, input: { userId: string; channel: string; at: string }): Promise<boolean> {
  const inserted = await trx
    .insertInto('analytics_user_channels')
    .values({ user_id: input.userId, channel: input.channel, first_at: input.at })
    .onConflict((oc) => oc.columns(['user_id', 'channel']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
