import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isValidEmail } from '../contract/email.js';
import { judgeSecret, MAX_WORD_SHARE, MIN_SECRET_BITS } from './secret-strength.js';

/**
 * Every setting of the server, read from environment variables once at start.
 * A bad value stops the server with one line per problem, naming the variable.
 */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  appUrl: string;
  database: DatabaseConfig;
  dataDir: string;
  jwtSecret: string;
  mailTransport: 'outbox' | 'smtp';
  /** nodemailer SMTP URL, e.g. smtps://user:pass@smtp.example.com:465 (required with MAIL_TRANSPORT=smtp). */
  smtpUrl: string;
  mailFrom: string;
  adminEmail: string;
  /** Undefined when ADMIN_PASSWORD is unset: a random one is generated at first seed and printed once. */
  adminPassword: string | undefined;
  logLevel: string;
  spaDir: string;
  social: SocialConfig;
  /** Requests per minute one address may make to each public account endpoint. */
  rateLimitPerAddress: number;
  billing: BillingConfig;
  /**
   * Fastify's `trustProxy`: false (the default: the client address is the socket's), a number of proxy
   * hops, or the proxies' addresses/CIDR ranges, so `X-Forwarded-For` gives the real client behind them.
   */
  trustProxy?: boolean | number | string[];
  /** Open event streams this process holds at most (each user holds at most 10, across instances). */
  maxEventStreams?: number;
  /**
   * Prometheus metrics (server/plugins/metrics.ts): `METRICS_TOKEN` serves `/metrics` to a bearer of the
   * token, `METRICS_PORT` on a port of its own, bound to `METRICS_HOST` (127.0.0.1 by default, never
   * `HOST`: that port asks for no token); with neither, there are no metrics.
   */
  metrics?: { token?: string; port?: number; host?: string };
  /**
   * `STAFF_TWO_FACTOR` (issue 44): `required` (the default in production) holds staff without a second
   * factor to enrolling one before any other API call; `optional` (the default elsewhere) lets them be.
   */
  staffTwoFactor: 'required' | 'optional';
}

