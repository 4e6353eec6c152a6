import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { isAdmin } from '../../contract/roles.js';
import { AppError } from '../errors.js';
import type { AccessTokens } from '../modules/auth/access-tokens.js';
import type { UsersRepo, UserWithRoles } from '../modules/users/repo.js';

/** The signed-in user as loaded by the guard (one read per request, reused by the handler). */
export type AuthUser = UserWithRoles;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `user`/`admin` guards; null on public routes. */
    authUser: AuthUser | null;
  }
}

export interface Guards {
  /** Any signed-in user. */
  user: onRequestAsyncHookHandler;
  /** Signed-in users with the admin role (403 for others). */
  admin: onRequestAsyncHookHandler;
  /** Public routes that do more for a signed-in caller: no Authorization header is a visitor; a bad one is 401. */
  optionalUser: onRequestAsyncHookHandler;
}

/** The user a guard has authenticated; calling it on an unguarded route is a programming error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('UNAUTHORIZED', 401);
  return request.authUser;
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 401);
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new AppError('UNAUTHORIZED', 401);
  return match[1];
}

/**
 * Bearer authentication for every protected route. The token proves who is calling; what they may do is
 * read from the database on each request, so a deleted or demoted user loses access at once.
 * A token past half its life is replaced through the `Bearer` response header (spec section 4).
 */
export function createGuards(deps: { accessTokens: AccessTokens; users: UsersRepo }): Guards {
  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<AuthUser> {
    const claims = await deps.accessTokens.verify(bearerToken(request));
    const user = await deps.users.findById(claims.userId);
    if (!user) throw new AppError('UNAUTHORIZED', 401);
    // A password change or reset ends every session signed in before it (tokens carry iat in seconds).
    if (user.tokens_valid_after !== null && claims.issuedAt < Math.floor(Date.parse(user.tokens_valid_after) / 1000)) {
      throw new AppError('SESSION_EXPIRED', 401);
    }
    request.authUser = user;
    if (deps.accessTokens.isPastHalfLife(claims)) {
      reply.header('Bearer', await deps.accessTokens.sign(user.id, user.roles));
    }
    return user;
  }

  return {
    async user(request, reply) {
      await authenticate(request, reply);
    },
    async admin(request, reply) {
      const user = await authenticate(request, reply);
      if (!isAdmin(user.roles)) throw new AppError('FORBIDDEN', 403);
    },
    async optionalUser(request, reply) {
      if (request.headers.authorization !== undefined) await authenticate(request, reply);
    },
  };
}
