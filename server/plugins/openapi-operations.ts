import type { MessageKey } from '../../contract/errors.js';

/**
 * What the OpenAPI document says of each route beyond its zod schemas: its operationId, its area, a
 * summary, and the failures its service decides (404, 409, 422 and the like). The failures that follow from
 * the route's declaration (400 for a schema, 401/403 for a guard, 429 for a limit) are found by
 * server/plugins/openapi.ts itself. An API route without an entry stops the app at start (openapi.ts), and
 * tests/api/openapi.test.ts holds this list and the registered routes together both ways and checks the
 * operationIds and tags.
 */

export const TAGS = [
  { name: 'Auth', description: 'Signing in and out, tokens, and Google/Facebook sign-in.' },
  { name: 'Users', description: 'Registration, email verification, password reset, the profile and the account.' },
  { name: 'Sessions', description: 'Where the signed-in user is signed in, and signing those sessions out.' },
  { name: 'Billing', description: 'The catalogue, price previews, discounts, checkout and billing details (payments through Paddle).' },
  { name: 'Subscription', description: "The user's subscription: its state, cancel, continue, plan changes, payment method and invoices." },
  { name: 'Licences', description: 'Perpetual licences, seats (the computers using them), coupons and Shapelab Lite keys.' },
  {
    name: 'Devices',
    description: `The desktop API: what the Shapelab desktop application calls.

1. Sign the user in with \`POST /api/auth/login\` to get an access token. An account with a second factor answers
   \`{ twoFactorRequired: true, challenge, methods }\`: send the challenge with the code of the user's authenticator app
   (\`{ challenge, code }\`) or a recovery code (\`{ challenge, recoveryCode }\`) to \`POST /api/auth/login/two-factor\`.
2. \`POST /api/desktop/activate\` with \`Authorization: Bearer <access token>\` attaches this computer to one of
   the user's seats and answers a **device token** (\`sld_...\`). Store it; the access token is no longer needed.
3. Every other \`/api/desktop/*\` call sends \`Authorization: Bearer <device token>\`: a heartbeat at each start
   (\`launched: true\`) and from time to time while running, which answers the current **entitlement** (what the
   application may do: \`exportEnabled\`, \`saveEnabled\`, \`plan\`, \`trialEndsAt\`, \`accessEndsAt\`, \`releases\`);
   and reports of sessions and exports, one at a time or queued offline and sent in one batch.
4. A device token stops working (401 \`DEVICE_TOKEN_INVALID\`) when the user releases the seat in the portal
   or activates the computer again with \`replace: true\`. The application then signs in and activates again.

Reports carry the client's own uuid \`id\`, so a retried request is recorded once (\`recorded: false\` the
second time). Every error answer is \`{ messageKey, message }\`; 429 answers carry \`Retry-After\` (seconds).
The command-line client tools/desktop-client.ts (\`npm run desktop\`) makes the same calls.`,
  },
  { name: 'Releases', description: 'Downloads of the desktop application.' },
  { name: 'Events', description: "A server-sent event stream of the signed-in user's changes." },
  { name: 'Analytics', description: 'The admin dashboard figures and sign-up cohorts.' },
  { name: 'Health', description: 'Liveness and readiness for load balancers.' },
  { name: 'Jobs', description: 'The durable background work (mail, refunds at Paddle, cancellations): what waits, what failed and why.' },
  { name: 'Webhooks', description: 'Calls from the payment provider.' },
  {
    name: 'Admin',
    description:
      'Everything only staff may call (also listed under its area). Each operation names the permission it needs and the roles that have it (admin, support, analyst; `x-permission`).',
  },
] as const;

export type TagName = (typeof TAGS)[number]['name'];

