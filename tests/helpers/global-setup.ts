import type { TestProject } from 'vitest/node';
import { createLogger } from '../../server/logger.ts';
import { createOrm } from '../../server/database/create-orm.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { adminQuery, uniqueDatabaseName, urlFor } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty database that test files clone with CREATE DATABASE … TEMPLATE. */
    templateDatabase: string;
  }
}

/** Migrates one template database per run; every test file clones it, so files run in parallel, isolated. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = uniqueDatabaseName('tessera_tpl');
  await adminQuery(`create database "${template}"`);
  const orm = await createOrm(urlFor(template), 2, createLogger({ level: 'silent', style: 'raw' }));
  try {
    await migrateLatest(orm);
  } finally {
    await orm.close(true);
  }
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(`drop database if exists "${template}" with (force)`);
  };
}
