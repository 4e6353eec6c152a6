import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';

const SEARCH_INDEXES = [
  { name: 'users_search_email_idx', key: sql`email`, column: 'email' },
  { name: 'users_search_first_name_idx', key: sql`lower(first_name)`, column: 'first_name' },
  { name: 'users_search_last_name_idx', key: sql`lower(last_name)`, column: 'last_name' },
] as const;

/**
 * The admin list's prefix search answers from its indexes alone: each search index carries the
 * searched column, the id and the creation date, so a search counts its matches and finds its newest
 * page through index-only scans instead of visiting every matching row (8,300 heap blocks for a
 * three-letter prefix at a million users on PostgreSQL). PostgreSQL only needs the column itself in an
 * expression index to consider an index-only scan (its planner does not see that lower(x) suffices).
 * SQLite keeps the indexes of 0009 (its searches already meet the goal).
 */
export function userSearchCovering(dialect: Dialect): Migration {
  const create = async (db: Kysely<unknown>, covering: boolean) => {
    for (const index of SEARCH_INDEXES) {
      await sql`drop index ${sql.raw(index.name)}`.execute(db);
      const include = covering ? sql` include (${sql.ref(index.column)}, id, created_at)` : sql``;
      const ops = dialect === 'postgres' ? sql` text_pattern_ops` : sql``;
      await sql`create index ${sql.raw(index.name)} on users (${index.key}${ops})${include}`.execute(db);
    }
  };
  return {
    async up(db) {
      if (dialect === 'postgres') await create(db, true);
    },
    async down(db) {
      if (dialect === 'postgres') await create(db, false);
    },
  };
}
