import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { InvalidPayloadError } from '../errors.ts';
import { NO_STATEMENT_TIMEOUT } from './no-statement-timeout.ts';

/** Names of project migrations in tessera_migrations start with this, so they never meet a system one. */
export const PROJECT_PREFIX = 'project/';

/** What a project migration file exports. */
interface ProjectMigrationModule {
  up(db: Kysely<any>): Promise<void> | void;
  down?(db: Kysely<any>): Promise<void> | void;
}

const MIGRATION_FILE = /^\d{14}-[a-z0-9-]+\.(ts|mts|js|mjs)$/;

/** The migration files of `folder`, in name (= time) order. */
export function projectMigrationFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort();
}

const recordName = (file: string) => `${PROJECT_PREFIX}${file.replace(/\.(ts|mts|js|mjs)$/, '')}`;

async function loadModule(folder: string, file: string): Promise<ProjectMigrationModule> {
  const module = (await import(pathToFileURL(path.join(folder, file)).href)) as Partial<ProjectMigrationModule>;
  if (typeof module.up !== 'function') throw new InvalidPayloadError(`${path.join(folder, file)}: a migration must export an async function up(db).`, { file });
  return module as ProjectMigrationModule;
}

async function executedNames(db: Kysely<any>): Promise<Set<string>> {
  const rows = await db.selectFrom('tessera_migrations').select('name').where('name', 'like', `${PROJECT_PREFIX}%`).execute();
  return new Set(rows.map((row) => String(row.name)));
}

/** Project migrations and whether they ran. */
export async function projectMigrationStatus(db: Kysely<any>, folder: string): Promise<Array<{ name: string; executedAt: Date | null }>> {
  const rows = await db.selectFrom('tessera_migrations').select(['name', 'executed_at']).where('name', 'like', `${PROJECT_PREFIX}%`).execute();
  const executed = new Map(rows.map((row) => [String(row.name), new Date(row.executed_at)]));
  const names = new Set([...executed.keys(), ...projectMigrationFiles(folder).map(recordName)]);
  return [...names].sort().map((name) => ({ name, executedAt: executed.get(name) ?? null }));
}

/**
 * Runs the pending project migrations of `folder` in order, each in its own transaction with its row
 * in tessera_migrations (a failing one leaves no trace and stops the run). Runs after the system
 * migrations; an advisory lock keeps two processes from running the same migration.
 */
export async function migrateProjectLatest(db: Kysely<any>, folder: string, limit = Number.POSITIVE_INFINITY): Promise<string[]> {
  const ran: string[] = [];
  for (const file of projectMigrationFiles(folder)) {
    if (ran.length >= limit) break;
    const name = recordName(file);
    const done = await db.transaction().execute(async (trx) => {
      await sql.raw(NO_STATEMENT_TIMEOUT).execute(trx);
      await sql`select pg_advisory_xact_lock(hashtext('tessera:migrate'))`.execute(trx);
      if ((await executedNames(trx)).has(name)) return false;
      const module = await loadModule(folder, file);
      try {
        await module.up(trx);
      } catch (error) {
        if (error instanceof Error) error.message = `Migration ${file} failed (rolled back): ${error.message}`;
        throw error;
      }
      await trx.insertInto('tessera_migrations').values({ name, executed_at: new Date() }).execute();
      return true;
    });
    if (done) ran.push(name);
  }
  return ran;
}

/** Reverts the most recent project migration with its `down`, in one transaction; returns its name, or null when none ran. */
export async function migrateProjectDown(db: Kysely<any>, folder: string): Promise<string | null> {
  const last = await db.selectFrom('tessera_migrations').select(['id', 'name']).where('name', 'like', `${PROJECT_PREFIX}%`).orderBy('id', 'desc').executeTakeFirst();
  if (!last) return null;
  const file = projectMigrationFiles(folder).find((entry) => recordName(entry) === last.name);
  if (!file) throw new InvalidPayloadError(`Migration ${String(last.name)} ran, but its file is not in ${folder}.`, { file: String(last.name) });
  const module = await loadModule(folder, file);
  if (!module.down) throw new InvalidPayloadError(`${file} has no down(db): it can't be reverted.`, { file });
  await db.transaction().execute(async (trx) => {
    await sql.raw(NO_STATEMENT_TIMEOUT).execute(trx);
    await module.down!(trx);
    await trx.deleteFrom('tessera_migrations').where('id', '=', last.id).execute();
  });
  return String(last.name);
}

/** The name of the most recently executed migration (system or project), or null. */
export async function lastExecutedMigration(db: Kysely<any>): Promise<string | null> {
  const row = await db.selectFrom('tessera_migrations').select('name').orderBy('id', 'desc').executeTakeFirst();
  return row ? String(row.name) : null;
}

/** Writes a new, empty migration file `<timestamp>-<name>.ts` into `folder`; returns its path. */
export function createProjectMigration(folder: string, name: string, now = new Date()): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!slug) throw new InvalidPayloadError('The migration needs a name made of letters or digits.', { field: 'name' });
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const file = path.join(folder, `${stamp}-${slug}.ts`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    file,
    `import type { Kysely } from 'kysely';

/**
 * ${name}
 *
 * Runs once, in its own transaction, after the system migrations (\`tessera migrate\`). \`db\` is a Kysely
 * handle on that transaction: use only it. Throwing rolls the migration back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // await db.updateTable('posts').set({ status: 'draft' }).where('status', 'is', null).execute();
}

/** Reverts up() (\`tessera migrate down\`). */
export async function down(db: Kysely<any>): Promise<void> {}
`,
    { flag: 'wx' },
  );
  return file;
}
