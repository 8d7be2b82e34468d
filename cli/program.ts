import { Command } from 'commander';
import { packageVersion } from '../server/version.ts';

const parsePort = (value: string) => Number.parseInt(value, 10);
const parseWorkers = (value: string) => (/^\d+$/.test(value) ? Number(value) : Number.NaN);

/**
 * Declares every command and its flags. Command modules are imported only when their command runs,
 * so `--help` and `--version` answer without loading the database stack.
 */
export function buildProgram(): Command {
  const program = new Command('tessera')
    .description('Tessera: a headless content platform. Schema, roles and permissions as code.')
    .version(packageVersion(), '-v, --version')
    .option('--debug', 'print stack traces for unexpected errors')
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('init')
    .description('create a project: .env with a fresh SECRET, the database and the first administrator')
    .argument('[dir]', 'project folder', '.')
    .option('--name <name>', 'project name (default: the folder name)')
    .option('--db-url <url>', 'PostgreSQL URL (default: the embedded database)')
    .option('--admin-email <email>', 'administrator e-mail (default: admin@example.com)')
    .option('--admin-password <password>', 'administrator password (default: generated and printed once)')
    .option('--port <port>', 'HTTP port (default: 8055)')
    .option('-y, --yes', 'accept defaults, never prompt')
    .option('--force', 'overwrite an existing .env')
    .option('--template <name>', 'start from an example project: blog (posts, authors, categories, translations, an Editor role)')
    .action(async (dir, options) => (await import('./commands/init.ts')).runInit(dir, options));

  program
    .command('start')
    .description('migrate, bootstrap an empty database and serve the API and admin')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)', parsePort)
    .option('--timings', 'print how long each start phase took and the memory in use')
    .option('--workers <n>', 'processes serving the port (default: the number of cores on machines with 4 or more, else 1; more than 1 needs DB_URL and REDIS_URL)', parseWorkers)
    .action(async (options) => (await import('./commands/start.ts')).runStart(options));

  program
    .command('worker')
    .description('work on the job queue (webhook deliveries, action flow runs) without serving HTTP; needs DB_URL (docs/automation.md)')
    .action(async () => (await import('./commands/worker.ts')).runWorker());

  program
    .command('migrate')
    .description('run system migrations, then the project\'s own (MIGRATIONS_PATH): latest (default), up (one), down (revert one), status, or create <name>')
    .argument('[direction]', 'latest | up | down | status | create', 'latest')
    .argument('[name]', 'name of the migration to create')
    .option('--json', 'print the result as JSON')
    .action(async (direction, name, options) => (await import('./commands/migrate.ts')).runMigrate(direction, { ...options, name }));

  program
    .command('snapshot')
    .description('write the schema, roles, permissions and configuration as files (docs/snapshots.md)')
    .option('--out <folder>', 'folder to write', 'snapshots')
    .option('--format <format>', 'yaml | json', 'yaml')
    .option('--json', 'print the whole snapshot as one JSON document instead of writing files')
    .option('--force', "replace a folder holding another project's snapshot")
    .action(async (options) => (await import('./commands/snapshot.ts')).runSnapshot(options));

  program
    .command('diff')
    .description('compare a snapshot with the database; exit 0 in sync, 1 on drift, 2 on error')
    .option('--from <path>', 'snapshot folder or file', 'snapshots')
    .option('--only <sections>', 'comma-separated: schema, access, roles, permissions, presets, flows, dashboards, webhooks, translations, settings, folders, extensions')
    .option('--json', 'print the plan as JSON')
    .action(async (options) => (await import('./commands/diff.ts')).runDiff(options));

  program
    .command('apply')
    .description('apply a snapshot to the database in one transaction')
    .option('--from <path>', 'snapshot folder or file', 'snapshots')
    .option('-y, --yes', 'apply without asking (required without a terminal)')
    .option('--dry-run', 'show the plan and check it, change nothing')
    .option('--allow-data-loss', 'also apply steps that drop collections, fields or roles holding data, or narrow types')
    .option('--only <sections>', 'comma-separated sections, as for diff')
    .option('--json', 'print the result as JSON')
    .option('--migrate', 'run pending migrations first (a new, empty database)')
    .action(async (options) => (await import('./commands/apply.ts')).runApply(options));

  program
    .command('openapi')
    .description("print the OpenAPI 3.1 document of the API: the administrator's view, or a role's (GET /server/specs/oas)")
    .option('--role <role>', 'role name or id whose view to write')
    .option('--public', "write the public role's view")
    .action(async (options) => (await import('./commands/openapi.ts')).runOpenApi(options));

  const users = program.command('users').description('manage users');
  users
    .command('create')
    .description('create a user')
    .option('--email <email>', 'e-mail address (asked when omitted on a terminal)')
    .option('--password <password>', 'password (asked when omitted on a terminal)')
    .option('--role <role>', 'role name or id')
    .option('--admin', 'give the user the Administrator role')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--json', 'print the new user as JSON')
    .action(async (options) => (await import('./commands/users.ts')).runCreateUser(options));
  users
    .command('passwd')
    .description("set a user's password")
    .option('--email <email>', 'e-mail address (asked when omitted on a terminal)')
    .option('--password <password>', 'new password (asked when omitted on a terminal)')
    .action(async (options) => (await import('./commands/users.ts')).runSetPassword(options));
  users
    .command('list')
    .description('list users')
    .option('--json', 'print as JSON')
    .action(async (options) => (await import('./commands/users.ts')).runListUsers(options));

  const extensions = program.command('extensions').description('the project\'s extensions (docs/extensions.md)');
  extensions
    .command('list')
    .description('list the extensions found, their kind, version and whether they loaded')
    .option('--json', 'print as JSON')
    .action(async (options) => (await import('./commands/extensions.ts')).runListExtensions(options));
  extensions
    .command('create')
    .description('write a TypeScript starter (server kinds) or TSX starter (admin kinds) into EXTENSIONS_PATH/<name>, built')
    .argument('<type>', 'hook | endpoint | operation | interface | display | layout | panel | module')
    .argument('<name>', 'folder name (letters, digits and -)')
    .action(async (type, name) => (await import('./commands/extensions.ts')).runCreateExtension(type, name));
  extensions
    .command('build')
    .description("build each extension: server src/*.ts to dist/*.js (Node's type stripping), admin entries bundled into one ES module (Vite)")
    .argument('[name]', 'only this extension folder')
    .action(async (name) => (await import('./commands/extensions.ts')).runBuildExtensions(name));

  applyRecursively(program, (command) => command.exitOverride());
  return program;
}

/** Whether argv runs one of the commands above (or only asks for help or the version). */
export function runsBuiltInCommand(program: Command, argv: string[]): boolean {
  const first = argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (first === undefined) return true;
  return program.commands.some((command) => command.name() === first || command.aliases().includes(first)) || first === 'help';
}

function applyRecursively(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const child of command.commands) applyRecursively(child, apply);
}
