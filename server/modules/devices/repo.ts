import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, SeatsTable } from '../../db/schema.js';

/**
 * The seats table's SQL: one row per computer attached to a user, with the hash of its device token. A
 * seat holds a slot below the user's limit and (user_id, slot) is unique, so an activation takes a slot
 * with one insert that does nothing when another took it first: never check-then-insert.
 */

type Db = Kysely<Database>;
export type SeatRow = Selectable<SeatsTable>;

/** The user's seats, the oldest first. */
export async function seatRowsOf(db: Db, userId: string): Promise<SeatRow[]> {
  return db.selectFrom('seats').selectAll().where('user_id', '=', userId).orderBy('activated_at').orderBy('slot').execute();
}

/** The user's seat of computer `computerId`, if it has one. */
export async function seatOfComputer(db: Db, userId: string, computerId: string): Promise<SeatRow | undefined> {
  return db.selectFrom('seats').selectAll().where('user_id', '=', userId).where('computer_id', '=', computerId).executeTakeFirst();
}

/** Gives a seat a new device token (the old one dies) and name, and marks it used now. */
export async function renewSeatToken(db: Db, seatId: string, change: { tokenHash: string; name: string; at: string }): Promise<SeatRow> {
  return db
    .updateTable('seats')
    .set({ token_hash: change.tokenHash, name: change.name, last_login_at: change.at })
    .where('id', '=', seatId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The slots the user's seats hold. */
export async function takenSlots(db: Db, userId: string): Promise<Set<number>> {
  return new Set((await db.selectFrom('seats').select('slot').where('user_id', '=', userId).execute()).map((row) => row.slot));
}

/** Inserts the seat unless its slot (or its computer) is taken already; the seat, or undefined when it lost. */
export async function insertSeat(db: Db, seat: Insertable<SeatsTable>): Promise<SeatRow | undefined> {
  return db
    .insertInto('seats')
    .values(seat)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the user's seat `seatId`; its name and computer, or undefined when the user has no such seat. */
export async function deleteSeat(db: Db, userId: string, seatId: string): Promise<{ name: string; computer_id: string } | undefined> {
  return db.deleteFrom('seats').where('id', '=', seatId).where('user_id', '=', userId).returning(['name', 'computer_id']).executeTakeFirst();
}

/** The seat whose device token has this hash. */
export async function seatByTokenHash(db: Db, tokenHash: string): Promise<SeatRow | undefined> {
  return db.selectFrom('seats').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the seat used at `at`; undefined when it was released meanwhile. */
export async function touchSeat(db: Db, seatId: string, at: string): Promise<SeatRow | undefined> {
  return db.updateTable('seats').set({ last_login_at: at }).where('id', '=', seatId).returningAll().executeTakeFirst();
}

/** What deciding which seats to keep reads of each: its slot and when it was last used. */
export async function seatUsesOf(db: Db, userId: string): Promise<{ id: string; slot: number; last_login_at: string | null; activated_at: string }[]> {
  return db.selectFrom('seats').select(['id', 'slot', 'last_login_at', 'activated_at']).where('user_id', '=', userId).execute();
}

export async function deleteSeats(db: Db, seatIds: string[]): Promise<void> {
  await db.deleteFrom('seats').where('id', 'in', seatIds).execute();
}

export async function moveSeat(db: Db, seatId: string, slot: number): Promise<void> {
  await db.updateTable('seats').set({ slot }).where('id', '=', seatId).execute();
}
