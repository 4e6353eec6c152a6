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
  /** Last start of the desktop application (desktop API). */
  last_launched_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** First download of the desktop application (`POST /users/downloadedShapelab`). */
  downloaded_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0 or 1, kept by triggers on social_accounts and user_roles (migration 0009). */
  google_connected: ColumnType<number, never, never>;
  facebook_connected: ColumnType<number, never, never>;
  is_admin: ColumnType<number, never, never>;
  /** 'free', 'trial', 'subscriber' or 'licence-owner', kept by triggers on subscriptions and licences (migration 0017). */
  plan: ColumnType<string, never, never>;
  /** Every admin grid filter as one number (migration 0017, server/modules/users/segments.ts). */
  segment: ColumnType<number, never, never>;
  /**
   * 0 or 1: a confirmed authenticator app or a passkey (issue 44, migration 0019), kept by the two-factor
   * module in the transaction of every change to them, so the per-request guard reads it with the user.
   */
  two_factor_enabled: ColumnType<number, number | undefined, number>;
}

/** How many users each segment holds, kept by triggers on users (migration 0018); never written by the app. */
export interface UserSegmentCountsTable {
  segment: ColumnType<number, never, never>;
  /** bigint on PostgreSQL (read as a string there). */
  users: ColumnType<number | string, never, never>;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  link_hash: string;
  attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
  /** Issue 48 item 5: the digest of the key the browser that asked for the mail keeps; null when none asked. */
  browser_hash: string | null;
}

/** A new sign-in address waiting for its code (issue 20 item 7). */
export interface EmailChangesTable {
  user_id: string;
  new_email: string;
  code_hash: string;
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
  /** The job that wrote it: a job run twice (a crash before it was marked done) writes its mail once. */
  job_id: string | null;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  key: string | null;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
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
  /** The sign-in this token renews; it ends with it. Null only for tokens issued before sessions existed. */
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** Issue 47: 'view' for a staff member's read-only view of the customer's account. */
  method: 'password' | 'code' | 'link' | 'google' | 'facebook' | 'admin' | 'passkey' | 'view';
  /** 1 with "remember me" (30 days), else 0 (12 hours). */
  remember: number;
  created_at: Timestamp;
  last_active_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  ended_reason: string | null;
  browser: string | null;
  os: string | null;
  address: string | null;
  /** Issue 44: the second factor the sign-in was completed with ('totp', 'recovery', 'passkey'), or null. */
  second_factor: ColumnType<string | null, string | null | undefined, string | null>;
  /** The browser and system by name, without versions ("Chrome|Windows"): what a new-sign-in mail compares. */
  client_family: ColumnType<string, string | undefined, string>;
  /** Issue 47: the staff member who opened this read-only view of the account; null for the owner's own sign-ins. */
  viewed_by: ColumnType<string | null, string | null | undefined, never>;
}

/** Issue 44: an authenticator app's secret, pending until a code confirms it. */
export interface TwoFactorTotpTable {
  user_id: string;
  /** Base32. */
  secret: string;
  confirmed_at: Timestamp | null;
  /** The newest TOTP time step accepted (a code is never accepted twice); null before any. */
  last_step: number | null;
  created_at: Timestamp;
}

/** Issue 44: one recovery code, kept as a SHA-256 digest; used once. */
export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

/** Issue 44: a WebAuthn credential (passkey). */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** Base64url; unique across users. */
  credential_id: string;
  /** Base64url of the COSE public key. */
  public_key: string;
  /** The authenticator's signature counter (bigint on PostgreSQL, read as a number). */
  counter: ColumnType<number, number | undefined, number>;
  /** JSON array of transports, or null. */
  transports: string | null;
  name: string;
  device_type: string;
  backed_up: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** Issue 44: the first step of a sign-in that needs a second factor, kept by the digest of its token. */
