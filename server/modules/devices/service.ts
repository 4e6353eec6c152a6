import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ActivateResponse, ActivationChannel, Entitlement, Seat, SeatsResponse, exportReportSchema, reportsBatchSchema, sessionReportSchema } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import { digest } from '../../digest.js';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type EventBus } from '../events/index.js';
import { ingest, type Report } from '../analytics/index.js';
import { recordActivity, type StaffActor } from '../activity/index.js';
import { entitlementsOf, type KeptEntitlements } from '../entitlements/index.js';
import {
  deleteSeat,
  deleteSeats,
  insertSeat,
  moveSeat,
  renewSeatToken,
  seatByTokenHash,
  seatOfComputer,
  seatRowsOf,
  seatUsesOf,
  takenSlots,
  touchSeat,
  type SeatRow,
} from './repo.js';
import { markLaunched } from '../users/index.js';

export interface DeviceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
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
    seatRowsOf(deps.db, userId),
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
  input: { computerId: string; name: string; replace?: boolean | undefined; channel?: ActivationChannel | undefined },
): Promise<ActivateResponse> {
  const now = deps.clock.now();
  const { token, hash } = newDeviceToken();
  const existing = await seatOfComputer(deps.db, userId, input.computerId);
  if (existing) {
    if (!input.replace) throw new AppError('DEVICE_ALREADY_ATTACHED', 409);
    const row = await renewSeatToken(deps.db, existing.id, { tokenHash: hash, name: input.name, at: now.toISOString() });
    deps.bus.publish(userId, { type: 'seat', id: row.id });
    return { deviceToken: token, seat: toSeat(row), entitlement: (await entitlementsOf(deps.db, userId, now)).entitlement };
  }

  const { seatLimit, entitlement } = await entitlementsOf(deps.db, userId, now);
  const channel = input.channel ?? channelOf(entitlement);
  // Each lost race means another activation filled a slot, so `seatLimit` attempts settle it.
  for (let attempt = 0; attempt <= seatLimit; attempt++) {
    const taken = await takenSlots(deps.db, userId);
    const slot = Array.from({ length: seatLimit }, (_, index) => index).find((index) => !taken.has(index));
    if (slot === undefined) break;
    const row = await insertSeat(deps.db, {
      id: randomUUID(),
      user_id: userId,
      slot,
      computer_id: input.computerId,
      name: input.name,
      token_hash: hash,
      activated_at: now.toISOString(),
      last_login_at: now.toISOString(),
      channel,
    });
    if (row) {
      await recordActivity(deps.db, { userId, kind: 'device.activated', details: { seatId: row.id, name: row.name, computerId: row.computer_id, channel }, at: now });
      await ingest(deps, [{ kind: 'activation', userId, id: row.id, channel, at: now }]);
      deps.bus.publish(userId, { type: 'seat', id: row.id });
      return { deviceToken: token, seat: toSeat(row), entitlement };
    }
    const attached = await seatOfComputer(deps.db, userId, input.computerId);
    if (attached) throw new AppError('DEVICE_ALREADY_ATTACHED', 409);
  }
  throw new AppError('SEAT_LIMIT_REACHED', 409);
}

/**
 * The channel a computer is activated through when the application does not name a store: the plan
 * behind the user's access (a subscription or trial, a perpetual 2024 licence), else 'direct'.
 */
function channelOf(entitlement: Entitlement): string {
  if (entitlement.plan === 'subscription' || entitlement.plan === 'trial') return 'subscription';
  if (entitlement.plan === 'perpetual' && entitlement.releases.includes('2024')) return 'perpetual-2024';
  return 'direct';
}

/**
 * `DELETE /perpetual/seats?id=`: frees the seat; its device token stops working at once. Also a staff
 * member's release from the user page (issue 21), with `staff` them (the audit log keeps it too, issue 47).
 */
export async function releaseSeat(deps: DeviceDeps, userId: string, seatId: string, staff: StaffActor | null = null): Promise<{ released: true }> {
  const released = await deleteSeat(deps.db, userId, seatId);
  // Another user's seat and no seat at all answer the same: nothing about other accounts leaks.
  if (!released) throw new AppError('SEAT_NOT_FOUND', 404);
  await recordActivity(deps.db, { userId, staff, kind: 'device.released', details: { seatId, name: released.name, computerId: released.computer_id }, at: deps.clock.now() });
  deps.bus.publish(userId, { type: 'seat', id: seatId });
  return { released: true };
}

/** The seat a device token belongs to, or 401: a released seat's token is unknown at once. */
export async function seatForToken(db: Kysely<Database>, token: string): Promise<SeatRow> {
  if (!isDeviceToken(token) || token.length > 100) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  const seat = await seatByTokenHash(db, digest(token));
  if (!seat) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  return seat;
}

