import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../server/app-context.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase, type Database } from '../../../server/database/database.ts';
import { createLogger } from '../../../server/logger.ts';
import { bootstrapDatabase } from '../../../server/services/bootstrap.ts';
import type { ServiceContext } from '../../../server/services/service-context.ts';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

async function open(env: Record<string, string>): Promise<{ database: Database; system: ServiceContext; testDatabase: TestDatabase }> {
  const testDatabase = await createMigratedDatabase();
  const config = loadConfig({ DB_URL: testDatabase.url, SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent', ...env });
  const database = await openDatabase(config, createLogger(config.log));
  const system = createAppContext(config as typeof config & { secret: string }, createLogger(config.log), database).servicesContext(systemAccountability());
  return { database, system, testDatabase };
}

describe('bootstrap of an empty database', () => {
  let ctx: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    ctx = await open({ ADMIN_EMAIL: 'Owner@Example.com' });
  });
  afterAll(async () => {
    await ctx.database.close();
    await ctx.testDatabase.drop();
  });

  it('creates the Administrator role and the first admin with a generated argon2id password', async () => {
    const result = await bootstrapDatabase(ctx.system, { projectName: 'Field Notes' });
    expect(result.roleCreated).toBe(true);
    expect(result.admin).toMatchObject({ email: 'owner@example.com', generated: true });
    expect(result.admin!.password).toMatch(/^[\w-]{24}$/);

    const user = await ctx.system.db
      .selectFrom('tessera_users as u')
      .innerJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.email', 'u.password', 'u.status', 'r.name', 'r.admin_access', 'r.app_access'])
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'owner@example.com', status: 'active', name: 'Administrator', admin_access: true, app_access: true });
    expect(user.password).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(user.password, result.admin!.password)).toBe(true);
  });

  it('keeps the SPEC defaults in settings and applies the project name', async () => {
    const settings = await ctx.system.db.selectFrom('tessera_settings').selectAll().executeTakeFirstOrThrow();
    expect(settings).toMatchObject({ project_name: 'Field Notes', default_language: 'en-US', storage_asset_transform: 'all', auth_password_policy: 'none' });
  });

  it('is idempotent: a second run creates nothing', async () => {
    const again = await bootstrapDatabase(ctx.system);
    expect(again).toEqual({ settingsCreated: false, roleCreated: false, admin: null });
    const roles = await ctx.system.db.selectFrom('tessera_roles').select('id').execute();
    expect(roles).toHaveLength(1);
  });
});

describe('bootstrap with ADMIN_PASSWORD', () => {
  it('uses the configured password and seeds exactly one admin when instances race', async () => {
    const ctx = await open({ ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'configured-pass' });
    try {
      const results = await Promise.all([bootstrapDatabase(ctx.system), bootstrapDatabase(ctx.system), bootstrapDatabase(ctx.system)]);
      expect(results.filter((r) => r.admin !== null)).toHaveLength(1);
      expect(results.find((r) => r.admin)!.admin).toEqual({ email: 'admin@example.com', password: 'configured-pass', generated: false });
      const users = await ctx.system.db.selectFrom('tessera_users').select('id').execute();
      expect(users).toHaveLength(1);
    } finally {
      await ctx.database.close();
      await ctx.testDatabase.drop();
    }
  });
});
