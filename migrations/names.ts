/** MikroORM's own migrations table doubles as the tessera_migrations system collection. */
export const MIGRATIONS_TABLE = 'tessera_migrations';

/**
 * The name each system migration records in tessera_migrations (its file name), oldest first: what
 * `diff` and `snapshot` compare the table with to find pending migrations without loading MikroORM's
 * migrator and every migration module. tests/integration/database/migration-names.test.ts keeps it
 * equal to the files here and to what `migrate` records.
 */
export const systemMigrationNames = [
  '20261121000001-system-schema',
  '20261121000002-auth-verification-tokens',
  '20261121000003-unique-permissions',
  '20261123000001-auth-tfa-used-steps',
  '20261123000002-auth-normalised-emails',
  '20261123000003-webhook-deliveries',
  '20261123000004-flow-ticks',
  '20261123000010-geometry-domains',
  '20261124000001-field-validation',
  '20261124000002-unique-translations',
  '20261124000020-geometry-collection',
  '20261124000030-automation-outbox',
  '20261126000010-extensions',
  '20261126000020-auth-access-stamps',
  '20261126000038-outbox-record-function',
  '20261127000001-auth-saml-used-requests',
  '20261128000001-public-registration',
];