export interface GoogleSettings {
  /** OpenID Connect issuer, read by discovery (https://accounts.google.com in production). */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface FacebookSettings {
  authorizationUrl: string;
  tokenUrl: string;
  /** The Graph API `/me` endpoint. */
  meUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface BillingConfig {
  /**
   * The offline Paddle stand-in (server/sandbox/), the default when PADDLE_API_KEY is unset; started with
   * the server, which then fills in the key, base URL and secrets. Refused in production.
   */
  sandbox: boolean;
  apiKey: string;
  /** 'sandbox', 'production', or the stand-in's base URL (the SDK's `environment` accepts one). */
  environment: string;
  /** Handed to the SPA for Paddle.js. */
  clientToken: string;
  webhookSecret: string;
  /** The stand-in's webhook delivery: in order, or (to try the portal against it) duplicated and reordered. */
  sandboxDelivery?: 'ordered' | 'chaotic';
  /**
   * `PADDLE_STANDIN_URL`: a stand-in shared by several instances (`npm run paddle-standin`) instead of one
   * started inside this process; its key and secret are asked of it at start.
   */
  standinUrl?: string;
}

export interface SocialConfig {
  /**
   * Offline stand-ins for Google and Facebook (server/modules/oauth/standins/), started with the server;
   * their addresses fill `google` and `facebook` at start. Refused in production.
   */
  standins: boolean;
  google: GoogleSettings | null;
  facebook: FacebookSettings | null;
}

export type DatabaseConfig =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const MIN_SECRET_LENGTH = 32;

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be one of development, production, test',
    })
    .default('development'),
  PORT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  APP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://account.shapelab.com' })
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or postgres://user:pass@host:port/db')
    .default('sqlite:./data/portal.db'),
  JWT_SECRET: z
    .string()
    .min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters (use 32+ random bytes)`)
    .optional(),
  MAIL_TRANSPORT: z.enum(['outbox', 'smtp'], { error: 'must be outbox or smtp' }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Shapelab <no-reply@localhost>'),
  ADMIN_EMAIL: z
    .string()
    .refine((value) => isValidEmail(value), 'must be an email address')
    .default('admin@localhost'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PADDLE_API_KEY: z.string().min(10, 'must be a Paddle API key').optional(),
  // No default here: it follows NODE_ENV below (spec section 9: the payment environment is production).
  PADDLE_ENVIRONMENT: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
  PADDLE_CLIENT_TOKEN: z.string().min(10, 'must be a Paddle client-side token').optional(),
  PADDLE_WEBHOOK_SECRET: z.string().min(10, 'must be the webhook destination secret').optional(),
  PADDLE_SANDBOX_DELIVERY: z.enum(['ordered', 'chaotic'], { error: 'must be ordered or chaotic' }).default('ordered'),
  PADDLE_STANDIN_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) address of `npm run paddle-standin`' }).optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(off|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, 'must be off, a number of proxy hops, or proxy addresses/CIDR ranges separated by commas')
    .default('off'),
  EVENT_STREAMS_MAX: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').default(10_000),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (use 32+ random bytes)').optional(),
  METRICS_PORT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  STAFF_TWO_FACTOR: z.enum(['required', 'optional'], { error: 'must be required or optional' }).optional(),
  RATE_LIMIT_PER_ADDRESS: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').default(20),
  SOCIAL_STANDINS: z.enum(['on', 'off'], { error: 'must be on or off' }).optional(),
  GOOGLE_ISSUER: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  FACEBOOK_AUTHORIZATION_URL: z.url({ protocol: /^https?$/ }).default('https://www.facebook.com/v19.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v19.0/oauth/access_token'),
  FACEBOOK_ME_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v19.0/me'),
  FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
  FACEBOOK_CLIENT_SECRET: z.string().min(1).optional(),
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const values = parsed.data;
  const problems: string[] = [];
  const production = values.NODE_ENV === 'production';

  const database = parseDatabaseUrl(values.DATABASE_URL, cwd);
  const dataDir =
    database.dialect === 'sqlite' ? path.dirname(database.file) : path.resolve(cwd, 'data');

  if (production && !values.JWT_SECRET) {
    problems.push('JWT_SECRET: is required in production (at least 32 random characters)');
  }
  if (production && values.JWT_SECRET && !isVariedEnough(values.JWT_SECRET)) {
    problems.push('JWT_SECRET: has too little variety for its length (a repeated character or pattern); use 32+ random bytes, e.g. openssl rand -base64 48');
  } else if (production && values.JWT_SECRET) {
    const problem = chosenSecretProblem(values.JWT_SECRET);
    if (problem) problems.push(`JWT_SECRET: ${problem}`);
  }
  if (production && !values.APP_URL) {
    problems.push('APP_URL: is required in production (the public address of the portal)');
  }
  const mailTransport = values.MAIL_TRANSPORT ?? (production ? 'smtp' : 'outbox');
  if (production && mailTransport === 'outbox') {
    problems.push('MAIL_TRANSPORT: outbox is for development only; use smtp in production');
  }
  if (mailTransport === 'smtp' && !values.SMTP_URL) {
    problems.push('SMTP_URL: is required when MAIL_TRANSPORT is smtp');
  }
  if (values.METRICS_PORT === values.PORT) {
    problems.push('METRICS_PORT: must differ from PORT (metrics on the app port are METRICS_TOKEN)');
  }
  const standins = (values.SOCIAL_STANDINS ?? (production ? 'off' : 'on')) === 'on';
  if (production && standins) {
    problems.push('SOCIAL_STANDINS: the Google and Facebook stand-ins are for development only; set it to off');
  }
  const pair = (id: string | undefined, secret: string | undefined, name: string) => {
    if (Boolean(id) !== Boolean(secret)) problems.push(`${name}_CLIENT_SECRET: ${name}_CLIENT_ID and ${name}_CLIENT_SECRET go together`);
    return id && secret ? { clientId: id, clientSecret: secret } : null;
  };
  const paddleSandbox = !values.PADDLE_API_KEY;
  if (production && paddleSandbox) {
    problems.push('PADDLE_API_KEY: is required in production (the offline Paddle stand-in is for development only)');
  }
  if (!paddleSandbox && !values.PADDLE_CLIENT_TOKEN) problems.push('PADDLE_CLIENT_TOKEN: is required with PADDLE_API_KEY');
  if (!paddleSandbox && !values.PADDLE_WEBHOOK_SECRET) problems.push('PADDLE_WEBHOOK_SECRET: is required with PADDLE_API_KEY');
  if (!paddleSandbox && values.PADDLE_STANDIN_URL) problems.push('PADDLE_STANDIN_URL: points at the offline stand-in; it cannot go with PADDLE_API_KEY');
  const googleClient = pair(values.GOOGLE_CLIENT_ID, values.GOOGLE_CLIENT_SECRET, 'GOOGLE');
  const facebookClient = pair(values.FACEBOOK_CLIENT_ID, values.FACEBOOK_CLIENT_SECRET, 'FACEBOOK');
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    nodeEnv: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    appUrl: (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    database,
    dataDir,
    jwtSecret: values.JWT_SECRET ?? persistedDevelopmentSecret(dataDir),
    mailTransport,
    smtpUrl: values.SMTP_URL ?? '',
    mailFrom: values.MAIL_FROM,
    adminEmail: values.ADMIN_EMAIL.toLowerCase(),
    adminPassword: values.ADMIN_PASSWORD,
    logLevel: values.LOG_LEVEL,
    spaDir: path.resolve(cwd, 'dist'),
    rateLimitPerAddress: values.RATE_LIMIT_PER_ADDRESS,
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    maxEventStreams: values.EVENT_STREAMS_MAX,
    metrics: { token: values.METRICS_TOKEN, port: values.METRICS_PORT, host: values.METRICS_HOST },
    staffTwoFactor: values.STAFF_TWO_FACTOR ?? (production ? 'required' : 'optional'),
    billing: {
      sandbox: paddleSandbox,
      // With the stand-in these are filled in once it listens (server/main.ts).
      apiKey: values.PADDLE_API_KEY ?? '',
      // Paddle's live environment in production unless told otherwise, its sandbox elsewhere (issue 46 item 4).
      environment: paddleSandbox ? '' : (values.PADDLE_ENVIRONMENT ?? (production ? 'production' : 'sandbox')),
      clientToken: values.PADDLE_CLIENT_TOKEN ?? '',
      webhookSecret: values.PADDLE_WEBHOOK_SECRET ?? '',
      sandboxDelivery: values.PADDLE_SANDBOX_DELIVERY,
      ...(paddleSandbox && values.PADDLE_STANDIN_URL ? { standinUrl: values.PADDLE_STANDIN_URL.replace(/\/$/, '') } : {}),
    },
    social: {
      standins,
      // With the stand-ins on, these are filled in once the stand-ins listen (server/main.ts).
      google: !standins && googleClient ? { issuer: values.GOOGLE_ISSUER, ...googleClient } : null,
      facebook:
        !standins && facebookClient
          ? {
              authorizationUrl: values.FACEBOOK_AUTHORIZATION_URL,
              tokenUrl: values.FACEBOOK_TOKEN_URL,
              meUrl: values.FACEBOOK_ME_URL,
              ...facebookClient,
            }
          : null,
    },
  };
}

function parseDatabaseUrl(url: string, cwd: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    return { dialect: 'sqlite', file: path.resolve(cwd, url.slice('sqlite:'.length)) };
  }
  return { dialect: 'postgres', url };
}

/** Development only: a secret generated once and kept beside the database so sessions survive restarts. */
function persistedDevelopmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_LENGTH) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** An empty variable (`PORT=`) means "unset", as most operators expect. */
function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') result[key] = value;
  }
  return result;
}

/** `TRUST_PROXY`: off, a hop count, or the proxies' addresses (Fastify's `trustProxy` takes each form). */
export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'off' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

/**
 * Issue 44: why a secret looks chosen rather than random (./secret-strength.ts), or null. One line,
 * saying how to make a good one.
 */
function chosenSecretProblem(secret: string): string | null {
  const { bits, wordShare } = judgeSecret(secret);
  const make = 'use 48 random bytes instead, e.g. openssl rand -base64 48';
  if (bits < MIN_SECRET_BITS) {
    return `looks chosen rather than random: a password-cracking estimate (zxcvbn) guesses it in about 2^${Math.floor(bits)} tries, and ${MIN_SECRET_BITS} bits are needed; ${make}`;
  }
  if (wordShare >= MAX_WORD_SHARE) {
    return `looks chosen rather than random: ${Math.round(wordShare * 100)}% of it is dictionary words; ${make}`;
  }
  return null;
}

/**
 * Whether a secret looks random enough for its length: its Shannon entropy (bits per character from the
 * characters' frequencies, times the length) must reach 128 bits, and no run of one character or of a
 * pattern of up to 16 characters repeated may make up most of it. 36 x "a" has 0 bits; 48 random base64 bytes have ~380.
 */
export function isVariedEnough(secret: string): boolean {
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const count of counts.values()) {
    const p = count / secret.length;
    bitsPerChar -= p * Math.log2(p);
  }
  const repeatedPattern = /^(.{1,16})\1+.{0,16}$/s.test(secret);
  return !repeatedPattern && bitsPerChar * secret.length >= 128;
}
