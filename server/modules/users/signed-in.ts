import type { Clock } from '../../clock.js';
import { Kept } from '../../kept.js';
import type { AuthSession, UsersRepo, UserWithRoles } from './repo.js';

/**
 * Nothing signed-in is served older than this, whatever the event bus says: the bound on a session
 * ended (or an account changed) elsewhere should PostgreSQL's notification of it be lost unnoticed.
 */
export const SIGNED_IN_MAX_AGE_MS = 5_000;
/** Sessions kept at most; the oldest kept goes first (a re-read costs one query). */
const MAX_SESSIONS = 10_000;

/** The user of an access token and its session, as the guard reads them (session null: ended or expired). */
export interface SignedIn {
  user: UserWithRoles;
  session: AuthSession | null;
}

/**
 * The signed-in user with their roles and the token's session, kept per session by this instance (issue
 * 45): a request whose session was read in the last seconds reads nothing; otherwise it is the users
 * repository's one statement (`findWithSession`). Only a live session of an existing user is kept.
 *
 * Kept answers are forgotten through the event bus (server/app.ts wires it): a session ended (sign-out,
 * ended from another device or by an admin, a password change, a stolen token), the account deleted,
 * its roles changed, or its row or links changed (profile, password, email, verification, second factor,
 * Google or Facebook: `UsersRepo.changed`). The instance that made the change forgets before answering,
 * so the very next request there reads the database; another instance forgets when PostgreSQL's
 * notification reaches it, and never serves anything older than SIGNED_IN_MAX_AGE_MS.
 */
export class SignedInUsers {
  private readonly kept: Kept<string, SignedIn | undefined>;

  constructor(
    private readonly users: UsersRepo,
    options: { clock: Clock; listening: () => boolean },
  ) {
    this.kept = new Kept({ ...options, maxAgeMs: SIGNED_IN_MAX_AGE_MS, maxEntries: MAX_SESSIONS });
  }

  /** The user and the session `sessionId` when it is theirs and live at `now`; undefined for no such user. */
  async find(userId: string, sessionId: string, now: Date): Promise<SignedIn | undefined> {
    let found = await this.kept.get(
      sessionId,
      () => this.users.findWithSession(userId, sessionId, now),
      (read) => read !== undefined && read.session !== null && read.user.id === userId,
    );
    // A session id is the token's (signed) claim; one kept for someone else is never answered for this user.
    if (found && found.user.id !== userId) found = await this.users.findWithSession(userId, sessionId, now);
    // Kept while live; it may have expired since.
    if (found?.session && Date.parse(found.session.expires_at) <= now.getTime()) return { user: found.user, session: null };
    return found;
  }

  forgetSessions(sessionIds: readonly string[]): void {
    for (const sessionId of sessionIds) this.kept.forget(sessionId);
  }

  forgetUser(userId: string): void {
    this.kept.forgetWhere((_, signedIn) => signedIn?.user.id === userId);
  }

  forgetAll(): void {
    this.kept.forgetAll();
  }

  /** How many sessions are kept (tests). */
  get size(): number {
    return this.kept.size;
  }
}