export type OperationKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /api/${string}`;

export interface Operation {
  /**
   * The name a generated client gives this call (`client.signIn()`): a camelCase verb phrase saying what it
   * does, unique in the API. Written here rather than made from the path, so that moving a path does not
   * rename the client's method; changing one breaks every client generated from the document.
   */
  operationId: string;
  tag: TagName;
  summary: string;
  description?: string;
  /** Failures the route's service answers, by status (the keys are shown with their English text). */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 410 | 422 | 429 | 503, MessageKey[]>>;
  /** Authenticated by the desktop device token, checked in the handler rather than by a guard. */
  deviceToken?: true;
  /** Answers that are not JSON (no zod schema to describe them), as OpenAPI response objects. */
  responses?: Record<string, unknown>;
}

const PAYMENT_PROVIDER_DOWN: Operation['errors'] = { 503: ['BILLING_UNAVAILABLE'] };

export const OPERATIONS: Record<OperationKey, Operation> = {
  // Health
  'GET /api/health': { operationId: 'checkHealth', tag: 'Health', summary: 'Liveness: the process answers and the database responds' },
  'GET /api/health/ready': { operationId: 'checkReadiness', tag: 'Health', summary: 'Readiness: 200 when this instance should get traffic, 503 naming why not' },

  // Jobs
  'GET /api/admin/jobs': { operationId: 'listJobs', tag: 'Jobs', summary: 'Jobs newest first, by status, with the counts waiting, running and failed (no payloads)' },
  'POST /api/admin/jobs/:id/retry': { operationId: 'retryJob', tag: 'Jobs', summary: 'Give a failed job its tries again, due now', errors: { 409: ['JOB_NOT_RETRYABLE'] } },

  // Auth
  'POST /api/auth/login': {
    operationId: 'signIn',
    tag: 'Auth',
    summary: 'Sign in with email and password',
    description:
      'Answers an access token (JWT, send as `Authorization: Bearer`) and an offline token to renew it with `POST /api/auth/validate`. For an account with a second factor it answers `{ twoFactorRequired: true, challenge, methods }` and no token: the sign-in finishes at `POST /api/auth/login/two-factor`. Failed attempts slow down and are limited per account and address.',
    errors: { 401: ['WRONG_CREDENTIALS'], 403: ['USER_NOT_VERIFIED'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'POST /api/auth/admin-login': {
    operationId: 'signInAsAdmin',
    tag: 'Auth',
    summary: 'Sign in to the admin console (a second step for an account with a second factor, as `POST /api/auth/login`)',
    errors: { 401: ['WRONG_CREDENTIALS'], 403: ['NOT_AN_ADMIN'], 429: ['TOO_MANY_REQUESTS'] },
  },
  // Issue 44: the second factor's second step, and passkeys.
  'POST /api/auth/login/two-factor': {
    operationId: 'finishTwoFactorSignIn',
    tag: 'Auth',
    summary: 'The second step of a sign-in: the challenge and a code from the authenticator app, a recovery code or a passkey; answers the tokens',
    description:
      'A challenge lives 5 minutes, allows 5 wrong answers and is used once. Each code and recovery code is accepted once. Wrong answers are also limited per account (from any address) and per address: 429 with `Retry-After`.',
    errors: { 401: ['INVALID_TWO_FACTOR_CODE', 'TWO_FACTOR_CHALLENGE_EXPIRED'], 403: ['NOT_AN_ADMIN', 'USER_NOT_VERIFIED'] },
  },
  'POST /api/auth/login/two-factor/passkey': {
    operationId: 'startTwoFactorPasskey',
    tag: 'Auth',
    summary: "WebAuthn options to answer a sign-in's challenge with one of the account's passkeys",
    errors: { 401: ['TWO_FACTOR_CHALLENGE_EXPIRED'], 404: ['PASSKEY_NOT_FOUND'] },
  },
  'POST /api/auth/passkey/options': {
    operationId: 'startPasskeySignIn',
    tag: 'Auth',
    summary: 'Start a sign-in with a passkey alone: a ceremony (5 minutes, used once) and WebAuthn options for any passkey of this site',
  },
  'POST /api/auth/passkey': {
    operationId: 'signInWithPasskey',
    tag: 'Auth',
    summary: 'Sign in with a passkey alone (user verification required); `admin` signs in at the admin door (staff only)',
    errors: { 401: ['PASSKEY_CEREMONY_EXPIRED', 'PASSKEY_VERIFICATION_FAILED'], 403: ['NOT_AN_ADMIN', 'USER_NOT_VERIFIED'] },
  },
  'GET /api/users/me/two-factor': { operationId: 'getTwoFactorStatus', tag: 'Users', summary: 'Whether the authenticator app is on, how many passkeys, how many recovery codes are left' },
  'POST /api/users/me/two-factor/totp': {
    operationId: 'startTotpSetup',
    tag: 'Users',
    summary: 'Start setting up an authenticator app: a new secret and its otpauth:// address, pending until confirmed',
    errors: { 409: ['TWO_FACTOR_ALREADY_ENABLED'] },
  },
  'POST /api/users/me/two-factor/totp/confirm': {
    operationId: 'confirmTotpSetup',
    tag: 'Users',
    summary: 'Turn the authenticator app on with a code from it; answers ten recovery codes, shown this once',
    errors: { 400: ['INVALID_TWO_FACTOR_CODE'], 409: ['TWO_FACTOR_SETUP_NOT_STARTED', 'TWO_FACTOR_ALREADY_ENABLED'] },
  },
  'DELETE /api/users/me/two-factor': {
    operationId: 'disableTwoFactor',
    tag: 'Users',
    summary: 'Turn the authenticator app and the recovery codes off (the password; without one, a code or a recent sign-in)',
    errors: { 400: ['INVALID_TWO_FACTOR_CODE'], 403: ['WRONG_PASSWORD', 'REAUTHENTICATION_REQUIRED'], 409: ['TWO_FACTOR_NOT_ENABLED'] },
  },
  'POST /api/users/me/two-factor/recovery-codes': {
    operationId: 'regenerateRecoveryCodes',
    tag: 'Users',
    summary: 'Ten new recovery codes; the earlier ones stop working (the password; without one, a code or a recent sign-in)',
    errors: { 400: ['INVALID_TWO_FACTOR_CODE'], 403: ['WRONG_PASSWORD', 'REAUTHENTICATION_REQUIRED'], 409: ['TWO_FACTOR_NOT_ENABLED'] },
  },
  'GET /api/users/me/passkeys': { operationId: 'listPasskeys', tag: 'Users', summary: "The account's passkeys: name, when added, when last used" },
  'POST /api/users/me/passkeys/registration': {
    operationId: 'startPasskeyRegistration',
    tag: 'Users',
    summary: 'WebAuthn options to add a passkey (a discoverable credential; the account’s own passkeys excluded)',
    errors: { 403: ['USER_NOT_VERIFIED'] },
  },
  'POST /api/users/me/passkeys': {
    operationId: 'registerPasskey',
    tag: 'Users',
    summary: "Add a passkey: the browser's answer to the registration options, and a name",
    errors: { 400: ['PASSKEY_CEREMONY_EXPIRED', 'PASSKEY_VERIFICATION_FAILED'], 409: ['PASSKEY_ALREADY_REGISTERED'] },
  },
  'PATCH /api/users/me/passkeys/:id': { operationId: 'renamePasskey', tag: 'Users', summary: 'Rename a passkey', errors: { 404: ['PASSKEY_NOT_FOUND'] } },
  'DELETE /api/users/me/passkeys/:id': {
    operationId: 'removePasskey',
    tag: 'Users',
    summary: 'Remove a passkey (the password; without one, a code or a recent sign-in)',
    errors: { 400: ['INVALID_TWO_FACTOR_CODE'], 403: ['WRONG_PASSWORD', 'REAUTHENTICATION_REQUIRED'], 404: ['PASSKEY_NOT_FOUND'] },
  },
  'DELETE /api/users/:id/two-factor': {
    operationId: 'resetUserTwoFactor',
    tag: 'Users',
    summary: "Remove every second factor of a user (authenticator app, recovery codes, passkeys); logged, and mailed to the user",
    errors: { 404: ['USER_NOT_FOUND'], 409: ['CANNOT_MODIFY_SELF', 'TWO_FACTOR_NOT_ENABLED'] },
  },
  'POST /api/auth/validate': {
    operationId: 'refreshAccessToken',
    tag: 'Auth',
    summary: 'Trade an offline token for a new access token',
    errors: { 401: ['INVALID_TOKEN', 'SESSION_EXPIRED'] },
  },
  'POST /api/auth/logout': {
    operationId: 'signOut',
    tag: 'Auth',
    summary: 'Sign out: ends the session of the access token and/or the offline token sent; never 401',
  },
  'GET /api/auth/:provider/login': {
    operationId: 'startSocialSignIn',
    tag: 'Auth',
    summary: "Start Google or Facebook sign-in: the provider's authorisation address",
    errors: { 400: ['REDIRECT_URL_NOT_ALLOWED'], 503: ['SOCIAL_PROVIDER_UNAVAILABLE'] },
  },
  'POST /api/auth/:provider/redirect': {
    operationId: 'finishSocialSignIn',
    tag: 'Auth',
    summary: "Finish Google or Facebook sign-in with the provider's callback; signs in or registers (a second step for an account with a second factor)",
    errors: { 400: ['STATE_MISMATCH', 'SOCIAL_EMAIL_UNVERIFIED', 'SOCIAL_SIGN_IN_FAILED', 'FACEBOOK_CALLBACK_ERROR'], 409: ['SOCIAL_EMAIL_IN_USE'], 503: ['SOCIAL_PROVIDER_UNAVAILABLE'] },
  },
  'POST /api/auth/:provider/connect': {
    operationId: 'connectSocialAccount',
    tag: 'Auth',
    summary: 'Connect a Google or Facebook account to the signed-in user',
    errors: { 400: ['STATE_MISMATCH', 'SOCIAL_EMAIL_UNVERIFIED', 'SOCIAL_SIGN_IN_FAILED', 'FACEBOOK_CALLBACK_ERROR'], 409: ['SOCIAL_ALREADY_CONNECTED'], 503: ['SOCIAL_PROVIDER_UNAVAILABLE'] },
  },
  'POST /api/auth/facebook/disconnect': {
    operationId: 'disconnectFacebookAccount',
    tag: 'Auth',
    summary: 'Disconnect Facebook after confirming with Facebook (its deauthorisation flow)',
    errors: { 400: ['STATE_MISMATCH', 'SOCIAL_SIGN_IN_FAILED', 'FACEBOOK_CALLBACK_ERROR'], 404: ['SOCIAL_NOT_CONNECTED'], 409: ['SOCIAL_LAST_SIGN_IN_METHOD'], 503: ['SOCIAL_PROVIDER_UNAVAILABLE'] },
  },
  'PATCH /api/users/me/disconnectSocial/:provider': {
    operationId: 'disconnectSocialAccount',
    tag: 'Auth',
    summary: 'Disconnect a Google or Facebook account from the signed-in user',
    errors: { 404: ['SOCIAL_NOT_CONNECTED'], 409: ['SOCIAL_LAST_SIGN_IN_METHOD'] },
  },

  // Users: registration and verification
  'POST /api/users': {
    operationId: 'registerUser',
    tag: 'Users',
    summary: 'Register; a verification link (or code with `generateVerificationCode`) is mailed',
    description:
      'The answer sets the `shapelab_verification` cookie (HttpOnly, SameSite=Strict, path `/api/users/validate`): the mailed link, opened in this browser, signs the new account in.',
    errors: { 400: ['PASSWORD_TOO_WEAK', 'PASSWORD_TOO_COMMON'], 409: ['EMAIL_ALREADY_REGISTERED', 'COUPON_USED_UP'], 410: ['COUPON_EXPIRED'], 422: ['EMAIL_VERIFICATION_FAILED', 'COUPON_INVALID'], 503: ['DEFAULT'] },
  },
  'POST /api/users/validate/code': {
    operationId: 'verifyEmailWithCode',
    tag: 'Users',
    summary: 'Verify the email address with the mailed code; signs the user in',
    errors: { 400: ['INVALID_VERIFICATION_CODE', 'VERIFICATION_CODE_EXPIRED'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'GET /api/users/validate/:token': {
    operationId: 'verifyEmailWithLink',
    tag: 'Users',
    summary: 'Verify the email address with the mailed link; signs in the browser that asked for the mail',
    description:
      'With the `shapelab_verification` cookie of the registration or resend that sent this link, the answer carries an `access_token` (a session, as the code starts one) and clears the cookie; without it the address is verified and the person signs in as usual.',
    errors: { 400: ['VERIFICATION_LINK_INVALID', 'VERIFICATION_CODE_EXPIRED'], 409: ['ALREADY_VERIFIED'] },
  },
  'GET /api/users/resendVerificationEmail/:email': {
    operationId: 'resendVerificationEmail',
    tag: 'Users',
    summary: 'Mail the verification link or code again (answers alike for unknown addresses)',
    description: 'Sets the `shapelab_verification` cookie as registration does: the new link signs in the browser that asked for it.',
    errors: { 429: ['TOO_MANY_REQUESTS'] },
  },
  // Users: password reset and account
  'GET /api/users/forget-password/:email': {
    operationId: 'requestPasswordReset',
    tag: 'Users',
    summary: 'Mail a password reset link (answers alike for unknown addresses)',
    errors: { 429: ['TOO_MANY_REQUESTS'] },
  },
  'GET /api/users/forget-password/check-token/:token': { operationId: 'checkPasswordResetToken', tag: 'Users', summary: 'Check a password reset link before showing the form' },
  'PATCH /api/users/forget-password/validate-token': {
    operationId: 'resetPassword',
    tag: 'Users',
    summary: 'Set a new password with a reset link; ends every session',
    errors: { 400: ['INVALID_PASSWORD_TOKEN', 'PASSWORD_TOO_WEAK', 'PASSWORD_TOO_COMMON'] },
  },
  'POST /api/users/checkOldPassword': {
    operationId: 'checkCurrentPassword',
    tag: 'Users',
    summary: "Check the signed-in user's current password",
    errors: { 429: ['TOO_MANY_REQUESTS'] },
  },
  'PATCH /api/users/password': {
    operationId: 'changePassword',
    tag: 'Users',
    summary: 'Change the password; ends the other sessions',
    errors: { 400: ['WRONG_OLD_PASSWORD', 'PASSWORD_TOO_WEAK', 'PASSWORD_TOO_COMMON'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'GET /api/users/me': { operationId: 'getCurrentUser', tag: 'Users', summary: 'The signed-in user' },
  'PATCH /api/users/me': {
    operationId: 'updateProfile',
    tag: 'Users',
    summary: 'Update the profile',
    errors: { 400: ['PHONE_NUMBER_INVALID', 'REGION_NOT_FOUND'] },
  },
  'DELETE /api/users/me': {
    operationId: 'deleteAccount',
    tag: 'Users',
    summary: 'Delete the account (password, or a recent sign-in for social-only accounts)',
    errors: { 403: ['WRONG_PASSWORD', 'REAUTHENTICATION_REQUIRED'], 409: ['LAST_ADMIN'], 429: ['TOO_MANY_REQUESTS'], ...PAYMENT_PROVIDER_DOWN },
  },
  // Issue 20 item 7: change of sign-in email
  'POST /api/users/me/email': {
    operationId: 'requestEmailChange',
    tag: 'Users',
    summary: 'Ask to change the sign-in email: a code goes to the new address (answers alike for a taken address)',
    errors: { 400: ['EMAIL_UNCHANGED'], 403: ['WRONG_PASSWORD'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'POST /api/users/me/email/confirm': {
    operationId: 'confirmEmailChange',
    tag: 'Users',
    summary: 'Confirm the new sign-in email with the mailed code; sessions stay signed in, the old address is told',
    errors: { 400: ['INVALID_VERIFICATION_CODE', 'VERIFICATION_CODE_EXPIRED'], 409: ['EMAIL_ALREADY_REGISTERED'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'GET /api/users/me/export': {
    operationId: 'exportAccountData',
    tag: 'Users',
    summary: "Download the user's data as a JSON file (GDPR article 20)",
    responses: { 200: { description: 'The data, as an attachment', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
  'POST /api/users/downloadedShapelab': { operationId: 'recordDesktopDownload', tag: 'Releases', summary: 'Record that the user downloaded the desktop application' },

  // Sessions
  // Issue 20, the account home: Paddle's parts (price, payment method) are left out when it is down, never a 5xx.
  'GET /api/users/me/overview': { operationId: 'getAccountOverview', tag: 'Users', summary: "The account home: the user's entitlement (as the desktop API answers it), plan, next charge, payment method, seats, licences" },
  'GET /api/users/me/sessions': { operationId: 'listSessions', tag: 'Sessions', summary: "The user's sessions, the current one marked" },
  'DELETE /api/users/me/sessions': { operationId: 'endOtherSessions', tag: 'Sessions', summary: 'Sign out everywhere else: end every session but this one' },
  'DELETE /api/users/me/sessions/:id': { operationId: 'endSession', tag: 'Sessions', summary: 'End one session', errors: { 404: ['SESSION_NOT_FOUND'] } },
  // Issue 47: the security page's record of support's read-only views of the account.
  'GET /api/users/me/views': { operationId: 'listStaffViews', tag: 'Sessions', summary: 'When support viewed the account as its owner sees it (read-only), newest first' },

  // Admin: users
  'GET /api/users': { operationId: 'listUsers', tag: 'Users', summary: 'List users (search, filter, sort, page)', errors: { 400: ['USER_FILTER_INVALID'] } },
  'PATCH /api/users/:id': {
    operationId: 'updateUserRoles',
    tag: 'Users',
    summary: "Change a user's roles",
    errors: { 404: ['USER_NOT_FOUND'], 409: ['CANNOT_MODIFY_SELF', 'LAST_ADMIN'] },
  },
  'DELETE /api/users/:id': {
    operationId: 'deleteUser',
    tag: 'Users',
    summary: 'Delete a user',
    errors: { 404: ['USER_NOT_FOUND'], 409: ['CANNOT_MODIFY_SELF', 'LAST_ADMIN'] },
  },
  'GET /api/users/:id/audit': { operationId: 'getUserAuditTrail', tag: 'Users', summary: "A user's audit trail" },
  'GET /api/users/export': {
    operationId: 'exportUsers',
    tag: 'Users',
    summary: 'The users list as CSV: the same search, filters and order as GET /api/users, every match, streamed',
    errors: { 400: ['USER_FILTER_INVALID'] },
    responses: { 200: { description: 'The users, as an attachment (shapelab-users-YYYY-MM-DD.csv) with a header row', content: { 'text/csv': { schema: { type: 'string' } } } } },
  },
  'POST /api/users/bulk': {
    operationId: 'applyBulkUserAction',
    tag: 'Users',
    summary: 'Delete, make admin or remove admin for up to 500 users; each refused one (yourself, the last admin, gone) is skipped with its reason',
  },
  'GET /api/users/:id': { operationId: 'getUser', tag: 'Users', summary: 'One user as support sees them: profile, sign-in methods, sessions, subscription, payments, licences, devices, coupons, Lite keys', errors: { 404: ['USER_NOT_FOUND'] } },
  'GET /api/users/:id/activity': { operationId: 'listUserActivity', tag: 'Users', summary: "A user's timeline, newest first, paged (skip, take)", errors: { 404: ['USER_NOT_FOUND'] } },
  // Admin: the user page's actions (issue 21), each the customer's own rules, logged with the admin as actor.
  'POST /api/users/:id/sessions/end': {
    operationId: 'endUserSessions',
    tag: 'Users',
    summary: "End every session of a user: their tokens are refused from the next request (an admin's own page keeps the admin's current session)",
    errors: { 404: ['USER_NOT_FOUND'] },
  },
  'POST /api/users/:id/verification/resend': {
    operationId: 'resendUserVerification',
    tag: 'Users',
    summary: "Mail an unverified user a new verification code and link (the public resend's limit per address)",
    errors: { 404: ['USER_NOT_FOUND'], 409: ['USER_ALREADY_VERIFIED'], 429: ['TOO_MANY_REQUESTS'] },
  },
  'POST /api/users/:id/subscription/cancel': {
    operationId: 'cancelUserSubscription',
    tag: 'Users',
    summary: "Cancel a user's subscription at the period end, or at once with a refund within the customer's refund window",
    errors: { 404: ['USER_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND'], 409: ['SUBSCRIPTION_LOCKED', 'REFUND_WINDOW_CLOSED'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/users/:id/view-as': {
    operationId: 'startUserView',
    tag: 'Users',
    summary: "A read-only session of the user's account for at most 15 minutes: it sees what they see, every write answers 403 READ_ONLY_VIEW",
    description: "Recorded on the user's timeline, their security page and the audit log. Never for a staff account.",
    errors: { 403: ['STAFF_NOT_VIEWABLE'], 404: ['USER_NOT_FOUND'] },
  },
  // Issue 47: the audit log of every staff action across accounts, read only.
  'GET /api/admin/audit': {
    operationId: 'listAuditLog',
    tag: 'Users',
    summary: 'Every staff action across accounts, newest first: by actor (email or id), action, subject (email or id) and time, paged (skip, take)',
  },
  'GET /api/admin/audit/export': {
    operationId: 'exportAuditLog',
    tag: 'Users',
    summary: 'The audit log as CSV: the same filters as GET /api/admin/audit, every match, newest first, streamed',
    responses: { 200: { description: 'The entries, as an attachment (shapelab-audit-YYYY-MM-DD.csv) with a header row', content: { 'text/csv': { schema: { type: 'string' } } } } },
  },
  'POST /api/users/:id/devices/:deviceId/release': {
    operationId: 'releaseUserDevice',
    tag: 'Users',
    summary: "Release one of a user's devices: its seat is free and its device token stops working at once",
    errors: { 404: ['USER_NOT_FOUND', 'DEVICE_NOT_FOUND'] },
  },
  'GET /api/users/:id/transactions/:transactionId/invoice': {
    operationId: 'getUserInvoiceLink',
    tag: 'Users',
    summary: "The invoice PDF of one of a user's payments: the payment provider's short-lived link",
    errors: { 404: ['USER_NOT_FOUND', 'INVOICE_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },

  // Billing
  'GET /api/paddle/config': { operationId: 'getPaddleConfig', tag: 'Billing', summary: "The payment provider's client settings for Paddle.js" },
  'GET /api/paddle/list-plans': { operationId: 'listPlans', tag: 'Billing', summary: 'Subscription plans with prices for the signed-in user', errors: { 404: ['PRICE_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN } },
  'GET /api/perpetual/products': { operationId: 'listPerpetualProducts', tag: 'Billing', summary: 'Perpetual licences on sale, with prices for the signed-in user', errors: PAYMENT_PROVIDER_DOWN },
  'POST /api/subscription/preload': {
    operationId: 'previewSubscriptionPrices',
    tag: 'Billing',
    summary: 'Price preview of the subscription plans (taxes by country or saved address, optional discount)',
    errors: { 400: ['INVALID_COUPON_CODE'], 404: ['PRICE_NOT_FOUND', 'DISCOUNT_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/perpetual/preload': {
    operationId: 'previewPerpetualPrices',
    tag: 'Billing',
    summary: 'Price preview of the perpetual licences (taxes by country or saved address, optional discount)',
    errors: { 400: ['INVALID_COUPON_CODE'], 404: ['PRICE_NOT_FOUND', 'DISCOUNT_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/perpetual/discount-object-by-code/': {
    operationId: 'getDiscountByCode',
    tag: 'Billing',
    summary: 'Look up a discount code',
    errors: { 400: ['INVALID_COUPON_CODE', 'DISCOUNT_NOT_HUMBLE_BUNDLE'], 404: ['DISCOUNT_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/perpetual/get-discount-by-price-id': { operationId: 'getDiscountByPriceId', tag: 'Billing', summary: 'The automatic discount of a price, or null', errors: { 404: ['PRICE_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN } },
  'POST /api/paddle/checkout': {
    operationId: 'createCheckout',
    tag: 'Billing',
    summary: 'Open a checkout (a Paddle transaction) for a plan or licence',
    errors: { 403: ['DISCOUNT_NOT_ELIGIBLE'], 404: ['PRICE_NOT_FOUND', 'DISCOUNT_NOT_FOUND'], 409: ['PRODUCT_ALREADY_OWNED', 'SUBSCRIPTION_EXISTS', 'BILLING_EMAIL_TAKEN'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/subscription/paddle/customer': { operationId: 'getPaddleCustomer', tag: 'Billing', summary: "The user's Paddle customer id (created on first use)", errors: { 409: ['BILLING_EMAIL_TAKEN'], ...PAYMENT_PROVIDER_DOWN } },
  'GET /api/subscription/billing-info': { operationId: 'getBillingInfo', tag: 'Billing', summary: 'Billing address, business and tax id', errors: PAYMENT_PROVIDER_DOWN },
  'PATCH /api/subscription/billing-info': {
    operationId: 'updateBillingInfo',
    tag: 'Billing',
    summary: 'Update billing address, business and tax id (a consumer needs only the country, and a postal code where Paddle requires one)',
    errors: { 400: ['INVALID_REGION_OR_VAT', 'POSTAL_CODE_INVALID', 'POSTAL_CODE_REQUIRED', 'VAT_NUMBER_INVALID'], 409: ['BILLING_EMAIL_TAKEN'], ...PAYMENT_PROVIDER_DOWN },
  },

  // Subscription
  'GET /api/subscription/user': { operationId: 'getSubscription', tag: 'Subscription', summary: "The user's subscription, or null" },
  'POST /api/subscription/cancel': {
    operationId: 'cancelSubscription',
    tag: 'Subscription',
    summary: 'Cancel at the period end, or at once with a refund within the refund window (once per customer), saying why',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND'], 409: ['SUBSCRIPTION_LOCKED', 'REFUND_WINDOW_CLOSED', 'REFUND_ALREADY_USED'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/subscription/pause': {
    operationId: 'pauseSubscription',
    tag: 'Subscription',
    summary: 'Pause at the end of the billing period, until a date or until resumed (not in a trial)',
    errors: {
      400: ['PAUSE_RESUME_DATE_INVALID'],
      404: ['SUBSCRIPTION_NOT_FOUND'],
      409: ['PAUSE_NOT_IN_TRIAL', 'SUBSCRIPTION_PAST_DUE', 'SUBSCRIPTION_CHANGE_PENDING', 'SUBSCRIPTION_LOCKED'],
      ...PAYMENT_PROVIDER_DOWN,
    },
  },
  'POST /api/subscription/resume': {
    operationId: 'resumeSubscription',
    tag: 'Subscription',
    summary: 'Withdraw a scheduled pause, or end a running one now (a new billing period starts and is charged)',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND'], 409: ['SUBSCRIPTION_NOT_PAUSED', 'SUBSCRIPTION_LOCKED'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/subscription/continue': {
    operationId: 'continueSubscription',
    tag: 'Subscription',
    summary: 'Undo a scheduled cancellation',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND'], 409: ['SUBSCRIPTION_LOCKED'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/subscription/change/preview': {
    operationId: 'previewSubscriptionChange',
    tag: 'Subscription',
    summary: 'What changing the billing interval would charge now',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND', 'PRICE_NOT_FOUND'], 409: ['SUBSCRIPTION_LOCKED', 'SUBSCRIPTION_CHANGE_PENDING', 'PRORATION_NOT_CHARGEABLE'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/subscription/change': {
    operationId: 'changeSubscription',
    tag: 'Subscription',
    summary: 'Change the billing interval (monthly/yearly)',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND', 'PRICE_NOT_FOUND'], 409: ['SUBSCRIPTION_LOCKED', 'SUBSCRIPTION_CHANGE_PENDING', 'PRORATION_NOT_CHARGEABLE'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/subscription/payment-method': { operationId: 'getPaymentMethod', tag: 'Subscription', summary: 'The card or account the subscription is paid with (null without a subscription or before its first payment)', errors: PAYMENT_PROVIDER_DOWN },
  'POST /api/subscription/payment-method': {
    operationId: 'startPaymentMethodUpdate',
    tag: 'Subscription',
    summary: 'A transaction for Paddle.js to update the payment method',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/subscription/approve/:subscriptionId': {
    operationId: 'approveSubscription',
    tag: 'Subscription',
    summary: 'After checkout: the new subscription once the payment provider confirms it',
    errors: { 404: ['SUBSCRIPTION_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/subscription/billing/invoice': { operationId: 'listInvoices', tag: 'Subscription', summary: "The user's invoices", errors: PAYMENT_PROVIDER_DOWN },
  'GET /api/subscription/billing/invoice/:transactionId': {
    operationId: 'getInvoiceLink',
    tag: 'Subscription',
    summary: "A short-lived link to an invoice's PDF",
    errors: { 404: ['INVOICE_NOT_FOUND'], ...PAYMENT_PROVIDER_DOWN },
  },
  'POST /api/paddle/webhook': {
    operationId: 'receivePaddleWebhook',
    tag: 'Webhooks',
    summary: "Paddle's webhook (signed with `Paddle-Signature`); not for clients",
    errors: { 400: ['WEBHOOK_PAYLOAD_INVALID'], 401: ['INVALID_WEBHOOK_SIGNATURE'] },
  },

  // Licences
  'GET /api/perpetual/license': { operationId: 'listLicences', tag: 'Licences', summary: "The user's perpetual licences (an admin may name another user)", errors: { 403: ['FORBIDDEN'] } },
  'POST /api/perpetual/license/:licenceId/return': {
    operationId: 'returnLicence',
    tag: 'Licences',
    summary: 'Return a licence within 14 days for a refund (once per customer and release)',
    errors: { 404: ['LICENCE_NOT_FOUND'], 409: ['REFUND_WINDOW_CLOSED', 'REFUND_ALREADY_USED'], ...PAYMENT_PROVIDER_DOWN },
  },
  'GET /api/perpetual/seats': { operationId: 'listSeats', tag: 'Licences', summary: "The computers holding the user's seats, and how many seats there are" },
  'DELETE /api/perpetual/seats': {
    operationId: 'releaseSeat',
    tag: 'Licences',
    summary: "Release a seat: the computer's device token stops working at once",
    errors: { 404: ['SEAT_NOT_FOUND'] },
  },
  'POST /api/coupons/redeem': {
    operationId: 'redeemCoupon',
    tag: 'Licences',
    summary: 'Redeem a coupon (a licence or days of access)',
    errors: { 409: ['COUPON_ALREADY_ACTIVATED', 'COUPON_USED_UP', 'PRODUCT_ALREADY_OWNED'], 410: ['COUPON_EXPIRED'], 422: ['COUPON_INVALID'] },
  },
  'GET /api/coupons': { operationId: 'listCoupons', tag: 'Licences', summary: 'List coupons' },
  'POST /api/coupons': { operationId: 'createCoupon', tag: 'Licences', summary: 'Create a coupon', errors: { 409: ['COUPON_EXISTS'] } },
  'POST /api/lite-keys/redeem': { operationId: 'redeemLiteKey', tag: 'Licences', summary: 'Claim a Shapelab Lite key', errors: { 409: ['LITE_KEY_CLAIMED'], 422: ['LITE_KEY_INVALID'] } },
  'GET /api/lite-keys': { operationId: 'listLiteKeys', tag: 'Licences', summary: 'List unused Lite keys' },
  'GET /api/lite-keys/export': {
    operationId: 'exportLiteKeys',
    tag: 'Licences',
    summary: 'Download the unused Lite keys as CSV',
    responses: { 200: { description: 'The keys, as an attachment', content: { 'text/csv': { schema: { type: 'string' } } } } },
  },
  'POST /api/lite-keys/import': { operationId: 'importLiteKeys', tag: 'Licences', summary: 'Import Lite keys from CSV' },

  // Releases
  'GET /api/releases/latest': { operationId: 'getLatestReleases', tag: 'Releases', summary: 'The newest build of the desktop application per platform and channel' },
  'POST /api/releases': { operationId: 'createRelease', tag: 'Releases', summary: 'Add a release' },

  // Events
  'GET /api/events': {
    operationId: 'streamEvents',
    tag: 'Events',
    summary: "Server-sent events of the user's changes (subscription, licence, transaction, seat)",
    description: 'A `text/event-stream`: each event is `event: <type>` with a JSON `data:` line; a comment line every 45 seconds keeps the connection open. Reconnect after the `retry:` it sends. 503 `TOO_MANY_STREAMS` when this instance holds its maximum of streams.',
    errors: { 503: ['TOO_MANY_STREAMS'] },
    responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
  },

  // Analytics
  'GET /api/analytics': { operationId: 'getAnalytics', tag: 'Analytics', summary: 'Dashboard figures for a period and filters', errors: { 400: ['ANALYTICS_RANGE_INVALID', 'ANALYTICS_PLAYED_RANGE_INVALID'] } },
  'GET /api/analytics/cohorts': { operationId: 'getSignUpCohorts', tag: 'Analytics', summary: 'Sign-up cohorts and their retention', errors: { 400: ['ANALYTICS_RANGE_INVALID'] } },
  'GET /api/billing/retention': {
    operationId: 'getRetention',
    tag: 'Analytics',
    summary: 'Per month: failed renewals recovered and lost, and cancellations by the reason given',
    errors: { 400: ['ANALYTICS_RANGE_INVALID'] },
  },
  'GET /api/analytics/first-day': { operationId: 'getAnalyticsFirstDay', tag: 'Analytics', summary: 'The first day with data of a channel, and today on the server clock' },

  // Devices: the desktop API
  'POST /api/desktop/activate': {
    operationId: 'activateDevice',
    tag: 'Devices',
    summary: 'Activate this computer: take a seat and get a device token',
    description: `Send the user's **access token** (from \`POST /api/auth/login\`). \`computerId\` identifies the computer
