import { afterAll, beforeAll, describe } from 'vitest';
import type { Config } from '../../server/config.js';
import { DATABASE_KINDS, startTestServer, type TestServer } from '../fixtures/server.js';

/** Runs the same suite against every configured database, each with its own fresh server. */
export function describeEachDatabase(
  name: string,
  suite: (server: () => TestServer) => void,
  overrides: () => Partial<Config> = () => ({}),
): void {
  for (const kind of DATABASE_KINDS) {
    describe(`${name} [${kind}]`, () => {
      let server: TestServer | undefined;
      beforeAll(async () => {
        server = await startTestServer(kind, overrides());
      });
      afterAll(async () => {
        await server?.close();
      });
      suite(() => {
        if (!server) throw new Error('server not started');
        return server;
      });
    });
  }
}
