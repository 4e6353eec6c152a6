import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are ISO-8601 UTC strings on both dialects (timestamptz is parsed back to ISO on PostgreSQL). */
type Timestamp = ColumnType<string, string, string>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  email_verified_at: Timestamp | null;
  signup_source: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  phone: string | null;
  /** 0 or 1 on both dialects. */
  newsletter: ColumnType<number, number | undefined, number>;
  language: ColumnType<string, string | undefined, string>;
  coupon_code: string | null;
  tokens_valid_after: Timestamp | null;
  /** ISO 3166-1 alpha-2, or null. */
  country: string | null;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  link_hash: string;
  attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text: string;
  html: string;
  created_at: Timestamp;
}

export interface ThrottlesTable {
  key: string;
  count: number;
  window_ends_at: Timestamp;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  /** All tokens rotated from one sign-in share a family; reuse of a rotated token revokes the family. */
  family_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  rotated_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface SocialAccountsTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: Timestamp;
}

export interface OAuthRequestsTable {
  /** SHA-256 of the state sent to the provider. */
  state_hash: string;
  provider: string;
  redirect_url: string;
  code_verifier: string;
  nonce: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface BillingCustomersTable {
  user_id: string;
  provider_customer_id: string;
  created_at: Timestamp;
}

export interface WebhookEventsTable {
  event_id: string;
  event_type: string;
  occurred_at: Timestamp;
  received_at: Timestamp;
}

export interface SubscriptionsTable {
  id: string;
  customer_id: string;
  user_id: string | null;
  status: string;
  price_id: string;
  billing_interval: string;
  currency_code: string;
  current_period_starts_at: Timestamp | null;
  current_period_ends_at: Timestamp | null;
  next_billed_at: Timestamp | null;
  trial_ends_at: Timestamp | null;
  scheduled_change_action: string | null;
  scheduled_change_at: Timestamp | null;
  canceled_at: Timestamp | null;
  created_at: Timestamp;
  /** occurred_at of the event this row was last written from. */
  last_event_at: Timestamp;
}

export interface TransactionsTable {
  id: string;
  customer_id: string;
  user_id: string | null;
  subscription_id: string | null;
  status: string;
  origin: string;
  currency_code: string;
  /** Minor units; PostgreSQL's bigint arrives as a string. */
  subtotal: ColumnType<number | string, number, number>;
  discount: ColumnType<number | string, number, number>;
  tax: ColumnType<number | string, number, number>;
  grand_total: ColumnType<number | string, number, number>;
  billed_at: Timestamp | null;
  items: string;
  created_at: Timestamp;
  last_event_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  user_roles: UserRolesTable;
  refresh_tokens: RefreshTokensTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  throttles: ThrottlesTable;
  social_accounts: SocialAccountsTable;
  oauth_requests: OAuthRequestsTable;
  billing_customers: BillingCustomersTable;
  webhook_events: WebhookEventsTable;
  subscriptions: SubscriptionsTable;
  transactions: TransactionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type { Generated };
