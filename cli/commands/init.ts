import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { bootstrapDatabase } from '../../server/services/bootstrap.ts';
import { loadSnapshotFolder } from '../../server/snapshot/load-snapshot.ts';
import { SnapshotService } from '../../server/snapshot/snapshot-service.ts';
import { openSystemContext } from '../context.ts';
import { writeProjectPackage } from '../project-package.ts';
import { ExitError, UsageError } from '../errors.ts';
import { askPassword, askSelect, askText, canPrompt, say } from '../prompts.ts';

/** Options of `tessera init`; each has a prompt twin on a terminal. */
export interface InitOptions {
  name?: string;
  dbUrl?: string;
  adminEmail?: string;
  adminPassword?: string;
  port?: string;
  yes?: boolean;
  force?: boolean;
  template?: string;
}

/** Example projects `init --template` can start from: snapshot folders shipped with Tessera. */
export const TEMPLATES: Readonly<Record<string, string>> = {
  blog: fileURLToPath(new URL('../../snapshots', import.meta.url)),
};

/** The `.env` a new project gets: a fresh SECRET and the answers given. */
export function renderEnvFile(values: { secret: string; dbUrl: string | null; adminEmail: string; port: string }): string {
  return [
    '# Tessera settings: docs/config.md lists every variable.',
    `PORT=${values.port}`,
    values.dbUrl ? `DB_URL=${values.dbUrl}` : '# DB_URL unset: the embedded database lives in DATA_DIR.',
    'DATA_DIR=./data',
    `SECRET=${values.secret}`,
    `ADMIN_EMAIL=${values.adminEmail}`,
    '',
  ].join('\n');
}

/** `text` as one shell word: plain paths as they are, anything else in single quotes. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Creates a project folder: `.env`, the migrated database and the first administrator. */
export async function runInit(directory: string, options: InitOptions): Promise<void> {
  const target = path.resolve(directory);
  const envFile = path.join(target, '.env');
  if (existsSync(envFile) && !options.force) {
    throw new ExitError(1, `${envFile} exists already: this folder is a Tessera project. Pass --force to overwrite its .env.`);
  }
  const interactive = canPrompt(options.yes);
  if (interactive) say.intro('Create a Tessera project');

  const name = options.name ?? (await askText({ message: 'Project name', flag: '--name', defaultValue: path.basename(target) || 'Tessera', yes: options.yes }));
  let dbUrl = options.dbUrl ?? null;
  if (options.dbUrl === undefined && interactive) {
    const kind = await askSelect({
      message: 'Database',
      flag: '--db-url',
      defaultValue: 'embedded',
      choices: [
        { value: 'embedded', label: 'Embedded', hint: 'PostgreSQL in-process, stored in ./data; nothing to install' },
        { value: 'postgres', label: 'PostgreSQL server', hint: 'postgres://user:password@host:5432/database' },
      ],
    });
    if (kind === 'postgres') dbUrl = await askText({ message: 'PostgreSQL URL', flag: '--db-url', placeholder: 'postgres://postgres@127.0.0.1:5432/tessera', validate: (v) => (/^postgres(ql)?:\/\//.test(v) ? undefined : 'Must start with postgres://') });
  }
  const adminEmail = options.adminEmail ?? (await askText({ message: 'Administrator e-mail', flag: '--admin-email', defaultValue: 'admin@example.com', yes: options.yes }));
  const adminPassword = options.adminPassword ?? (await askPassword({ message: 'Administrator password (empty: generate one)', flag: '--admin-password', allowEmpty: true, yes: options.yes }));
  const port = options.port ?? '8055';
  if (!/^\d+$/.test(port)) throw new UsageError('--port must be a number.');
  if (options.template !== undefined && !Object.hasOwn(TEMPLATES, options.template)) {
    throw new UsageError(`Unknown template "${options.template}"; available: ${Object.keys(TEMPLATES).join(', ')}.`);
  }
  const template = options.template ? loadSnapshotFolder(TEMPLATES[options.template]!) : null;

  const env = { PORT: port, DATA_DIR: './data', SECRET: randomBytes(48).toString('base64url'), ADMIN_EMAIL: adminEmail, ...(dbUrl ? { DB_URL: dbUrl } : {}) };
  // Validate the answers before writing anything: a bad e-mail or URL fails here with one message.
  const config = loadConfig({ ...process.env, ...env, ...(adminPassword ? { ADMIN_PASSWORD: adminPassword } : {}) }, target);

  mkdirSync(target, { recursive: true });
  const context = await openSystemContext(config, { requireSchema: false });
  let admin;
  try {
    await migrateLatest(context.app.database.orm);
    ({ admin } = await bootstrapDatabase(context.system, { projectName: name }));
    if (template) {
      const { app } = context;
      const snapshots = new SnapshotService({ db: app.database.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext }, systemAccountability(), process.env);
      // The template's settings would rename the project: the name given here wins.
      await snapshots.apply({ ...template, settings: { ...template.settings, project_name: name } });
    }
  } finally {
    await context.close();
  }
  writeFileSync(envFile, renderEnvFile({ secret: env.SECRET, dbUrl, adminEmail: config.admin.email, port }), { mode: 0o600 });
  // The project runs this Tessera through its own package.json: `npx tessera` in a folder without it would
  // fetch the unrelated npm package named `tessera`.
  const project = writeProjectPackage(target, name);

  const lines = [`Project "${name}" is ready in ${target}${options.template ? ` (template: ${options.template})` : ''}`, `Database: ${dbUrl ? dbUrl.replace(/\/\/[^@]*@/, '//***@') : 'embedded (./data)'}`];
  if (admin) lines.push(`Administrator: ${admin.email}`, admin.generated ? `Password: ${admin.password}  (shown once: write it down)` : 'Password: the one you entered');
  else lines.push('The database already had users; none was created.');
  if (project.packageJson === 'updated') lines.push('package.json: Tessera added as a dependency, with the scripts it lacked');
  const folder = path.relative(process.cwd(), target);
  lines.push('', `Start it: ${folder ? `cd ${shellQuote(folder)} && ` : ''}${project.startCommand}`);
  lines.push('Then, in that folder: npx tessera <command> (snapshot, apply, users …) runs this Tessera.');
  if (interactive) {
    say.note(lines.join('\n'), 'Done');
    say.outro('Happy building!');
  } else {
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

