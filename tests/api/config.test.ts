import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, mkdtempSync(path.join(os.tmpdir(), 'cfg-')));
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration from the environment', () => {
  it('runs on embedded defaults: SQLite under ./data, port 3000, outbox mail, admin@localhost', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    const config = loadConfig({}, cwd);
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.join(cwd, 'data', 'portal.db') });
    expect(config.mailTransport).toBe('outbox');
    expect(config.adminEmail).toBe('admin@localhost');
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.rateLimitPerAddress).toBe(20);
    expect(config.social).toEqual({ standins: true, google: null, facebook: null });
  });

  it('names every bad value with a clear message', () => {
    const found = problems({ PORT: 'eighty', DATABASE_URL: 'mysql://x', MAIL_TRANSPORT: 'pigeon', ADMIN_EMAIL: 'nope', NODE_ENV: 'staging' });
    expect(found.some((p) => p.startsWith('PORT:'))).toBe(true);
    expect(found.some((p) => p.startsWith('DATABASE_URL:'))).toBe(true);
    expect(found.some((p) => p.startsWith('MAIL_TRANSPORT:'))).toBe(true);
    expect(found.some((p) => p.startsWith('ADMIN_EMAIL:'))).toBe(true);
    expect(found.some((p) => p.startsWith('NODE_ENV:'))).toBe(true);
  });

  it('metrics are off by default; METRICS_TOKEN needs 16 characters and METRICS_PORT a port of its own', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    expect(loadConfig({}, cwd).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' }, cwd).metrics).toEqual({ token: 'a-long-enough-token', port: 9464, host: '127.0.0.1' });
    expect(problems({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters (use 32+ random bytes)']);
    expect(problems({ METRICS_PORT: '3000' })).toEqual(['METRICS_PORT: must differ from PORT (metrics on the app port are METRICS_TOKEN)']);
    expect(problems({ METRICS_PORT: 'ninety' })[0]).toMatch(/^METRICS_PORT: must be a whole number/);
  });

  it('refuses a port out of range and a short JWT secret', () => {
    expect(problems({ PORT: '70000' })[0]).toMatch(/^PORT: must be between 0 and 65535/);
    expect(problems({ JWT_SECRET: 'short' })[0]).toMatch(/^JWT_SECRET: must be at least 32 characters/);
  });

  it('requires JWT_SECRET, APP_URL, SMTP and Paddle in production', () => {
    const found = problems({ NODE_ENV: 'production' });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^JWT_SECRET: is required in production/),
        expect.stringMatching(/^APP_URL: is required in production/),
        expect.stringMatching(/^PADDLE_API_KEY: is required in production/),
      ]),
    );
    const paddle = { PADDLE_API_KEY: 'pdl_live_apikey_x', PADDLE_CLIENT_TOKEN: 'live_token_x', PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x' };
    const strong = 'q3J8vZ0pL5tW9yB2nC7xK4mR1sD6fH0gA8eU3iO5bN2';
    expect(problems({ NODE_ENV: 'production', MAIL_TRANSPORT: 'outbox', JWT_SECRET: strong, APP_URL: 'https://a.b', ...paddle })).toEqual([
      'MAIL_TRANSPORT: outbox is for development only; use smtp in production',
    ]);
    expect(problems({ PADDLE_API_KEY: 'pdl_sdbx_apikey_x' })).toEqual([
      'PADDLE_CLIENT_TOKEN: is required with PADDLE_API_KEY',
      'PADDLE_WEBHOOK_SECRET: is required with PADDLE_API_KEY',
    ]);
  });

  it('production refuses a JWT_SECRET with too little variety for its length, with one line saying why', () => {
    const production = { NODE_ENV: 'production', MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail:25', APP_URL: 'https://a.b', PADDLE_API_KEY: 'pdl_live_apikey_x', PADDLE_CLIENT_TOKEN: 'live_token_x', PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x' };
    for (const weak of ['a'.repeat(36), 'ab'.repeat(20), 'password'.repeat(5), '0123456789'.repeat(4)]) {
      expect(problems({ ...production, JWT_SECRET: weak })).toEqual([expect.stringMatching(/^JWT_SECRET: has too little variety for its length/)]);
    }
    expect(problems({ ...production, JWT_SECRET: randomBytes(48).toString('base64url') })).toEqual([]);
    expect(problems({ ...production, JWT_SECRET: randomBytes(24).toString('hex') })).toEqual([]);
    // Development keeps accepting whatever is set (its own default is random).
    expect(problems({ JWT_SECRET: 'a'.repeat(36) })).toEqual([]);
  });

  it('STAFF_TWO_FACTOR is required by default in production, optional elsewhere, and takes only those two values', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    expect(loadConfig({}, cwd).staffTwoFactor).toBe('optional');
    expect(loadConfig({ STAFF_TWO_FACTOR: 'required' }, cwd).staffTwoFactor).toBe('required');
    const production = {
      NODE_ENV: 'production',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://mail:25',
      APP_URL: 'https://a.b',
      JWT_SECRET: randomBytes(48).toString('base64url'),
      PADDLE_API_KEY: 'pdl_live_apikey_x',
      PADDLE_CLIENT_TOKEN: 'live_token_x',
      PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x',
    };
    expect(loadConfig(production, cwd).staffTwoFactor).toBe('required');
    expect(loadConfig({ ...production, STAFF_TWO_FACTOR: 'optional' }, cwd).staffTwoFactor).toBe('optional');
    expect(problems({ STAFF_TWO_FACTOR: 'sometimes' })).toEqual(['STAFF_TWO_FACTOR: must be required or optional']);
  });

  it("PADDLE_ENVIRONMENT is Paddle's production in production and its sandbox elsewhere, unless set (spec section 9; issue 46 item 4)", () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    const paddle = { PADDLE_API_KEY: 'pdl_live_apikey_x', PADDLE_CLIENT_TOKEN: 'live_token_x', PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x' };
    const production = { NODE_ENV: 'production', MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail:25', APP_URL: 'https://a.b', JWT_SECRET: randomBytes(48).toString('base64url'), ...paddle };
    expect(loadConfig(production, cwd).billing.environment).toBe('production');
    expect(loadConfig({ ...production, PADDLE_ENVIRONMENT: 'sandbox' }, cwd).billing.environment).toBe('sandbox');
    expect(loadConfig(paddle, cwd).billing.environment).toBe('sandbox');
    expect(loadConfig({ ...paddle, NODE_ENV: 'test', PADDLE_ENVIRONMENT: 'production' }, cwd).billing.environment).toBe('production');
    expect(problems({ ...paddle, PADDLE_ENVIRONMENT: 'live' })).toEqual(['PADDLE_ENVIRONMENT: must be sandbox or production']);
  });

  it('METRICS_HOST is where METRICS_PORT listens: 127.0.0.1 by default, whatever HOST says (issue 44)', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' }, cwd).metrics?.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }, cwd).metrics?.host).toBe('10.0.0.5');
  });

  it('production refuses a JWT_SECRET that looks chosen rather than random, saying how to make one (issue 44)', () => {
    const production = { NODE_ENV: 'production', MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail:25', APP_URL: 'https://a.b', PADDLE_API_KEY: 'pdl_live_apikey_x', PADDLE_CLIENT_TOKEN: 'live_token_x', PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_x' };
    const chosen = (secret: string) => problems({ ...production, JWT_SECRET: secret });
    // Too few bits of guesses by zxcvbn's estimate: words, a keyboard walk, the alphabet.
    for (const secret of ['my-super-secret-jwt-key-for-production', 'zaq1xsw2cde3vfr4bgt5nhy6mju7,ki8.lo9', 'abcdefghijklmnopqrstuvwxyz0123456789']) {
      expect(chosen(secret), secret).toEqual([expect.stringMatching(/^JWT_SECRET: looks chosen rather than random: a password-cracking estimate \(zxcvbn\) guesses it in about 2\^\d+ tries, and 128 bits are needed; use 48 random bytes instead, e\.g\. openssl rand -base64 48$/)]);
    }
    // Long enough to pass the estimate, but made of dictionary words (English and German).
    for (const secret of ['correct-horse-battery-staple-and-many-more-words-here-too', 'ThisIsMyVeryLongAndSecureJwtSecretForTheProductionServerOfShapelab!', 'secret_key_base_for_the_production_server_do_not_share', 'mein-geheimes-jwt-passwort-fuer-die-produktion-von-shapelab-2026']) {
      expect(chosen(secret), secret).toEqual([expect.stringMatching(/^JWT_SECRET: looks chosen rather than random: \d+% of it is dictionary words; use 48 random bytes instead, e\.g\. openssl rand -base64 48$/)]);
    }
    // What `openssl rand -base64 48` and `openssl rand -hex 32` print passes.
    for (let i = 0; i < 3; i += 1) {
      expect(chosen(randomBytes(48).toString('base64'))).toEqual([]);
      expect(chosen(randomBytes(32).toString('hex'))).toEqual([]);
    }
  }, 60_000);

  it('TRUST_PROXY is off by default, a hop count, or a list of proxy addresses', () => {
    expect(loadConfig({}, os.tmpdir()).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }, os.tmpdir()).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }, os.tmpdir()).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(problems({ TRUST_PROXY: 'everyone' })).toEqual([expect.stringMatching(/^TRUST_PROXY: must be off/)]);
  });

  it('in development generates a JWT secret once and keeps it under the data directory', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    const first = loadConfig({}, cwd);
    const second = loadConfig({}, cwd);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(readFileSync(path.join(cwd, 'data', 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecret);
  });

  it('reads PostgreSQL from DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/portal', JWT_SECRET: 'y'.repeat(32) }, os.tmpdir());
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://u:p@db:5432/portal' });
  });
});
