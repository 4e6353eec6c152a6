/**
 * The commands of the desktop stand-in (tools/desktop-client.ts, its command line): what the Shapelab
 * desktop application sends to the desktop API, one command per run, with the computer's state kept in a
 * file. The browser tests run the commands in their own process (tests/e2e/desktop.ts): the same code and
 * the same HTTP calls, without a Node start and a TypeScript compile for each (about 1.3 CPU s a run).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isTwoFactorRequired, type TwoFactorRequired } from '../contract/two-factor-values.js';

interface State {
  api: string;
  accessToken?: string;
  deviceToken?: string;
  computerId?: string;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

async function request(state: State, method: 'GET' | 'POST', path: string, token: string | undefined, body?: unknown): Promise<unknown> {
  const response = await fetch(`${state.api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === '') throw new UsageError(`missing ${what}`);
  return value;
}

class UsageError extends Error {}

/** The account signs in in two steps and the command line gave no answer for the second (exit code 1). */
class SecondStepNeeded extends Error {}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      api: { type: 'string' },
      state: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'computer-id': { type: 'string' },
      name: { type: 'string' },
      replace: { type: 'boolean' },
      channel: { type: 'string' },
      played: { type: 'string' },
      launched: { type: 'boolean' },
      version: { type: 'string' },
      length: { type: 'string' },
      suspicious: { type: 'boolean' },
      format: { type: 'string' },
      key: { type: 'string' },
      code: { type: 'string' },
      'recovery-code': { type: 'string' },
    },
  });
  const stateFile = need(values.state, '--state');
  const saved: Partial<State> = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<State>) : {};
  const state: State = { ...saved, api: (values.api ?? saved.api ?? 'http://localhost:3000/api').replace(/\/$/, '') };
  const save = () => writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  const command = positionals[0];

  switch (command) {
    case 'login': {
      const first = (await request(state, 'POST', '/auth/login', undefined, {
        email: need(values.email, '--email'),
        password: need(values.password, '--password'),
        rememberMe: false,
      })) as { access_token: string } | TwoFactorRequired;
      let answer: { access_token: string };
      if (isTwoFactorRequired(first)) {
        // Issue 44: the account has a second factor; the desktop application asks for a code and sends it.
        const proof = values.code ? { code: values.code } : values['recovery-code'] ? { recoveryCode: values['recovery-code'] } : null;
        if (!proof) {
          throw new SecondStepNeeded(
            `this account signs in in two steps (it offers: ${first.methods.join(', ')}): run login again with --code <the 6 digits of the authenticator app> or --recovery-code <a recovery code>`,
          );
        }
        answer = (await request(state, 'POST', '/auth/login/two-factor', undefined, { challenge: first.challenge, ...proof })) as { access_token: string };
      } else {
        answer = first;
      }
      state.accessToken = answer.access_token;
      save();
      return { signedIn: true };
    }
    case 'activate': {
      const computerId = need(values['computer-id'], '--computer-id');
      const answer = (await request(state, 'POST', '/desktop/activate', need(state.accessToken, 'a sign-in (run login first)'), {
        computerId,
        name: values.name ?? computerId,
        ...(values.replace ? { replace: true } : {}),
        ...(values.channel ? { channel: values.channel } : {}),
      })) as { deviceToken: string; seat: unknown; entitlement: unknown };
      state.deviceToken = answer.deviceToken;
      state.computerId = computerId;
      save();
      return { seat: answer.seat, entitlement: answer.entitlement };
    }
    case 'heartbeat':
      return request(state, 'POST', '/desktop/heartbeat', need(state.deviceToken, 'an activation (run activate first)'), {
        // A launch carries an id of its own, so a retried heartbeat is counted once.
        ...(values.launched ? { launched: true, launchId: randomUUID() } : {}),
        ...(values.version ? { version: values.version } : {}),
      });
    case 'session': {
      const length = Number(need(values.length, '--length'));
      if (!Number.isInteger(length) || length < 0) throw new UsageError('--length must be whole seconds');
      const played = values.played === undefined ? undefined : Number(values.played);
      if (played !== undefined && (!Number.isInteger(played) || played < 0)) throw new UsageError('--played must be whole seconds');
      const endedAt = new Date();
      const startedAt = new Date(endedAt.getTime() - length * 1000);
      return request(state, 'POST', '/desktop/sessions', need(state.deviceToken, 'an activation'), {
        id: randomUUID(),
        startedAt: startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        lengthSeconds: length,
        ...(played === undefined ? {} : { playedSeconds: played }),
        suspicious: values.suspicious ?? false,
      });
    }
    case 'export':
      return request(state, 'POST', '/desktop/exports', need(state.deviceToken, 'an activation'), {
        id: randomUUID(),
        format: need(values.format, '--format'),
        exportedAt: new Date().toISOString(),
      });
    case 'claim-lite-key':
      return request(state, 'POST', '/desktop/lite-keys/claim', need(state.deviceToken, 'an activation'), { code: need(values.key, '--key') });
    default:
      throw new UsageError(`unknown command ${command ?? '(none)'}: login, activate, heartbeat, session, export, claim-lite-key`);
  }
}

/**
 * One run of the command line: what it prints on stdout (the API's JSON answer) and stderr, and its exit
 * code: 0, 1 when the API refused (stderr's last line is the error body, { messageKey, message }) or a
 * sign-in needs a second step the command line gave no answer for (stderr names the account's methods),
 * 2 on a usage error.
 */
export async function runDesktopCommand(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const result = await run(argv);
    return { code: 0, stdout: `${JSON.stringify(result)}\n`, stderr: '' };
  } catch (error) {
    if (error instanceof ApiError) return { code: 1, stdout: '', stderr: `${JSON.stringify(error.body)}\n` };
    if (error instanceof SecondStepNeeded) return { code: 1, stdout: '', stderr: `${error.message}\n` };
    return { code: 2, stdout: '', stderr: `${error instanceof Error ? error.message : String(error)}\n` };
  }
}
