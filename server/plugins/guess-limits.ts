import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { type Throttle, type ThrottleRule } from '../modules/auth/index.js';

/**
 * Issue 17: every code that can be guessed (discount codes, coupons, Lite keys, verification codes,
 * reset links, the desktop activation) is limited per client address and, when signed in, per account.
 * Failed attempts are counted in the database (so every instance shares the count); once a limit is
 * reached, the next attempt is refused with 429 TOO_MANY_REQUESTS and `Retry-After` before it runs.
 */
export interface GuessLimit {
  /** The counter's name, e.g. 'coupon'. */
  name: string;
  perAddress: ThrottleRule;
  perAccount?: ThrottleRule;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    guessLimit?: GuessLimit;
  }
}

/**
 * The counter of one limit for one account. Signed-in routes count under it by themselves; a public route
 * that learns the account from what was sent (a sign-in's second step, issue 44) counts under it itself.
 */
export function accountGuessKey(limit: GuessLimit, accountId: string): string {
  return `guess:${limit.name}:account:${accountId}`;
}

function keysOf(request: FastifyRequest, limit: GuessLimit): { key: string; rule: ThrottleRule }[] {
  const keys = [{ key: `guess:${limit.name}:address:${request.ip}`, rule: limit.perAddress }];
  if (limit.perAccount && request.authUser) keys.push({ key: accountGuessKey(limit, request.authUser.id), rule: limit.perAccount });
  return keys;
}

/**
 * Counts a failed guess on a route whose answer is not an error (a reset link checked and found
 * invalid answers 200 `{ valid: false }`).
 */
export async function countFailedGuess(request: FastifyRequest): Promise<void> {
  await request.server.countFailedGuess(request);
}

declare module 'fastify' {
  interface FastifyInstance {
    countFailedGuess(request: FastifyRequest): Promise<void>;
  }
}

export function registerGuessLimits(app: FastifyInstance, throttle: Throttle): void {
  const count = async (request: FastifyRequest) => {
    const limit = request.routeOptions.config.guessLimit;
    if (!limit) return;
    for (const { key, rule } of keysOf(request, limit)) {
      await throttle.hit(key, rule).catch((reached: unknown) => {
        if (!(reached instanceof AppError)) throw reached;
      });
    }
  };
  app.decorate('countFailedGuess', count);
  app.addHook('preHandler', async (request) => {
    const limit = request.routeOptions.config.guessLimit;
    if (!limit) return;
    for (const { key, rule } of keysOf(request, limit)) await throttle.check(key, rule);
  });
  app.addHook('onError', async (request, _reply, error) => {
    const limit = request.routeOptions.config.guessLimit;
    // A wrong, used or expired code counts; a refusal by this limit itself, or a server failure, does not.
    if (!limit || !(error instanceof AppError) || error.statusCode < 400 || error.statusCode >= 500 || error.statusCode === 429) return;
    await count(request);
  });
}

const MINUTES = 60;
/**
 * The limits of each guessable code (attempts that failed, per window), one counter per purpose: per
 * secret being guessed (issue 44 item 9). Routes that guess the same secret share one on purpose, or
 * an attacker would get each limit once per route: the reset link's check and its use, a Lite key's
 * redemption and its claim from the desktop application.
 */
export const GUESS_LIMITS = {
  discountCode: { name: 'discount-code', perAddress: { limit: 30, windowSeconds: 15 * MINUTES } },
  coupon: { name: 'coupon', perAddress: { limit: 20, windowSeconds: 15 * MINUTES }, perAccount: { limit: 10, windowSeconds: 15 * MINUTES } },
  liteKey: { name: 'lite-key', perAddress: { limit: 20, windowSeconds: 15 * MINUTES }, perAccount: { limit: 10, windowSeconds: 15 * MINUTES } },
  /** The code that confirms a registration (`/users/confirm`). */
  signupCode: { name: 'signup-code', perAddress: { limit: 30, windowSeconds: 15 * MINUTES } },
  /** The code mailed to a new sign-in address (`/users/me/email/confirm`; per account, the change counts its own entries). */
  emailChangeCode: { name: 'email-change-code', perAddress: { limit: 30, windowSeconds: 15 * MINUTES } },
  verificationLink: { name: 'verification-link', perAddress: { limit: 30, windowSeconds: 15 * MINUTES } },
  resetLink: { name: 'reset-link', perAddress: { limit: 20, windowSeconds: 15 * MINUTES } },
  activation: { name: 'activation', perAddress: { limit: 40, windowSeconds: 60 * MINUTES }, perAccount: { limit: 20, windowSeconds: 60 * MINUTES } },
  /**
   * Issue 44: every proof of the account's owner: authenticator codes, recovery codes and passkeys at the
   * second step, the codes that confirm an authenticator app, and the password or code that turns a
   * factor off. One counter per account across all of them (a challenge also dies after 5 wrong answers).
   */
  twoFactor: { name: 'two-factor', perAddress: { limit: 30, windowSeconds: 15 * MINUTES }, perAccount: { limit: 10, windowSeconds: 15 * MINUTES } },
} satisfies Record<string, GuessLimit>;
