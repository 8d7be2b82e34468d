import { inject } from 'vitest';
import { adminQuery, uniqueDatabaseName, urlFor } from './postgres.ts';

/** A database of the test's own on the real PostgreSQL server; drop() removes it. */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function create(statement: (name: string) => string): Promise<TestDatabase> {
  const name = uniqueDatabaseName('tessera_test');
  await adminQuery(statement(name));
  return { name, url: urlFor(name), drop: () => adminQuery(`drop database if exists "${name}" with (force)`).then(() => undefined) };
}

/** A fresh copy of the migrated template (system schema in place, no data). */
export function createMigratedDatabase(): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  return create((name) => `create database "${name}" template "${template}"`);
}

/** A completely empty database (for testing migrations and `init`). */
export function createEmptyDatabase(): Promise<TestDatabase> {
  return create((name) => `create database "${name}"`);
}
