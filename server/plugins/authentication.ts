import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import { hasPermission, isPermission, type Permission } from '../../contract/permissions.js';
import { isStaff, staffRoleOf } from '../../contract/roles.js';
import { AppError } from '../errors.js';
import type { StaffActor } from '../modules/activity/index.js';
import { type AccessTokens, type SessionClient, type Sessions } from '../modules/auth/index.js';
import { type AuthSession, type SignedInUsers, type UserWithRoles } from '../modules/users/index.js';
import type { Clock } from '../clock.js';

/** The signed-in user as loaded by the guard (kept per session, or one read; reused by the handler). */
export type AuthUser = UserWithRoles;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `user`/`admin` guards; null on public routes. */
    authUser: AuthUser | null;
    /** The live session the access token belongs to; set with `authUser`. */
    authSession: AuthSession | null;
    /**
     * Issue 44: the signed-in user is staff without a second factor while STAFF_TWO_FACTOR=required, so
     * only the routes marked `duringTwoFactorEnrolment` answer them (`GET /users/me` says so).
     */
    twoFactorEnrolmentRequired: boolean;
    /**
     * Issue 47: the staff member who opened this session as a read-only view of the customer's account (the
     * access token's claim), or null for the account's own sessions. Set with `authUser`.
     */
    viewedBy: string | null;
  }
  interface FastifyContextConfig {
    /**
     * Issue 47: the permission (contract/permissions.ts) a staff route needs; the `staff` guard checks it
     * against the caller's roles. Every route that runs that guard names one, or the app does not start.
     */
    permission?: Permission;
    /**
     * Issue 47: the route changes nothing though its method is not GET (a price preview is a POST), so a
     * read-only view of a customer's account may call it. Every other POST, PUT, PATCH and DELETE answers a
     * view 403 READ_ONLY_VIEW.
     */
    readsOnly?: boolean;
    /**
     * Issue 44: the route answers a staff member who must still enrol a second factor (STAFF_TWO_FACTOR=
     * required): what enrolling needs (the user, the two-factor and passkey routes), signing out and the
     * event stream (token renewal, `POST /auth/validate`, has no guard). Every other guarded route refuses
     * them with 403 TWO_FACTOR_ENROLMENT_REQUIRED.
     */
    duringTwoFactorEnrolment?: boolean;
  }
}

/** STAFF_TWO_FACTOR: whether staff (contract/roles.ts, isStaff) must have a second factor to use the API. */
export type StaffTwoFactor = 'required' | 'optional';

export interface Guards {
  /** Any signed-in user. */
  user: onRequestAsyncHookHandler;
  /**
   * Issue 47: staff whose roles give the route's permission (its config's `permission`); 403 FORBIDDEN for
   * anyone else, and for every read-only view of a customer's account.
   */
  staff: onRequestAsyncHookHandler;
  /** Public routes that do more for a signed-in caller: no Authorization header is a visitor; a bad one is 401. */
  optionalUser: onRequestAsyncHookHandler;
  /** Sign-out: the caller's session when the token is still good, nobody otherwise (never a 401). */
  signingOut: onRequestAsyncHookHandler;
}

/** The user a guard has authenticated; calling it on an unguarded route is a programming error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('UNAUTHORIZED', 401);
  return request.authUser;
}

/**
 * Issue 47: the staff member a staff route's request comes from, as the audit log names them (their id, email
 * and widest staff role now).
 */
export function staffActorOf(request: FastifyRequest): StaffActor {
  const user = currentUser(request);
  const role = staffRoleOf(user.roles);
  if (role === null) throw new AppError('FORBIDDEN', 403);
  return { id: user.id, email: user.email, role };
}

/** The session of the signed-in caller (the one this request's access token belongs to). */
export function currentSession(request: FastifyRequest): AuthSession {
  if (!request.authSession) throw new AppError('UNAUTHORIZED', 401);
  return request.authSession;
}

/** Where a request comes from, for a session: its user agent and client address (`request.ip` honours TRUST_PROXY). */
export function clientOf(request: FastifyRequest): SessionClient {
  const userAgent = request.headers['user-agent'];
  return { userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null, address: request.ip ?? null };
}

/** The token of `Authorization: Bearer <token>`; UNAUTHORIZED (401) when there is none. */
export function bearerToken(request: FastifyRequest): string {
  const token = presentedBearer(request);
  if (!token) throw new AppError('UNAUTHORIZED', 401);
  return token;
}

