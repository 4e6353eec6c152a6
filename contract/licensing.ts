import { z } from 'zod';
import { ACTIVATION_CHANNELS, EXPORT_FORMATS, PLATFORMS } from './licensing-values.js';

/**
 * What a purchase entitles a user to and how the desktop application claims it (issue "Licences,
 * devices, coupons"): seats, the desktop API, coupons, Shapelab Lite keys and releases.
 */

export {
  ACTIVATION_CHANNELS,
  EXPORT_FORMATS,
  PLATFORMS,
  SEATS_PER_ENTITLEMENT,
  type ActivationChannel,
  type ExportFormat,
  type Platform,
} from './licensing-values.js';

/** A device holding one of the user's seats (spec section 3: name, computer id, last login). */
export const seatSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  computerId: z.string(),
  activatedAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type Seat = z.infer<typeof seatSchema>;

/** `GET /perpetual/seats`: the user's devices and how many they may have at once. */
export const seatsResponseSchema = z.object({ seats: z.array(seatSchema), limit: z.number().int() });
export type SeatsResponse = z.infer<typeof seatsResponseSchema>;

/** `DELETE /perpetual/seats?id=` (spec section 7). */
export const seatReleaseQuerySchema = z.object({ id: z.uuid() });

/**
 * What the desktop application may do, as of now by the server's clock:
 * no entitlement -> the basic plan with export and save disabled; a trial -> enabled until the trial's
 * end; an active subscription, a perpetual licence, coupon access or a Lite key -> enabled.
 */
export const PLANS = ['basic', 'trial', 'subscription', 'perpetual', 'access', 'lite'] as const;
export type Plan = (typeof PLANS)[number];
/**
 * One thing the user holds (issue 20): the subscription with its state, plan interval and dates; each
 * perpetual licence with its product name, release and the end of its updates; coupon access with its end;
 * a Shapelab Lite key. The desktop API and the account home read the same list.
 */
export const licenceEntitlementSchema = z.object({
  kind: z.literal('licence'),
  id: z.uuid(),
  productName: z.string(),
  release: z.string().nullable(),
  updatesUntil: z.string().nullable(),
  source: z.enum(['purchase', 'coupon']),
});
export const entitlementItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('subscription'),
    status: z.enum(['active', 'past_due', 'trialing']),
    priceId: z.string(),
    interval: z.enum(['month', 'year']).nullable(),
    /** The trial's end while it is trialing. */
    trialEndsAt: z.string().nullable(),
    /** When it renews (the next charge), or null when it will not. */
    renewsAt: z.string().nullable(),
    /** When a cancelled subscription or trial ends; null while it renews. */
    endsAt: z.string().nullable(),
    /** Whether it enables export and save now (a trial past its end by the clock does not). */
    enabled: z.boolean(),
  }),
  licenceEntitlementSchema,
  z.object({ kind: z.literal('access'), endsAt: z.string() }),
  z.object({ kind: z.literal('lite'), channel: z.string() }),
]);
export type EntitlementItem = z.infer<typeof entitlementItemSchema>;

export const entitlementSchema = z.object({
  plan: z.enum(PLANS),
  trialEndsAt: z.string().nullable(),
  /** End of access granted by a coupon, when that is what the plan rests on. */
  accessEndsAt: z.string().nullable(),
  exportEnabled: z.boolean(),
  saveEnabled: z.boolean(),
  /** Releases the user's perpetual licences cover (e.g. "2024"). */
  releases: z.array(z.string()),
  /** Everything the user holds now, whichever of it the plan above rests on. */
  items: z.array(entitlementItemSchema),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

const computerId = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:{}-]+$/);

/** `POST /desktop/activate` with the user's access token. `replace` re-issues the token of a computer already attached. */
export const activateRequestSchema = z
  .object({
    computerId,
    name: z.string().trim().min(1).max(100),
    replace: z.boolean().optional(),
    /** A store build names its store; otherwise the channel follows the user's plan. */
    channel: z.enum(ACTIVATION_CHANNELS).optional(),
  })
  .strict();
export const activateResponseSchema = z.object({ deviceToken: z.string(), seat: seatSchema, entitlement: entitlementSchema });
export type ActivateResponse = z.infer<typeof activateResponseSchema>;

/** `POST /desktop/heartbeat` with the device token; `launched` marks an application start ('last launched'). */
export const heartbeatRequestSchema = z
  .object({
    launched: z.boolean().optional(),
    /** The client's id for this start of the application: a retried heartbeat counts the launch once. */
    launchId: z.uuid().optional(),
    version: z.string().max(40).optional(),
  })
  .strict();
export const heartbeatResponseSchema = z.object({ seat: seatSchema, entitlement: entitlementSchema });

const isoDate = z.iso.datetime({ offset: true });

