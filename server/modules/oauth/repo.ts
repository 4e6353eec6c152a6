import type { Insertable, Kysely } from 'kysely';
import type { SocialProvider } from '../../../contract/oauth.js';
import type { Database, OAuthRequestsTable } from '../../db/schema.js';

/**
 * Google's and Facebook's SQL: the authorization requests between the redirect to the provider and its
 * answer (`oauth_requests`, kept by the digest of their state), and the provider identities linked to
 * accounts (`social_accounts`, one per provider and account; a provider's subject belongs to one account).
 */

type Db = Kysely<Database>;

export async function insertRequest(db: Db, request: Insertable<OAuthRequestsTable>): Promise<void> {
  await db.insertInto('oauth_requests').values(request).execute();
}

/** Takes the request with this state digest: it is deleted as it is read, so a state answers once. */
export async function takeRequest(db: Db, stateHash: string) {
  return db.deleteFrom('oauth_requests').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
}

/** The account a provider identity is linked to, if any. */
export async function linkedUserId(db: Db, provider: SocialProvider, subject: string): Promise<string | undefined> {
  const row = await db.selectFrom('social_accounts').select('user_id').where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst();
  return row?.user_id;
}

/** Links a provider identity to an account; the primary key refuses an identity linked already. */
export async function insertLink(db: Db, link: { provider: SocialProvider; subject: string; userId: string; email: string | null; createdAt: string }): Promise<void> {
  await db
    .insertInto('social_accounts')
    .values({ provider: link.provider, subject: link.subject, user_id: link.userId, email: link.email, created_at: link.createdAt })
    .execute();
}

/** Unlinks the account's identity of this provider. */
export async function deleteLink(db: Db, userId: string, provider: SocialProvider): Promise<void> {
  await db.deleteFrom('social_accounts').where('user_id', '=', userId).where('provider', '=', provider).execute();
}

/** The providers linked to the account. */
export async function linkedProviders(db: Db, userId: string) {
  return db.selectFrom('social_accounts').select('provider').where('user_id', '=', userId).execute();
}

/** The account's linked identities as the data export gives them (issue 17; GDPR article 20). */
export async function socialAccountsOf(db: Db, userId: string) {
  return db.selectFrom('social_accounts').select(['provider', 'email', 'created_at']).where('user_id', '=', userId).execute();
}