(stable across starts), \`name\` is shown to the user in the portal's device list.

Answers \`{ deviceToken, seat, entitlement }\`. Keep \`deviceToken\` (\`sld_...\`): every other desktop call uses it.

- 409 \`SEAT_LIMIT_REACHED\`: all the user's seats are taken; the user releases one in the portal.
- 409 \`DEVICE_ALREADY_ATTACHED\`: this computer already holds a seat; send again with \`replace: true\` to get a
  new token (the old one stops working).

A store build names its store in \`channel\` (\`steam\`, \`metapc-store\`, \`viveport\`, \`android\`); otherwise the
channel follows the user's plan. Failed activations are limited per address and account (429).`,
    errors: { 409: ['SEAT_LIMIT_REACHED', 'DEVICE_ALREADY_ATTACHED'] },
  },
  'POST /api/desktop/heartbeat': {
    operationId: 'sendHeartbeat',
    tag: 'Devices',
    summary: 'Heartbeat: record a start or a sign of life, and get the current entitlement',
    description: `Send at each start of the application with \`launched: true\` and a fresh \`launchId\` (uuid; a retried
heartbeat with the same id counts the launch once) and the application's \`version\`, then from time to time
while it runs (no body, or \`{}\`). Answers \`{ seat, entitlement }\`: apply \`entitlement.exportEnabled\` and
\`saveEnabled\` as they are; they are decided by the server's clock (a trial ends at \`trialEndsAt\`, coupon
access at \`accessEndsAt\`; a perpetual licence covers the \`releases\` listed).`,
    deviceToken: true,
  },
  'POST /api/desktop/sessions': {
    operationId: 'reportSession',
    tag: 'Devices',
    summary: 'Report one session of use',
    description: 'One use of the application: `startedAt`/`endedAt` (ISO 8601 with offset), `lengthSeconds`, `playedSeconds` (idle time left out, at most the length; the length when absent), `suspicious`. Idempotent on `id` (a uuid the client makes): answers `recorded: false` for an id already reported.',
    deviceToken: true,
  },
  'POST /api/desktop/exports': {
    operationId: 'reportExport',
    tag: 'Devices',
    summary: 'Report one exported file',
    description: 'The `format` of an exported file and when (`exportedAt`, ISO 8601 with offset). Idempotent on `id` (a uuid the client makes).',
    deviceToken: true,
  },
  'POST /api/desktop/reports': {
    operationId: 'reportBatch',
    tag: 'Devices',
    summary: 'Report queued sessions and exports in one batch',
    description: 'What the application queued while offline: `{ sessions?: [...], exports?: [...] }` with the bodies of `/api/desktop/sessions` and `/api/desktop/exports`, at most 1,000 in all, recorded in one transaction. Answers how many of each were new (ids already reported are skipped), so a batch can be retried whole.',
    deviceToken: true,
  },
  'POST /api/desktop/lite-keys/claim': {
    operationId: 'claimLiteKey',
    tag: 'Devices',
    summary: "Claim a Shapelab Lite key for the device's user",
    description: 'A Lite key bought in a store, claimed from the application. Answers the `grant`; the next heartbeat shows the `lite` plan. Failed claims are limited per address and account (429).',
    deviceToken: true,
    errors: { 409: ['LITE_KEY_CLAIMED'], 422: ['LITE_KEY_INVALID'] },
  },
};
