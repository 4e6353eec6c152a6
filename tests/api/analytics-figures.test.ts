import { expect, it } from 'vitest';
import { PERIOD_FIGURES } from '../../server/modules/analytics/figures.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * The analytics code writes and sums one column per figure (server/modules/analytics/figures.ts); the
 * migrations create them. A figure added to the code without its migration (or the other way round) fails
 * here, on every database, instead of at the first desktop report.
 */
describeEachDatabase('analytics figures', (server) => {
  it('every figure the code knows is a column of the user-period and rollup tables, and no figure column is unknown', async () => {
    const tables = await server().db.kysely.introspection.getTables();
    const fixed = {
      analytics_user_periods: ['user_id', 'grain', 'period', 'channel'],
      analytics_rollups: ['grain', 'channel', 'period', 'suspicious', 'played_minutes', 'user_periods', 'active_users'],
    };
    for (const [name, keys] of Object.entries(fixed)) {
      const table = tables.find((candidate) => candidate.name === name);
      expect(table, name).toBeDefined();
      const figureColumns = (table?.columns ?? []).map((column) => column.name).filter((column) => !keys.includes(column));
      expect(new Set(figureColumns), name).toEqual(new Set(PERIOD_FIGURES));
    }
  });
});
