import { randomUUID } from 'node:crypto';
import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import type { SessionView } from '../../../contract/account.js';
import type { TwoFactorMethod } from '../../../contract/two-factor-values.js';
import type { Role } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import type { Database, SessionsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AccessTokens } from './access-tokens.js';
import { recordActivity, type StaffActor } from '../activity/index.js';
import type { OfflineTokens, TokenReuse } from './offline-tokens.js';
import { revokeSessions } from './offline-tokens-repo.js';
import * as repo from './sessions-repo.js';
import { isNewClient, queueNewSignInMail, queueTokenReusedMail } from './sign-in-notices.js';

/** Spec section 4 and issue 17: a session lasts 12 hours, or 30 days with "remember me", however often it is renewed. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const REMEMBERED_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Issue 47: a staff member's read-only view of an account lasts this long at most (its absolute expiry). */
export const VIEW_TTL_MS = 15 * 60 * 1000;
/** `last_active_at` is written at most this often per session, not on every request. */
const ACTIVITY_RESOLUTION_MS = 60_000;

export type SignInMethod = SessionsTable['method'];
/** The second factor a sign-in was completed with (issue 44). */
export type SecondFactor = TwoFactorMethod;

/** Where a sign-in comes from: the browser's user agent and the client address (behind TRUST_PROXY's proxies). */
export interface SessionClient {
  userAgent: string | null;
  address: string | null;
}

/**
 * Why a session ended; also what a stream listening on it is told. 'token-reused': its offline token was
 * used again after it had been renewed, outside the two-tab grace (issue 44 item 6).
 */
export type EndReason = 'signed-out' | 'ended-by-user' | 'ended-by-admin' | 'password-changed' | 'account-deleted' | 'token-reused' | 'view-revoked';

/**
 * Told when sessions end, so open event streams of those sessions close at once and every instance
 * forgets them; the end is answered once the announcement has left (see server/app.ts).
 */
export type SessionsEnded = (userId: string, sessionIds: string[] | 'all') => Promise<void>;

/**
 * The browser and system of a user agent, in words a person recognises ("Chrome 131", "Windows 10"), and
 * by name alone (`family`, "Chrome|Windows"): a browser or system update changes the words, not the family.
 */