/** The desktop API's deps beyond the seats': the entitlements kept until a write changes them (issue 45). */
export interface HeartbeatDeps extends DeviceDeps {
  entitlements: Pick<KeptEntitlements, 'of'>;
}

/**
 * `POST /desktop/heartbeat`: the device is in use. Updates its last login (and the user's 'last
 * launched' when the application has just started) and answers what the user may do now, from what
 * this instance keeps of what they hold (every write that changes it forgets it).
 */
export async function heartbeat(
  deps: HeartbeatDeps,
  seat: SeatRow,
  input: { launched?: boolean | undefined; launchId?: string | undefined; version?: string | undefined },
): Promise<{ seat: Seat; entitlement: Entitlement }> {
  const now = deps.clock.now().toISOString();
  const row = await touchSeat(deps.db, seat.id, now);
  if (!row) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  if (input.launched) {
    await markLaunched(deps.db, seat.user_id, now);
    // A retried heartbeat with the same launch id counts once; without one, every start counts.
    await ingest(deps, [{ kind: 'launch', userId: seat.user_id, id: input.launchId ?? randomUUID(), channel: seat.channel, at: deps.clock.now() }]);
  }
  const { entitlement } = await deps.entitlements.of(seat.user_id, deps.clock.now(), input.version);
  return { seat: toSeat(row), entitlement };
}

function sessionOf(seat: SeatRow, report: z.infer<typeof sessionReportSchema>): Report {
  return {
    kind: 'session',
    userId: seat.user_id,
    id: report.id,
    channel: seat.channel,
    seatId: seat.id,
    startedAt: new Date(report.startedAt),
    endedAt: new Date(report.endedAt),
    lengthSeconds: report.lengthSeconds,
    playedSeconds: report.playedSeconds ?? report.lengthSeconds,
    suspicious: report.suspicious,
  };
}

function exportOf(seat: SeatRow, report: z.infer<typeof exportReportSchema>): Report {
  return { kind: 'export', userId: seat.user_id, id: report.id, channel: seat.channel, format: report.format, exportedAt: new Date(report.exportedAt) };
}

/** `POST /desktop/sessions`: one use of the application, counted once per client id (a retry is acknowledged, not counted). */
export async function reportSession(deps: DeviceDeps, seat: SeatRow, report: z.infer<typeof sessionReportSchema>): Promise<{ recorded: boolean }> {
  const [recorded = false] = await ingest(deps, [sessionOf(seat, report)]);
  return { recorded };
}

/** `POST /desktop/exports`: one exported file, counted once per client id. */
export async function reportExport(deps: DeviceDeps, seat: SeatRow, report: z.infer<typeof exportReportSchema>): Promise<{ recorded: boolean }> {
  const [recorded = false] = await ingest(deps, [exportOf(seat, report)]);
  return { recorded };
}

/**
 * `POST /desktop/reports`: what the application queued while offline (or gathers to send at once), in
 * one transaction; answers how many of each were new.
 */
export async function reportBatch(deps: DeviceDeps, seat: SeatRow, batch: z.infer<typeof reportsBatchSchema>): Promise<{ sessions: number; exports: number }> {
  const sessions = batch.sessions.map((report) => sessionOf(seat, report));
  const exports = batch.exports.map((report) => exportOf(seat, report));
  const recorded = await ingest(deps, [...sessions, ...exports]);
  const counted = (from: number, to: number) => recorded.slice(from, to).filter(Boolean).length;
  return { sessions: counted(0, sessions.length), exports: counted(sessions.length, recorded.length) };
}

/**
 * After an entitlement ends, the user may hold more devices than their new limit: the least recently
 * used beyond it are released, and the rest take the lowest slots (a seat's slot must stay below the
 * limit for activations to count right). Returns how many were released.
 */
export async function releaseSeatsAboveLimit(trx: Kysely<Database>, userId: string, now: Date): Promise<number> {
  const { seatLimit } = await entitlementsOf(trx, userId, now);
  const seats = await seatUsesOf(trx, userId);
  if (seats.length <= seatLimit && seats.every((seat) => seat.slot < seatLimit)) return 0;
  const recentFirst = [...seats].sort((a, b) => Date.parse(b.last_login_at ?? b.activated_at) - Date.parse(a.last_login_at ?? a.activated_at));
  const kept = recentFirst.slice(0, seatLimit);
  const released = recentFirst.slice(seatLimit);
  if (released.length > 0) await deleteSeats(trx, released.map((seat) => seat.id));
  const taken = new Set(kept.filter((seat) => seat.slot < seatLimit).map((seat) => seat.slot));
  for (const seat of kept.filter((candidate) => candidate.slot >= seatLimit)) {
    const free = Array.from({ length: seatLimit }, (_, index) => index).find((slot) => !taken.has(slot)) as number;
    taken.add(free);
    await moveSeat(trx, seat.id, free);
  }
  return released.length;
}
