import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { ActivateResponse, Entitlement, Seat, SeatsResponse, exportReportSchema, sessionReportSchema } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import { digest } from '../../digest.js';
import type { Database, SeatsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../events/bus.js';
import { entitlementsOf } from '../licensing/entitlements.js';

export interface DeviceDeps {
  db: Kysely<Database>;
  clock: Clock;
  bus: EventBus;
}

/** Device tokens are opaque: a recognisable prefix and 256 random bits; only their SHA-256 is stored. */
const DEVICE_TOKEN_PREFIX = 'sld_';

export function isDeviceToken(token: string): boolean {
  return token.startsWith(DEVICE_TOKEN_PREFIX);
}

function newDeviceToken(): { token: string; hash: string } {
  const token = `${DEVICE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: digest(token) };
}

type SeatRow = Selectable<SeatsTable>;

function toSeat(row: SeatRow): Seat {
  return {
    id: row.id,
    name: row.name,
    computerId: row.computer_id,
    activatedAt: new Date(row.activated_at).toISOString(),
    lastLoginAt: row.last_login_at ? new Date(row.last_login_at).toISOString() : null,
  };
}

/** `GET /perpetual/seats`: the user's devices, oldest first, and how many they may have at once. */
export async function seatsOf(deps: DeviceDeps, userId: string): Promise<SeatsResponse> {
  const [rows, { seatLimit }] = await Promise.all([
    deps.db.selectFrom('seats').selectAll().where('user_id', '=', userId).orderBy('activated_at').orderBy('slot').execute(),
    entitlementsOf(deps.db, userId, deps.clock.now()),
  ]);
  return { seats: rows.map(toSeat), limit: seatLimit };
}

/**
 * `POST /desktop/activate`: attaches a computer to one of the user's seats and returns its device token.
 *
 * A seat takes the lowest free slot below the user's limit; (user_id, slot) is unique, so of two
 * activations racing for the last slot one inserts and the other finds nothing free: never more seats
 * than the limit, on either dialect, without check-then-insert. A computer already attached is refused
 * ('device already attached'), unless `replace` asks for a new token for it (the old one dies).
 */
export async function activateDevice(
  deps: DeviceDeps,
  userId: string,
  input: { computerId: string; name: string; replace?: boolean | undefined },
): Promise<ActivateResponse> {
  const now = deps.clock.now();
  const { token, hash } = newDeviceToken();
  const existing = await deps.db.selectFrom('seats').selectAll().where('user_id', '=', userId).where('computer_id', '=', input.computerId).executeTakeFirst();
  if (existing) {
    if (!input.replace) throw new AppError('DEVICE_ALREADY_ATTACHED', 409);
    const row = await deps.db
      .updateTable('seats')
      .set({ token_hash: hash, name: input.name, last_login_at: now.toISOString() })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    deps.bus.publish(userId, { type: 'seat', id: row.id });
    return { deviceToken: token, seat: toSeat(row), entitlement: (await entitlementsOf(deps.db, userId, now)).entitlement };
  }

  const { seatLimit, entitlement } = await entitlementsOf(deps.db, userId, now);
  // Each lost race means another activation filled a slot, so `seatLimit` attempts settle it.
  for (let attempt = 0; attempt <= seatLimit; attempt++) {
    const taken = new Set((await deps.db.selectFrom('seats').select('slot').where('user_id', '=', userId).execute()).map((row) => row.slot));
    const slot = Array.from({ length: seatLimit }, (_, index) => index).find((index) => !taken.has(index));
    if (slot === undefined) break;
    const row = await deps.db
      .insertInto('seats')
      .values({
        id: randomUUID(),
        user_id: userId,
        slot,
        computer_id: input.computerId,
        name: input.name,
        token_hash: hash,
        activated_at: now.toISOString(),
        last_login_at: now.toISOString(),
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) {
      deps.bus.publish(userId, { type: 'seat', id: row.id });
      return { deviceToken: token, seat: toSeat(row), entitlement };
    }
    const attached = await deps.db.selectFrom('seats').select('id').where('user_id', '=', userId).where('computer_id', '=', input.computerId).executeTakeFirst();
    if (attached) throw new AppError('DEVICE_ALREADY_ATTACHED', 409);
  }
  throw new AppError('SEAT_LIMIT_REACHED', 409);
}

/** `DELETE /perpetual/seats?id=`: frees the seat; its device token stops working at once. */
export async function releaseSeat(deps: DeviceDeps, userId: string, seatId: string): Promise<{ released: true }> {
  const result = await deps.db.deleteFrom('seats').where('id', '=', seatId).where('user_id', '=', userId).executeTakeFirst();
  // Another user's seat and no seat at all answer the same: nothing about other accounts leaks.
  if (Number(result.numDeletedRows) === 0) throw new AppError('SEAT_NOT_FOUND', 404);
  deps.bus.publish(userId, { type: 'seat', id: seatId });
  return { released: true };
}

/** The seat a device token belongs to, or 401: a released seat's token is unknown at once. */
export async function seatForToken(db: Kysely<Database>, token: string): Promise<SeatRow> {
  if (!isDeviceToken(token) || token.length > 100) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  const seat = await db.selectFrom('seats').selectAll().where('token_hash', '=', digest(token)).executeTakeFirst();
  if (!seat) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  return seat;
}

/**
 * `POST /desktop/heartbeat`: the device is in use. Updates its last login (and the user's 'last
 * launched' when the application has just started) and answers what the user may do now.
 */
export async function heartbeat(
  deps: DeviceDeps,
  seat: SeatRow,
  input: { launched?: boolean | undefined; version?: string | undefined },
): Promise<{ seat: Seat; entitlement: Entitlement }> {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.updateTable('seats').set({ last_login_at: now }).where('id', '=', seat.id).returningAll().executeTakeFirst();
  if (!row) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  if (input.launched) await deps.db.updateTable('users').set({ last_launched_at: now }).where('id', '=', seat.user_id).execute();
  const { entitlement } = await entitlementsOf(deps.db, seat.user_id, deps.clock.now(), input.version);
  return { seat: toSeat(row), entitlement };
}

/** `POST /desktop/sessions`: stores a use of the application once per client id (a retry is acknowledged, not counted). */
export async function reportSession(deps: DeviceDeps, seat: SeatRow, report: z.infer<typeof sessionReportSchema>): Promise<{ recorded: boolean }> {
  const result = await deps.db
    .insertInto('analytics_sessions')
    .values({
      user_id: seat.user_id,
      id: report.id,
      seat_id: seat.id,
      started_at: new Date(report.startedAt).toISOString(),
      ended_at: new Date(report.endedAt).toISOString(),
      length_seconds: report.lengthSeconds,
      suspicious: report.suspicious ? 1 : 0,
      received_at: deps.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .executeTakeFirst();
  return { recorded: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/** `POST /desktop/exports`: stores an exported file once per client id. */
export async function reportExport(deps: DeviceDeps, seat: SeatRow, report: z.infer<typeof exportReportSchema>): Promise<{ recorded: boolean }> {
  const result = await deps.db
    .insertInto('analytics_exports')
    .values({
      user_id: seat.user_id,
      id: report.id,
      format: report.format,
      exported_at: new Date(report.exportedAt).toISOString(),
      received_at: deps.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .executeTakeFirst();
  return { recorded: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}