/** `POST /desktop/sessions`: one use of the application, idempotent on the client's id. */
export const sessionReportSchema = z
  .object({
    id: z.uuid(),
    startedAt: isoDate,
    endedAt: isoDate,
    lengthSeconds: z.number().int().min(0).max(31 * 24 * 3600),
    /** Time actually played (idle time left out), at most the length; the whole length when absent. */
    playedSeconds: z.number().int().min(0).max(31 * 24 * 3600).optional(),
    suspicious: z.boolean(),
  })
  .strict()
  .refine((s) => Date.parse(s.endedAt) >= Date.parse(s.startedAt), { path: ['endedAt'], message: 'endedAt before startedAt' })
  .refine((s) => s.playedSeconds === undefined || s.playedSeconds <= s.lengthSeconds, { path: ['playedSeconds'], message: 'playedSeconds above lengthSeconds' });

/** `POST /desktop/exports`: one exported file, idempotent on the client's id. */
export const exportReportSchema = z.object({ id: z.uuid(), format: z.enum(EXPORT_FORMATS), exportedAt: isoDate }).strict();
export const reportAckSchema = z.object({ recorded: z.boolean() });

/** `POST /desktop/reports`: up to 1,000 queued reports at once; answers how many of each were new. */
export const MAX_REPORTS_PER_BATCH = 1000;
export const reportsBatchSchema = z
  .object({ sessions: z.array(sessionReportSchema).default([]), exports: z.array(exportReportSchema).default([]) })
  .strict()
  .refine((batch) => batch.sessions.length + batch.exports.length <= MAX_REPORTS_PER_BATCH, { message: `at most ${MAX_REPORTS_PER_BATCH} reports` });
export const reportsBatchAckSchema = z.object({ sessions: z.number().int(), exports: z.number().int() });

/** What redeeming a coupon or a Lite key gave the user. */
export const grantSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('licence'), release: z.string() }),
  z.object({ kind: z.literal('access'), days: z.number().int(), accessEndsAt: z.string() }),
  z.object({ kind: z.literal('lite'), channel: z.string() }),
]);
export type Grant = z.infer<typeof grantSchema>;

const code = z.string().trim().min(1).max(64);

/** `POST /coupons/redeem` (profile) and `POST /lite-keys/redeem`. */
export const redeemRequestSchema = z.object({ code }).strict();
export const redeemResponseSchema = z.object({ grant: grantSchema });

/** `POST /coupons` (admin): a licence of a release or N days of access, optionally limited and expiring. */
export const couponCreateSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(4)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/),
    grant: z.enum(['licence', 'access']),
    release: z.string().regex(/^\d{4}$/).optional(),
    days: z.number().int().min(1).max(3660).optional(),
    usageLimit: z.number().int().min(1).nullable().optional(),
    expiresAt: isoDate.nullable().optional(),
  })
  .strict()
  .refine((c) => (c.grant === 'licence' ? c.release !== undefined : c.days !== undefined), {
    message: 'a licence coupon names a release, an access coupon a number of days',
    path: ['grant'],
  });
export type CouponCreate = z.infer<typeof couponCreateSchema>;
export const couponSchema = z.object({
  code: z.string(),
  grant: z.enum(['licence', 'access']),
  release: z.string().nullable(),
  days: z.number().int().nullable(),
  usageLimit: z.number().int().nullable(),
  redeemed: z.number().int(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** `GET /lite-keys` (admin): the unused keys, searchable and paged like the users list. */
export const liteKeysQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  take: z.coerce.number().int().min(1).max(500).optional(),
});
export const liteKeySchema = z.object({ key: z.string(), channel: z.string(), importedAt: z.string() });
export const liteKeysResponseSchema = z.object({ data: z.array(liteKeySchema), total: z.number().int() });
/** `POST /lite-keys/import` (admin): CSV text, a `key` column and an optional `channel` column. */
export const liteKeysImportSchema = z.object({ csv: z.string().min(1).max(5_000_000) }).strict();
export const liteKeysImportResponseSchema = z.object({ imported: z.number().int(), duplicates: z.number().int(), invalid: z.number().int() });

/** A downloadable build of the desktop application. */
export const releaseSchema = z.object({
  id: z.uuid(),
  release: z.string(),
  version: z.string(),
  platform: z.enum(PLATFORMS),
  url: z.url(),
  publishedAt: z.string(),
});
export type Release = z.infer<typeof releaseSchema>;
/** `GET /releases/latest`: the newest build for each platform. */
export const releasesResponseSchema = z.array(releaseSchema);
/** `POST /releases` (admin). */
export const releaseCreateSchema = z
  .object({
    release: z.string().regex(/^\d{4}$/),
    version: z.string().trim().min(1).max(40),
    platform: z.enum(PLATFORMS),
    url: z.url({ protocol: /^https?$/ }),
    publishedAt: isoDate,
  })
  .strict();
/** `POST /users/downloadedShapelab` (spec section 7: an empty object); a platform may be named. */
export const downloadedRequestSchema = z.object({ platform: z.enum(PLATFORMS).optional(), releaseId: z.uuid().optional() }).strict();