export function describeClient(userAgent: string | null): { browser: string | null; os: string | null; family: string } {
  if (!userAgent) return { browser: null, os: null, family: '|' };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') : null;
  const os = parsed.os.name ? [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ') : null;
  return { browser, os, family: `${parsed.browser.name ?? ''}|${parsed.os.name ?? ''}`.slice(0, 200) };
}

/**
 * Server-side sessions (issue 17). Every sign-in starts one; its access tokens carry its id and expire
 * no later than it does; its offline token renews only it. Ending a session refuses its tokens from the
 * next request on (the end is announced after its commit, and every instance forgets the session it
 * keeps for the guard: this one at once), revokes its offline tokens and tells the event streams.
 */
export class Sessions {
  private onEnded: SessionsEnded = async () => undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly accessTokens: AccessTokens,
    private readonly offlineTokens: OfflineTokens,
    /** For the links in the owner's mails (issue 44: a new sign-in, a stolen token). */
    private readonly appUrl: string,
  ) {
    offlineTokens.whenReused((reuse) => this.endStolen(reuse));
  }

  /** Where ended sessions are announced (the event streams); set once when the app is built. */
  announceEndsTo(listener: SessionsEnded): void {
    this.onEnded = listener;
  }

  /**
   * Starts a session for a sign-in, whatever its method: its access token, and its offline token with
   * "remember me". A sign-in completed with a second factor names it, in the session and in the account's
   * timeline. A browser and system the account has not used in 90 days (by name, without versions) mail
   * the owner, in the same transaction; never for the account's first session (issue 44 item 7).
   */
  async start(
    user: { id: string; roles: Role[] },
    options: { method: SignInMethod; remember: boolean; client: SessionClient; secondFactor?: SecondFactor | null },
  ): Promise<{ sessionId: string; access_token: string; offline_token?: string }> {
    const now = this.clock.now();
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + (options.remember ? REMEMBERED_SESSION_TTL_MS : SESSION_TTL_MS));
    const { browser, os, family } = describeClient(options.client.userAgent);
    await this.db.transaction().execute(async (trx) => {
      const news = await isNewClient(trx, user.id, family, now);
      await repo.insertSession(trx, {
        id,
        user_id: user.id,
        method: options.method,
        remember: options.remember ? 1 : 0,
        created_at: now.toISOString(),
        last_active_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        ended_at: null,
        ended_reason: null,
        browser: browser?.slice(0, 100) ?? null,
        os: os?.slice(0, 100) ?? null,
        address: options.client.address?.slice(0, 64) ?? null,
        second_factor: options.secondFactor ?? null,
        client_family: family,
      });
      const details = { method: options.method, remember: options.remember, browser, os, ...(options.secondFactor ? { secondFactor: options.secondFactor } : {}) };
      await recordActivity(trx, { userId: user.id, kind: 'session.signed_in', details, at: now });
      if (news) await queueNewSignInMail(trx, this.appUrl, user.id, { browser, os, address: options.client.address }, now);
    });
    const access_token = await this.accessTokens.sign(user.id, user.roles, id, expiresAt);
    if (!options.remember) return { sessionId: id, access_token };
    return { sessionId: id, access_token, offline_token: await this.offlineTokens.issue(user.id, { sessionId: id, expiresAt }) };
  }

  /**
   * Issue 47: a read-only view of `customer`'s account for `staff`, a session of the customer's that lasts
   * VIEW_TTL_MS and names who opened it (`viewed_by`); its access token carries that name, so every write
   * answers READ_ONLY_VIEW (server/plugins/authentication.ts), and it has no offline token, so it cannot be
   * renewed past its end. It records no browser, system or address (the customer's list of sessions would show
   * the staff member's) and mails no one; the account's timeline and the audit log record it, in the same
   * transaction. The caller checks that the staff member may, and that the account is no staff account.
   */
  async startView(customer: { id: string; roles: Role[] }, staff: StaffActor): Promise<{ access_token: string; expiresAt: string }> {
    const now = this.clock.now();
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + VIEW_TTL_MS);
    await this.db.transaction().execute(async (trx) => {
      await repo.insertSession(trx, {
        id,
        user_id: customer.id,
        method: 'view',
        remember: 0,
        created_at: now.toISOString(),
        last_active_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        ended_at: null,
        ended_reason: null,
        browser: null,
        os: null,
        address: null,
        client_family: '',
        viewed_by: staff.id,
      });
      await recordActivity(trx, { userId: customer.id, staff, kind: 'account.viewed', details: { until: expiresAt.toISOString() }, at: now });
    });
    return { access_token: await this.accessTokens.sign(customer.id, customer.roles, id, expiresAt, staff.id), expiresAt: expiresAt.toISOString() };
  }

  /**
   * Issue 47: a staff member may no longer view accounts (demoted): the views they have open end now, their
   * tokens refused from the next request.
   */
  async endViewsBy(staffId: string): Promise<number> {
    const ended = await repo.endViewsBy(this.db, staffId, this.clock.now().toISOString());
    for (const view of ended) await this.onEnded(view.user_id, [view.id]);
    return ended.length;
  }

  /**
   * A fresh access token for a live session (renewal), never past the session's absolute expiry; a read-only
   * view's stays one (`viewedBy`, issue 47).
   */
  async renewToken(user: { id: string; roles: Role[] }, session: { id: string; expires_at: string }, viewedBy: string | null = null): Promise<string> {
    return this.accessTokens.sign(user.id, user.roles, session.id, new Date(session.expires_at), viewedBy);
  }

  /** The session if it is live now (not ended, not expired), else null. */
  async live(sessionId: string, userId: string): Promise<{ id: string; expires_at: string } | null> {
    const row = await repo.sessionOf(this.db, sessionId, userId);
    if (!row || row.ended_at !== null || Date.parse(row.expires_at) <= this.clock.now().getTime()) return null;
    return row;
  }

  /**
   * When the session started (undefined for no such session): an account without a password proves it
   * is its owner by having signed in recently (RECENT_SIGN_IN_MS, server/modules/users/passwords.ts).
   */
  async startedAt(sessionId: string): Promise<string | undefined> {
    return repo.sessionStartedAt(this.db, sessionId);
  }

  /** Records activity, at most once a minute per session; the time written, or null when it was not yet due. */
  async touch(sessionId: string, lastActiveAt: string): Promise<string | null> {
    const now = this.clock.now();
    if (now.getTime() - Date.parse(lastActiveAt) < ACTIVITY_RESOLUTION_MS) return null;
    const at = now.toISOString();
    await repo.setLastActive(this.db, sessionId, at);
    return at;
  }

  /** Ends one of the user's sessions; false when it is not theirs or has ended already. */
  async end(userId: string, sessionId: string, reason: EndReason): Promise<boolean> {
    const ended = await this.endWhere(userId, reason, sessionId, null);
    return ended.length > 0;
  }

  /**
   * Ends every live session of the user but `keep` (null: all of them); returns how many ended.
   * `staff` names the staff member who ended them ('ended-by-admin'), for the account's timeline and the
   * audit log (issue 47).
   */
  async endAllExcept(userId: string, keep: string | null, reason: EndReason, staff: StaffActor | null = null): Promise<number> {
    return (await this.endWhere(userId, reason, null, keep, staff)).length;
  }

  /**
   * Issue 44 item 6: a rotated offline token came back outside the two-tab grace, so a copy of it is in
   * someone else's hands. Its whole session ends (every access token of every branch is refused from the
   * next request, every offline token revoked, its streams closed) and the owner is mailed, in one
   * transaction; a session that has ended already mails no one again.
   */
  private async endStolen(reuse: TokenReuse): Promise<void> {
    const by = describeClient(reuse.client.userAgent);
    await this.endWhere(reuse.userId, 'token-reused', reuse.sessionId, null, null, async (trx) => {
      const session = await repo.sessionClientOf(trx, reuse.sessionId);
      await queueTokenReusedMail(trx, this.appUrl, reuse.userId, { session, by: { browser: by.browser, os: by.os, address: reuse.client.address } }, this.clock.now());
    });
  }

  private async endWhere(
    userId: string,
    reason: EndReason,
    only: string | null,
    except: string | null,
    staff: StaffActor | null = null,
    alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<string[]> {
    const now = this.clock.now().toISOString();
    const ended = await this.db.transaction().execute(async (trx) => {
      const ids = await repo.endLiveSessions(trx, userId, reason, now, only, except);
      if (ids.length === 0) return ids;
      await revokeSessions(trx, ids, now);
      // A sign-out closes what its sign-in entry opened; a password change and a deletion have entries of their own.
      if (reason === 'ended-by-user' || reason === 'ended-by-admin' || reason === 'token-reused') {
        await recordActivity(trx, { userId, staff, kind: 'sessions.ended', details: { reason, count: ids.length }, at: now });
      }
      await alsoInTransaction?.(trx);
      return ids;
    });
    if (ended.length === 0) return ended;
    await this.onEnded(userId, ended);
    return ended;
  }

  /** `GET /users/me/sessions`: the user's live sessions, the current one marked, most recently active first. */
  async list(userId: string, currentSessionId: string): Promise<SessionView[]> {
    const rows = await repo.liveSessionsOf(this.db, userId, this.clock.now().toISOString());
    return rows.map((row) => ({
      id: row.id,
      current: row.id === currentSessionId,
      createdAt: new Date(row.created_at).toISOString(),
      lastActiveAt: new Date(row.last_active_at).toISOString(),
      expiresAt: new Date(row.expires_at).toISOString(),
      browser: row.browser,
      os: row.os,
      address: row.address,
      supportView: row.viewed_by !== null,
    }));
  }

  /** `DELETE /users/me/sessions/{id}`: ends one of the caller's sessions (404 for anything not theirs or gone). */
  async endOne(userId: string, sessionId: string): Promise<void> {
    if (!(await this.end(userId, sessionId, 'ended-by-user'))) throw new AppError('SESSION_NOT_FOUND', 404);
  }
}