/** The token of `Authorization: Bearer <token>`, or null when there is none (each caller has its own refusal). */
export function presentedBearer(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

/**
 * Bearer authentication for every protected route. The token proves who is calling and in which session;
 * the user, their roles and that session are one statement, kept by this instance until a change to any
 * of them is announced (users' SignedInUsers, issue 45), so a deleted or demoted user, or an ended session
 * (sign-out, ended from another device, password change), loses access from the next request on the
 * instance that made the change, and on every other one once PostgreSQL's notification arrives. A token
 * past half its life is replaced through the `Bearer` response header (spec section 4), never with one
 * that outlives the session.
 */
export function createGuards(deps: { accessTokens: AccessTokens; signedIn: SignedInUsers; sessions: Sessions; clock: Clock; staffTwoFactor: StaffTwoFactor }): Guards {
  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<AuthUser> {
    const claims = await deps.accessTokens.verify(bearerToken(request));
    const found = await deps.signedIn.find(claims.userId, claims.sessionId, deps.clock.now());
    if (!found) throw new AppError('UNAUTHORIZED', 401);
    const { user, session } = found;
    if (!session) throw new AppError('SESSION_EXPIRED', 401);
    // A password change or reset ends every session signed in before it (tokens carry iat in seconds).
    if (user.tokens_valid_after !== null && claims.issuedAt < Math.floor(Date.parse(user.tokens_valid_after) / 1000)) {
      throw new AppError('SESSION_EXPIRED', 401);
    }
    request.authUser = user;
    request.authSession = session;
    request.viewedBy = claims.viewedBy;
    // Issue 44: staff without a second factor may sign in, but only to enrol one (read from the same row).
    request.twoFactorEnrolmentRequired = deps.staffTwoFactor === 'required' && isStaff(user.roles) && user.two_factor_enabled !== 1;
    if (request.twoFactorEnrolmentRequired && request.routeOptions.config.duringTwoFactorEnrolment !== true) {
      throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', 403);
    }
    // The kept session remembers the write, so the next one waits its minute again.
    const touchedAt = await deps.sessions.touch(session.id, session.last_active_at);
    if (touchedAt) session.last_active_at = touchedAt;
    if (deps.accessTokens.isPastHalfLife(claims) && claims.expiresAt * 1000 < Date.parse(session.expires_at)) {
      reply.header('Bearer', await deps.sessions.renewToken(user, session, claims.viewedBy));
    }
    return user;
  }

  return {
    async user(request, reply) {
      await authenticate(request, reply);
      refuseWriteInView(request);
    },
    async staff(request, reply) {
      const user = await authenticate(request, reply);
      // A view of a customer's account is the customer's session: it never acts as staff, whoever opened it.
      if (request.viewedBy !== null) throw new AppError('FORBIDDEN', 403);
      const permission = request.routeOptions.config.permission;
      if (permission === undefined || !hasPermission(user.roles, permission)) throw new AppError('FORBIDDEN', 403);
    },
    async optionalUser(request, reply) {
      if (request.headers.authorization === undefined) return;
      await authenticate(request, reply);
      refuseWriteInView(request);
    },
    async signingOut(request, reply) {
      if (request.headers.authorization === undefined) return;
      try {
        await authenticate(request, reply);
      } catch {
        // An expired or ended session signs out through its offline token, or is already out.
        request.authUser = null;
        request.authSession = null;
        request.twoFactorEnrolmentRequired = false;
        request.viewedBy = null;
      }
    },
  };
}

/** GET and HEAD read; so does a route whose config says it only reads (a preview by POST). */
export function isWrite(method: string, config: { readsOnly?: boolean } | undefined): boolean {
  return method !== 'GET' && method !== 'HEAD' && config?.readsOnly !== true;
}

/**
 * Issue 47: a read-only view of a customer's account sees what the customer sees and changes nothing: every
 * write answers 403 READ_ONLY_VIEW. Its own end is a sign-out (`POST /auth/logout`, the signing-out guard),
 * which it may do.
 */
function refuseWriteInView(request: FastifyRequest): void {
  if (request.viewedBy !== null && isWrite(request.method, request.routeOptions.config)) throw new AppError('READ_ONLY_VIEW', 403);
}

function guardsOf(route: Pick<RouteOptions, 'onRequest'>): unknown[] {
  const hooks = route.onRequest;
  if (!hooks) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Issue 47: every route that runs the staff guard names the permission it needs, and only those routes name
 * one, checked as each route is added: an admin route without a permission stops the app at start (every test
 * names it) instead of being open to every staff role, or to none.
 */
export function requirePermissions(app: FastifyInstance, guards: Guards): void {
  app.addHook('onRoute', (route) => {
    const staff = guardsOf(route).includes(guards.staff);
    const permission: unknown = route.config?.permission;
    if (staff && !isPermission(permission)) {
      throw new Error(`${String(route.method)} ${route.url} runs the staff guard without a permission: name one of contract/permissions.ts in its config`);
    }
    if (!staff && permission !== undefined) throw new Error(`${String(route.method)} ${route.url} names a permission but does not run the staff guard`);
  });
}
