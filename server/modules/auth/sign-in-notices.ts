import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isLanguage, translate, type Language } from '../../i18n.js';
import { queueMail, appLink, renderMail } from '../mail/index.js';
import { recipientOf } from '../users/index.js';
import { clientHistory } from './sessions-repo.js';

/** Issue 44 item 7: a browser and system the account has not used for this long are new again. */
export const NEW_SIGN_IN_QUIET_DAYS = 90;
const DAY_MS = 86_400_000;

/** Where a sign-in or a request came from, as a session keeps it. */
export interface ClientSeen {
  browser: string | null;
  os: string | null;
  address: string | null;
}

/**
 * Whether a sign-in from `family` ("Chrome|Windows") is news to the owner: not for an account's first
 * session ever (the sign-in that completes a registration, by code or as a new Google or Facebook
 * account), nor for a browser and system one of its sessions used within the last 90 days. One query,
 * two index probes (sessions_user_idx, sessions_client_idx), in the sign-in's transaction.
 */
export async function isNewClient(trx: Kysely<Database>, userId: string, family: string, now: Date): Promise<boolean> {
  const seen = await clientHistory(trx, userId, family, new Date(now.getTime() - NEW_SIGN_IN_QUIET_DAYS * DAY_MS).toISOString());
  return seen.signedInBefore && !seen.usedLately;
}

/** A moment as the reader reads it: "22 November 2026 at 10:00 UTC", "22. November 2026 um 10:00 UTC". */
export function mailTime(at: Date, language: Language): string {
  return `${new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

/** Who to mail, read in the caller's transaction (the account is the users module's). */
async function owner(trx: Kysely<Database>, userId: string) {
  const row = await recipientOf(trx, userId);
  if (!row) return undefined;
  return { email: row.email, name: row.first_name ?? row.email, language: isLanguage(row.language) ? row.language : 'en' };
}

function clientValues(client: ClientSeen, language: Language): { browser: string; os: string; address: string } {
  return {
    browser: client.browser ?? translate(language, 'mail.unknownBrowser'),
    os: client.os ?? translate(language, 'mail.unknownSystem'),
    address: client.address ?? translate(language, 'mail.unknownAddress'),
  };
}

/** Queues, in the sign-in's transaction, the owner's mail about a sign-in from a new browser and system. */
export async function queueNewSignInMail(trx: Kysely<Database>, appUrl: string, userId: string, client: ClientSeen, at: Date): Promise<void> {
  const to = await owner(trx, userId);
  if (!to) return;
  const mail = renderMail('newSignIn', to.language, {
    name: to.name,
    ...clientValues(client, to.language),
    time: mailTime(at, to.language),
    link: appLink(appUrl, to.language, '/account/security'),
  });
  await queueMail(trx, at, to.email, mail);
}

/**
 * Queues, in the transaction that ended the session, the owner's mail about an offline token used again
 * after it was renewed: which session ended, when, where the repeated use came from, and what to do.
 */
export async function queueTokenReusedMail(
  trx: Kysely<Database>,
  appUrl: string,
  userId: string,
  reuse: { session: ClientSeen; by: ClientSeen },
  at: Date,
): Promise<void> {
  const to = await owner(trx, userId);
  if (!to) return;
  const session = clientValues(reuse.session, to.language);
  const mail = renderMail('tokenReused', to.language, {
    name: to.name,
    sessionBrowser: session.browser,
    sessionOs: session.os,
    ...clientValues(reuse.by, to.language),
    time: mailTime(at, to.language),
    link: appLink(appUrl, to.language, '/account/security'),
    passwordLink: appLink(appUrl, to.language, '/account/profile'),
  });
  await queueMail(trx, at, to.email, mail);
}
