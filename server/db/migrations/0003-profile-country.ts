import type { Kysely, Migration } from 'kysely';

/** The profile's country or region (ISO 3166-1 alpha-2), which billing later offers as the default. */
export function profileCountry(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('country', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('country').execute();
    },
  };
}
