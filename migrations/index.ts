import { SystemSchemaMigration } from './20261121000001-system-schema.ts';

/** Every system migration, oldest first; MikroORM runs them in this order. */
export const systemMigrations = [SystemSchemaMigration];
