import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Language } from '../../i18n.js';
import { type Sessions, type Throttle } from '../auth/index.js';
import { recordActivity, type StaffActor } from '../activity/index.js';
import type { ActivityKind } from '../../../contract/activity.js';
import { queueMail, appLink, renderMail, type MailKind } from '../mail/index.js';
import { type UsersRepo } from '../users/index.js';

/** What the second factor's services need, built once in server/app.ts. */
export interface TwoFactorDeps {
  db: Kysely<Database>;
  clock: Clock;
  throttle: Throttle;
  sessions: Sessions;
  users: UsersRepo;
  /** The portal's public address: the passkeys' relying party (its host is the RP ID) and the mails' links. */
  appUrl: string;
}

/** The account a change is made to, as `lockAccount` reads it: who to tell. */
export interface Owner {
  id: string;
  email: string;
  first_name: string | null;
  language: string;
}

/**
 * A change to the account's factors as its owner hears of it: the timeline entry (with the admin who
 * made it, if one did) and a mail to the owner in their language, both in the change's transaction. A
 * careful service tells the owner of every change that weakens the account or adds a way in, so someone
 * who took over a session cannot do it unnoticed.
 */
export async function recordChange(
  trx: Kysely<Database>,
  deps: Pick<TwoFactorDeps, 'appUrl'>,
  change: { owner: Owner; kind: ActivityKind; mail: MailKind | null; details?: Record<string, unknown>; staff?: StaffActor | null; at: Date; values?: Record<string, string> },
): Promise<void> {
  await recordActivity(trx, { userId: change.owner.id, kind: change.kind, staff: change.staff ?? null, details: change.details ?? {}, at: change.at });
  if (!change.mail) return;
  const language: Language = change.owner.language === 'de' ? 'de' : 'en';
  const mail = renderMail(change.mail, language, {
    name: change.owner.first_name ?? change.owner.email,
    link: appLink(deps.appUrl, language, '/account/security'),
    ...change.values,
  });
  await queueMail(trx, change.at, change.owner.email, mail);
}
