import { expect, it } from 'vitest';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

function get(server: TestServer, url: string, token: string) {
  return server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
}

describeEachDatabase('admin routes', (server) => {
  async function adminToken() {
    const admin = await server().createUser({ roles: ['user', 'admin'] });
    return (await signIn(server(), admin.email, admin.password)).access_token;
  }

  it('a user token on an admin route is a 403 FORBIDDEN', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const response = await get(server(), '/api/users', access_token);
    expect(response.statusCode).toBe(403);
    expect(response.json().messageKey).toBe('FORBIDDEN');
  });

  it('authentication comes before validation: a bad query from a user is still 403', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    expect((await get(server(), '/api/users?sortField=password_hash', access_token)).statusCode).toBe(403);
    expect((await server().app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
  });

  it('an admin lists users as { data, total }', async () => {
    const token = await adminToken();
    const response = await get(server(), '/api/users', token);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { email: string }[]; total: number }>();
    expect(body.total).toBe(body.data.length);
    expect(body.total).toBeGreaterThan(0);
  });

  it('sorts only when both sortField and sortDirection are given, pages only when skip and take both are', async () => {
    const token = await adminToken();
    for (const name of ['zed', 'amy', 'kim']) await server().createUser({ email: `${name}-sort@example.org` });
    const sorted = await get(server(), '/api/users?sortField=email&sortDirection=desc', token);
    const emails = sorted.json<{ data: { email: string }[] }>().data.map((u) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
    const page = await get(server(), '/api/users?sortField=email&sortDirection=asc&skip=1&take=2', token);
    const body = page.json<{ data: { email: string }[]; total: number }>();
    expect(body.data).toHaveLength(2);
    expect(body.data[0]?.email).toBe([...emails].sort()[1]);
    expect(body.total).toBe(emails.length);
    const takeOnly = await get(server(), '/api/users?take=1', token);
    expect(takeOnly.json<{ data: unknown[] }>().data.length).toBe(emails.length);
  });

  it('a sortField outside the allowed columns, a negative skip or a huge take is a 400', async () => {
    const token = await adminToken();
    for (const query of [
      'sortField=password_hash&sortDirection=asc',
      'sortField=email;drop table users&sortDirection=asc',
      'sortField=email&sortDirection=sideways',
      'skip=-1&take=10',
      'skip=0&take=100000',
      'skip=1.5&take=10',
    ]) {
      const response = await get(server(), `/api/users?${query}`, token);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().messageKey).toBe('VALIDATION_FAILED');
    }
  });

  it('a demoted admin loses admin access on the next request', async () => {
    const admin = await server().createUser({ roles: ['user', 'admin'] });
    const { access_token } = await signIn(server(), admin.email, admin.password);
    expect((await get(server(), '/api/users', access_token)).statusCode).toBe(200);
    // Demoted the only way roles change: another admin's PATCH (the instance keeps the signed-in user until then).
    const demoted = await server().app.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      headers: { authorization: `Bearer ${await adminToken()}` },
      payload: { roles: ['user'] },
    });
    expect(demoted.statusCode).toBe(200);
    expect((await get(server(), '/api/users', access_token)).statusCode).toBe(403);
  });
});
