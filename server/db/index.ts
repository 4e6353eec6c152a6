import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type CompiledQuery, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = DatabaseConfig['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs a query compiled once with new parameters, for lookups on every request (the signed-in user).
   * On SQLite it reads through a second, read-only connection: it sees only committed data and skips
   * Kysely's per-query work and the writer connection's queue.
   */
  read<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): Promise<R[]>;
  /** The connection pool's figures for the metrics (PostgreSQL); null for SQLite's one connection. */
  pool(): { total: number; idle: number; waiting: number } | null;
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

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing cost more than running it. This keeps
 * prepared statements by SQL text (bounded, oldest evicted first). Kysely runs them synchronously with
 * all()/run(), so one statement object is never used by two queries at once.
 */
function withStatementCache(database: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = database.prepare(source);
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Address space SQLite may map per connection (not memory it allocates). */
const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024;

export function openDatabase(config: DatabaseConfig): Db {
  if (config.dialect === 'sqlite') {
    mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Read pages straight from the OS page cache instead of copying them into SQLite's small cache: a
    // deep page of a million-row list walks tens of megabytes of index (bench/users.ts).
    sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    let reader: SQLite.Database | undefined;
    return {
      kysely,
      dialect: 'sqlite',
      async read<R>(query: CompiledQuery<R>, parameters: readonly unknown[]) {
        if (!reader) {
          reader = withStatementCache(new SQLite(config.file, { readonly: true, fileMustExist: true }));
          reader.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
        }
        return reader.prepare(query.sql).all(...parameters) as R[];
      },
      pool: () => null,
      async destroy() {
        reader?.close();
        await kysely.destroy();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10, types: pgTypes });
  // An idle connection can die (server restart, failover, admin termination). pg-pool drops it and
  // opens a new one on demand; without a listener the 'error' event would crash the process.
  pool.on('error', (error) => {
    process.stderr.write(`PostgreSQL: an idle connection was closed (${error.message}); it will be replaced\n`);
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    async read<R>(query: CompiledQuery<R>, parameters: readonly unknown[]) {
      return (await kysely.executeQuery<R>({ ...query, parameters })).rows;
    },
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    destroy: () => kysely.destroy(),
  };
}

function migratorOf(db: Db): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrations(db.dialect) };
  return new Migrator({ db: db.kysely, provider });
}

/** The names of the migrations this code has and the database has not run (readiness). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await migratorOf(db).getMigrations()).filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = migratorOf(db);
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
