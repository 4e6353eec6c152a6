/**
 * How the person at the keyboard proves the account is theirs (contract/two-factor.ts, reauthentication):
 * the password; for an account without one (Google or Facebook only), a code from its authenticator app; or,
 * with neither, a sign-in within the last 10 minutes, which the server checks.
 */
export type Proof = 'password' | 'code' | 'recent';

export function proofFor(account: { hasPassword: boolean; totp: boolean }): Proof {
  if (account.hasPassword) return 'password';
  return account.totp ? 'code' : 'recent';
}
