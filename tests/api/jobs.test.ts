import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { enqueue, retryDelayMs } from '../../server/modules/jobs/queue.js';
import { call } from '../fixtures/paddle.js';
import { signIn, someClientAddress } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 19: after-the-answer work is a durable job. It survives the process that queued it, is retried
 * with backoff, is kept as failed after its last try for an admin to see and try again, and runs once.
 */
describeEachDatabase('durable jobs', (server) => {
  async function adminToken() {
    const admin = await server().createUser({ roles: ['user', 'admin'] });
    return (await signIn(server(), admin.email, admin.password)).access_token;
  }

  it('every kind of job the server runs has a human name in en and de for the jobs page (issue 48 item 11)', () => {
    const kinds = server().app.jobs.kinds();
    expect(kinds).toContain('analytics-sales');
    for (const language of ['en', 'de']) {
      const names = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${language}/admin.json`), 'utf8')) as { pages: { jobs: { kinds: Record<string, string> } } }).pages.jobs.kinds;
      const unnamed = kinds.filter((kind) => !names[kind] || names[kind] === kind);
      expect(unnamed, `${language}: jobs without a name`).toEqual([]);
    }
  });

  it('a job whose instance died while running it (its lease ran out) is taken over and its mail sent once', async () => {
    const user = await server().createUser();
    const now = server().clock.now();
    const id = randomUUID();
    // What a kill -9 leaves behind: the job claimed by an instance that is gone, and maybe its mail written already.
    await server()
      .db.kysely.insertInto('jobs')
      .values({
        id,
        kind: 'mail',
        payload: JSON.stringify({ to: user.email, mail: { subject: 'Your code', text: 'code 123456', html: '<p>code 123456</p>' } }),
        key: null,
        status: 'running',
        attempts: 1,
        max_attempts: 8,
        run_at: now.toISOString(),
        locked_until: new Date(now.getTime() + 60_000).toISOString(),
        locked_by: 'an-instance-killed-with-sigkill',
        last_error: null,
        created_at: now.toISOString(),
        finished_at: null,
      })
      .execute();
    await server().db.kysely.insertInto('outbox').values({ to_address: user.email, subject: 'Your code', text: 'code 123456', html: '', created_at: now.toISOString(), job_id: id }).execute();
    await server().app.jobs.idle();
    // Within its lease nobody else touches it.
    expect((await server().db.kysely.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('running');
    server().clock.advance(5 * 60);
    await server().app.jobs.idle();
    const job = await server().db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'done', attempts: 2, locked_by: server().app.jobs.instanceId, payload: '{}' });
    const mails = await server().db.kysely.selectFrom('outbox').select('id').where('to_address', '=', user.email).execute();
    expect(mails).toHaveLength(1);
  });

  it('a failing job is retried with growing delays and kept as failed after its last try; an admin sees why and tries again', async () => {
    let runs = 0;
    let healthy = false;
    const kind = `flaky-${randomUUID()}`;
    server().app.jobs.handle(kind, async () => {
      runs += 1;
      if (!healthy) throw new Error('the mail server is down');
    });
    const id = await server().app.jobs.add({ kind, payload: {}, maxAttempts: 3 });
    expect(id).not.toBeNull();
    await server().app.jobs.idle();
    expect(runs).toBe(1);
    const first = await server().db.kysely.selectFrom('jobs').selectAll().where('id', '=', id as string).executeTakeFirstOrThrow();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_error: 'the mail server is down' });
    const delay = Date.parse(first.run_at) - server().clock.now().getTime();
    expect(delay).toBeGreaterThanOrEqual(2_500);
    expect(delay).toBeLessThanOrEqual(5_000);
    // Not before its time.
    await server().app.jobs.idle();
    expect(runs).toBe(1);
    for (const expected of [2, 3]) {
      server().clock.advance(3600);
      await server().app.jobs.idle();
      expect(runs).toBe(expected);
    }
    server().clock.advance(3600);
    await server().app.jobs.idle();
    expect(runs, 'no fourth try').toBe(3);

    const token = await adminToken();
    const listed = await call(server(), 'GET', '/api/admin/jobs?status=failed', token);
    expect(listed.statusCode).toBe(200);
    const failed = listed.json().data.find((job: { id: string }) => job.id === id);
    expect(failed).toMatchObject({ kind, status: 'failed', attempts: 3, maxAttempts: 3, lastError: 'the mail server is down' });
    expect(failed).not.toHaveProperty('payload');
    expect(listed.json().counts.failed).toBeGreaterThanOrEqual(1);

    healthy = true;
    const retried = await call(server(), 'POST', `/api/admin/jobs/${id}/retry`, token);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 0 });
    await server().app.jobs.idle();
    expect(runs).toBe(4);
    const again = await call(server(), 'POST', `/api/admin/jobs/${id}/retry`, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().messageKey).toBe('JOB_NOT_RETRYABLE');
  });

  it('a job with a key is queued once while it waits', async () => {
    const kind = `keyed-${randomUUID()}`;
    let runs = 0;
    server().app.jobs.handle(kind, async () => {
      runs += 1;
    });
    const now = server().clock.now();
    expect(await enqueue(server().db.kysely, now, { kind, payload: {}, key: kind })).not.toBeNull();
    expect(await enqueue(server().db.kysely, now, { kind, payload: {}, key: kind }), 'the same work decided twice').toBeNull();
    await server().app.jobs.idle();
    expect(runs).toBe(1);
    // Done, the key is free again.
    expect(await server().app.jobs.add({ kind, payload: {}, key: kind })).not.toBeNull();
  });

  it('only admins see the queue', async () => {
    const user = await server().createUser();
    const { access_token: token } = await signIn(server(), user.email, user.password);
    expect((await call(server(), 'GET', '/api/admin/jobs', token)).statusCode).toBe(403);
    expect((await call(server(), 'POST', `/api/admin/jobs/${randomUUID()}/retry`, token)).statusCode).toBe(403);
    expect((await server().app.inject({ method: 'GET', url: '/api/admin/jobs' })).statusCode).toBe(401);
    const admin = await adminToken();
    expect((await call(server(), 'GET', '/api/admin/jobs?take=500', admin)).statusCode).toBe(400);
  });

  it('the answer to a reset request comes before its job runs, and the job leaves no address behind', async () => {
    const user = await server().createUser();
    const answer = await server().app.inject({ method: 'GET', url: `/api/users/forget-password/${encodeURIComponent(user.email)}`, remoteAddress: someClientAddress() });
    expect(answer.statusCode).toBe(200);
    const queued = await server().db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'password-reset').where('payload', 'like', `%${user.email}%`).execute();
    expect(queued).toHaveLength(1);
    await server().app.jobs.idle();
    const done = await server().db.kysely.selectFrom('jobs').selectAll().where('id', '=', queued[0]?.id as string).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'done', payload: '{}' });
  });
});

it('retry delays grow exponentially with jitter, up to an hour', () => {
  expect(retryDelayMs(1, () => 0)).toBe(2_500);
  expect(retryDelayMs(1, () => 1)).toBe(5_000);
  expect(retryDelayMs(4, () => 1)).toBe(40_000);
  expect(retryDelayMs(30, () => 1)).toBe(3_600_000);
});
