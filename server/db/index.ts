import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = DatabaseConfig['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

const PG_TIMESTAMPTZ = 1184;
const PG_TIMESTAMP = 1114;
const PG_INT8 = 20;

/** PostgreSQL returns timestamps as ISO strings and counts as numbers, so repos see the same values on both dialects. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_TIMESTAMPTZ || oid === PG_TIMESTAMP) {
      return (value: string) => new Date(value).toISOString();
    }
    if (oid === PG_INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function openDatabase(config: DatabaseConfig): Db {
  if (config.dialect === 'sqlite') {
    mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy() };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10, types: pgTypes });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', destroy: () => kysely.destroy() };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(db.dialect) };
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** A real round trip, used by the health check. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
