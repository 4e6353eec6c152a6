import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Role } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const ISSUER = 'shapelab-portal';
const AUDIENCE = 'shapelab-portal';
const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  /** The session it belongs to (`sid`): the guard refuses the token once that session has ended. */
  sessionId: string;
  roles: Role[];
  issuedAt: number;
  expiresAt: number;
  /**
   * Issue 47: the staff member whose read-only view of the account this token's session is (`vby`), or null.
   * In the signed token, so the guard knows a view without reading the session row.
   */
  viewedBy: string | null;
}

/**
 * Access tokens: HS256 JWTs with an explicit algorithm list, required `exp`, issuer, audience and type,
 * checked against the injected clock. Roles in the token are informative; the guard takes roles from the
 * signed-in user it reads (or keeps until a change is announced), so a demotion or deletion takes effect
 * from the next request.
 */
/**
 * Verified tokens are remembered (bounded, oldest evicted first): jose verifies through WebCrypto at
 * about 150 µs a call, which dominated a signed-in request. A cached token is still refused once its
 * `exp` passes by the clock; revocation does not rely on this cache (the guard asks for the token's session).
 */
const VERIFIED_CACHE_SIZE = 10_000;

export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * A token of session `sessionId`, living an hour but never past `notAfter` (the session's absolute expiry);
   * with `viewedBy`, a token of a staff member's read-only view of the account (issue 47).
   */
  async sign(userId: string, roles: Role[], sessionId: string, notAfter: Date, viewedBy: string | null = null): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const expires = Math.min(now + ACCESS_TOKEN_TTL_SECONDS, Math.floor(notAfter.getTime() / 1000));
    return new SignJWT({ roles, sid: sessionId, ...(viewedBy === null ? {} : { vby: viewedBy }) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(expires)
      .sign(this.key);
  }

  async verify(token: string): Promise<AccessClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAt * 1000 > this.clock.now().getTime()) return cached;
      this.verified.delete(token);
      throw new AppError('SESSION_EXPIRED', 401);
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: 'JWT',
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        currentDate: this.clock.now(),
      });
      const roles = Array.isArray(payload.roles) ? (payload.roles as Role[]) : [];
      if (typeof payload.sid !== 'string' || payload.sid === '') throw new AppError('UNAUTHORIZED', 401);
      if (payload.vby !== undefined && (typeof payload.vby !== 'string' || payload.vby === '')) throw new AppError('UNAUTHORIZED', 401);
      return {
        userId: payload.sub as string,
        sessionId: payload.sid,
        roles,
        issuedAt: payload.iat as number,
        expiresAt: payload.exp as number,
        viewedBy: typeof payload.vby === 'string' ? payload.vby : null,
      };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new AppError('SESSION_EXPIRED', 401, { cause: error });
      throw new AppError('UNAUTHORIZED', 401, { cause: error });
    }
  }

  /** Past half its life, a token is replaced on the next request (sent back in the `Bearer` header). */
  isPastHalfLife(claims: AccessClaims): boolean {
    const now = this.clock.now().getTime() / 1000;
    return now - claims.issuedAt > (claims.expiresAt - claims.issuedAt) / 2;
  }
}