export interface SignInChallengesTable {
  id: string;
  user_id: string;
  method: 'password' | 'admin' | 'google' | 'facebook';
  remember: number;
  tries: ColumnType<number, number | undefined, number>;
  webauthn_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Issue 44: a WebAuthn challenge waiting for its answer (a passkey registration, or a sign-in with a passkey alone). */
export interface WebauthnCeremoniesTable {
  /** The digest of what names it: the challenge itself for a registration, the ceremony token for a sign-in. */
  id: string;
  purpose: 'registration' | 'sign-in';
  user_id: string | null;
  challenge: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
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

/** Correctly signed Paddle notifications whose data failed the schema (answered 400, logged once). */
export interface WebhookRejectionsTable {
  key: string;
  event_id: string | null;
  event_type: string | null;
  problem: string;
  deliveries: number;
  first_at: Timestamp;
  last_at: Timestamp;
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
  /** Set when this subscription was bought while another was live: it is being undone. */
  duplicate_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 46 item 7: when Paddle paused it, and when a pause (scheduled or running) ends by itself. */
  paused_at: ColumnType<string | null, string | null | undefined, string | null>;
  scheduled_resume_at: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** The state of this payment's refund, when the portal asked for one (see RefundsTable). */
  refund_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 46 item 6: the card the payment was captured on (Paddle's method_details), when it was a card. */
  card_last4: ColumnType<string | null, string | null | undefined, string | null>;
  card_expiry_month: ColumnType<number | null, number | null | undefined, number | null>;
  card_expiry_year: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Issue 46 item 1: the customer's one 14-day refund per release and for the subscription (primary key user_id, scope). */
export interface RefundUsesTable {
  user_id: string;
  /** 'subscription' or 'release:<release>'. */
  scope: string;
  transaction_id: string;
  used_by: 'customer' | 'admin' | 'before' | 'chargeback';
  used_at: Timestamp;
}

/** Issue 46 item 5: a renewal Paddle could not charge, from its first failure to its end. */
export interface PaymentRecoveriesTable {
  transaction_id: string;
  subscription_id: string;
  user_id: string | null;
  amount: ColumnType<number | string, number, number>;
  currency_code: string;
  started_at: Timestamp;
  attempts: number;
  last_failed_at: Timestamp;
  first_mail_at: Timestamp | null;
  final_mail_at: Timestamp | null;
  outcome: 'open' | 'recovered' | 'lost';
  ended_at: Timestamp | null;
}

/** Issue 46 item 6: one warning per customer and card (primary key user_id, card). */
export interface CardExpiryWarningsTable {
  user_id: string;
  card: string;
  warned_at: Timestamp;
}

/** Issue 46 item 8: each cancellation, with why. */
export interface CancellationsTable {
  id: string;
  user_id: string;
  subscription_id: string;
  reason: string | null;
  comment: string | null;
  refund: ColumnType<number | boolean, number, number>;
  actor_id: string | null;
  created_at: Timestamp;
}

/** Issue 46 item 9: Paddle's chargeback adjustments. */
export interface ChargebacksTable {
  adjustment_id: string;
  transaction_id: string;
  user_id: string | null;
  subscription_id: string | null;
  amount: ColumnType<number | string, number, number>;
  currency_code: string;
  created_at: Timestamp;
  reversed_at: Timestamp | null;
}

export interface CheckoutsTable {
  user_id: string;
  fingerprint: string;
  transaction_id: string | null;
  claimed_at: Timestamp;
}

export interface RefundsTable {
  id: string;
  transaction_id: string;
  user_id: string | null;
  reason: 'duplicate' | 'customer';
  subscription_id: string | null;
  licence_id: string | null;
  release: string | null;
  status: 'pending' | 'requested' | 'approved' | 'rejected' | 'failed';
  adjustment_id: string | null;
  amount: ColumnType<number | string, number, number>;
  currency_code: string;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  mailed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LicencesTable {
  id: string;
  user_id: string | null;
  source: 'purchase' | 'coupon' | 'lite-key';
  edition: 'full' | 'lite';
  channel: string;
  release: string | null;
  updates_until: Timestamp | null;
  transaction_id: string | null;
  product_id: string | null;
  price_id: string | null;
  /** The coupon code or Lite key it came from. */
  source_ref: string | null;
  granted_at: Timestamp;
  revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
  revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccessPassesTable {
  id: string;
  user_id: string;
  source_ref: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
}

export interface SeatsTable {
  id: string;
  user_id: string;
  slot: number;
  computer_id: string;
  name: string;
  token_hash: string;
  activated_at: Timestamp;
  last_login_at: Timestamp | null;
  /** The store or plan the computer was activated through (contract/analytics.ts CHANNELS). */
  channel: ColumnType<string, string | undefined, string>;
}

export interface CouponsTable {
  code: string;
  grant_kind: 'licence' | 'access';
  release: string | null;
  access_days: number | null;
  usage_limit: number | null;
  redeemed_count: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  created_by: string | null;
}

export interface CouponRedemptionsTable {
  code: string;
  user_id: string;
  redeemed_at: Timestamp;
}

export interface LiteKeysTable {
  key: string;
  channel: string;
  imported_at: Timestamp;
  claimed_by: string | null;
  claimed_at: Timestamp | null;
}

export interface ReleasesTable {
  id: string;
  release: string;
  version: string;
  platform: string;
  url: string;
  published_at: Timestamp;
}

export interface DownloadsTable {
  id: string;
  user_id: string | null;
  release_id: string | null;
  platform: string | null;
  downloaded_at: Timestamp;
}

export interface AnalyticsSessionsTable {
  user_id: string;
  id: string;
  seat_id: string | null;
  started_at: Timestamp;
  ended_at: Timestamp;
  length_seconds: number;
  /** 0 or 1. */
  suspicious: number;
  received_at: Timestamp;
  channel: ColumnType<string, string | undefined, string>;
  /** Time actually played (idle time left out); null: the whole length. */
  played_seconds: number | null;
}

export interface AnalyticsExportsTable {
  user_id: string;
  id: string;
  format: string;
  exported_at: Timestamp;
  received_at: Timestamp;
  channel: ColumnType<string, string | undefined, string>;
}

/** What happened to an account, written by the service that acted (server/modules/activity/repo.ts). */
export interface ActivityLogTable {
  id: string;
  /** The admin who acted, or null: the user themselves or the portal (a webhook, a job). */
  actor_id: string | null;
  /** The account it happened to (no foreign key: the deletion entry outlives the account). */
  user_id: string;
  kind: string;
  /** Unique when set: an event that a replayed delivery could write twice is written once. */
  key: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON. */
  details: string;
  created_at: Timestamp;
}

/**
 * Issue 47: one staff action, append-only (triggers refuse UPDATE and DELETE). Actor and subject are ids
 * without foreign keys: the entry outlives both accounts.
 */
export interface AuditLogTable {
  /** UUIDv7: entries of the same instant list in the order written. */
  id: string;
  created_at: Timestamp;
  actor_id: string;
  /** The staff member's email and widest staff role when they acted. */
  actor_email: string;
  actor_role: string;
  /** contract/audit.ts, AUDIT_ACTIONS. */
  action: string;
  /** The account acted on; null for an action on no one account (an export, a bulk action, a job). */
  subject_id: string | null;
  /** JSON. */
  details: string;
}

export interface Database {
  users: UsersTable;
  user_roles: UserRolesTable;
  user_segment_counts: UserSegmentCountsTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  two_factor_totp: TwoFactorTotpTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  sign_in_challenges: SignInChallengesTable;
  webauthn_ceremonies: WebauthnCeremoniesTable;
  email_verifications: EmailVerificationsTable;
  email_changes: EmailChangesTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  jobs: JobsTable;
  throttles: ThrottlesTable;
  social_accounts: SocialAccountsTable;
  oauth_requests: OAuthRequestsTable;
  billing_customers: BillingCustomersTable;
  webhook_events: WebhookEventsTable;
  webhook_rejections: WebhookRejectionsTable;
  subscriptions: SubscriptionsTable;
  transactions: TransactionsTable;
  licences: LicencesTable;
  checkouts: CheckoutsTable;
  refunds: RefundsTable;
  refund_uses: RefundUsesTable;
  payment_recoveries: PaymentRecoveriesTable;
  card_expiry_warnings: CardExpiryWarningsTable;
  cancellations: CancellationsTable;
  chargebacks: ChargebacksTable;
  access_passes: AccessPassesTable;
  seats: SeatsTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  lite_keys: LiteKeysTable;
  releases: ReleasesTable;
  downloads: DownloadsTable;
  analytics_sessions: AnalyticsSessionsTable;
  analytics_exports: AnalyticsExportsTable;
  analytics_launches: AnalyticsLaunchesTable;
  analytics_sales: AnalyticsSalesTable;
  analytics_activations: AnalyticsActivationsTable;
  analytics_user_channels: AnalyticsUserChannelsTable;
  analytics_user_periods: AnalyticsUserPeriodsTable;
  analytics_rollups: AnalyticsRollupsTable;
  analytics_user_lifetimes: AnalyticsUserLifetimesTable;
  analytics_cohorts: AnalyticsCohortsTable;
  activity_log: ActivityLogTable;
  audit_log: AuditLogTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type { Generated };

/** bigint columns: numbers in, numbers or (PostgreSQL) strings out. */
type Big = ColumnType<number | string, number | undefined, number>;

/** The figures of one user-period (server/db/migrations/0011-analytics.ts PERIOD_FIGURES). */
export interface PeriodFigures {
  sessions: Big;
  session_seconds: Big;
  played_seconds: Big;
  suspicious_sessions: Big;
  launches: Big;
  activations: Big;
  sales: Big;
  is_new: Big;
  exports_obj: Big;
  exports_stl: Big;
  exports_fbx: Big;
  exports_gltf: Big;
  exports_glb: Big;
  exports_ply: Big;
  exports_usdz: Big;
  exports_3mf: Big;
}

export interface AnalyticsLaunchesTable {
  user_id: string;
  id: string;
  channel: string;
  launched_at: Timestamp;
}

export interface AnalyticsActivationsTable {
  user_id: string;
  id: string;
  channel: string;
  activated_at: Timestamp;
}

export interface AnalyticsSalesTable {
  user_id: string;
  id: string;
  channel: string;
  sold_at: Timestamp;
}

export interface AnalyticsUserChannelsTable {
  user_id: string;
  channel: string;
  first_at: Timestamp;
}

export interface AnalyticsUserPeriodsTable extends PeriodFigures {
  user_id: string;
  grain: string;
  period: string;
  channel: string;
}

export interface AnalyticsRollupsTable extends PeriodFigures {
  grain: string;
  channel: string;
  period: string;
  suspicious: number;
  played_minutes: Big;
  user_periods: Big;
  active_users: Big;
}

export interface AnalyticsUserLifetimesTable {
  user_id: string;
  signup_day: string;
  last_active_day: string | null;
  played_seconds: Big;
  suspicious_sessions: Big;
}

export interface AnalyticsCohortsTable {
  grain: string;
  cohort: string;
  suspicious: number;
  played_minutes: Big;
  retained: number;
  users: Big;
}
