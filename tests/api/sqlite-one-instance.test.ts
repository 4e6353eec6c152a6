import { expect, it } from 'vitest';
import { startPortal } from '../../scripts/portal-process.js';

/** Issue 19: SQLite means one instance. A second server on the same file refuses to start, and says why. */
it('a second server on the same SQLite file stops at start with a clear message; the first keeps serving', async () => {
  const first = await startPortal();
  try {
    const second = startPortal({ DATABASE_URL: `sqlite:${first.databaseFile}` });
    await expect(second).rejects.toThrow(/SQLite means one instance; for several, use PostgreSQL/);
    expect((await fetch(`${first.url}/api/health/ready`)).status).toBe(200);
  } finally {
    await first.stop();
  }
}, 90_000);
