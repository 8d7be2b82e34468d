import { watch, type FSWatcher } from 'node:fs';
import type { Middleware } from 'koa';
import type { AppContext } from '../app-context.ts';
import { systemAccountability } from '../auth/accountability.ts';
import { discoverExtensions, type ExtensionSource, type FoundExtension } from '../extension-packages/discover.ts';
import type { ExpressApp } from './express-bridge.ts';
import { syncExtensionRows, type ExtensionRow } from './extension-rows.ts';
import { hostMismatch } from './host-range.ts';
import type { Registration } from './load-extension.ts';
import { API_TYPES, type ApiExtensionType, type ExtensionManifest, type ExtensionType } from '../extension-packages/manifest.ts';

/** How an extension fared at the last load. */
export type ExtensionStatus = 'loaded' | 'disabled' | 'error' | 'incompatible';

/** One extension (or one entry of a bundle) as GET /extensions lists it. */
export interface ListedExtension {
  id: string;
  bundle: string | null;
  folder: string;
  source: ExtensionSource;
  enabled: boolean;
  status: ExtensionStatus;
  error: string | null;
  type: ExtensionType | null;
  name: string;
  version: string | null;
  host: string | null;
  manifest: ExtensionManifest | null;
  entries: Array<{ type: string; name: string }>;
}

/** Where init events of Directus hooks that are handed an Express app sit in Tessera's middleware chain. */
export const MOUNT_POINTS = {
  /** After the request id, log and error boundary; before CORS and body parsing. */
  early: ['app.before', 'middlewares.before'],
  /** After sign-in (accountability) and the response cache; before Tessera's routes. */
  routes: ['middlewares.after', 'routes.before', 'routes.custom.before'],
  /** After every route, extension endpoints included; before the admin app and the 404. */
  late: ['routes.custom.after', 'routes.after', 'app.after'],
} as const;
export type MountPoint = keyof typeof MOUNT_POINTS;

/** The extensions of one app: loading, reloading, what they registered, and the routes they answer. */
export interface ExtensionManager {
  /**
   * Finds, records and registers every enabled extension; resolves when done (failures are reported, not
   * thrown). `cli`: for a CLI command — no schedules, no Express mounts, no file watching.
   */
  load(options?: { cli?: boolean }): Promise<void>;
  /** Takes every extension away and loads them again (enabled toggles, EXTENSIONS_AUTO_RELOAD). */
  reload(): Promise<void>;
  /** Reloads when the enabled flags in tessera_extensions differ from what is loaded (another instance changed them). */
  resyncEnabled(): Promise<void>;
  list(): ListedExtension[];
  /** Runs the init handlers hooks registered for an event (`cli.before`, `app.before` …). */
  runInit(event: string, meta: Record<string, unknown>): Promise<void>;
  /** Koa middleware answering the routes of endpoint extensions. */
  endpoints(): Middleware;
  /** Koa middleware for the Express apps init hooks added middleware to. */
  mount(point: MountPoint): Middleware;
  /** HTML that hooks embed in the admin's page. */
  embeds(): { head: string; body: string };
  close(): Promise<void>;
}

interface Generation {
  listed: ListedExtension[];
  registrations: Registration[];
  endpointIds: Set<string>;
  endpoints: ExpressApp | null;
  mounts: Partial<Record<MountPoint, ExpressApp>>;
}

function emptyGeneration(): Generation {
  return { listed: [], registrations: [], endpointIds: new Set(), endpoints: null, mounts: {} };
}

/**
 * What running extensions takes (Express, knex, the Directus context), imported only once a project has a
 * server extension to run: a project without any pays nothing for them at start or in memory.
 */
async function loadRuntime(app: AppContext) {
  const [context, bridge, loader] = await Promise.all([import('./directus-context.ts'), import('./express-bridge.ts'), import('./load-extension.ts')]);
  return { ...context, ...bridge, ...loader, parts: context.createContextParts(app) };
}
type Runtime = Awaited<ReturnType<typeof loadRuntime>>;

export function createExtensionManager(app: AppContext): ExtensionManager {
  const { config, logger } = app;
  let runtime: Runtime | null = null;
  let runtimeLoading: Promise<Runtime> | null = null;
  const useRuntime = async () => (runtime ??= await (runtimeLoading ??= loadRuntime(app)));
  let current = emptyGeneration();
  let generation = 0;
  let loading: Promise<void> | null = null;
  let watcher: FSWatcher | null = null;
  let cli = false;
  let resyncing: Promise<void> = Promise.resolve();

  const db = () => app.servicesContext(systemAccountability()).db;

  const decorate = async (request: Record<string, unknown>, ctx: Parameters<Middleware>[0]) => {
    request.accountability = runtime!.toDirectusAccountability(ctx.state.accountability);
    request.schema = await runtime!.parts.schema();
  };

  async function loadAll(): Promise<void> {
    const next = emptyGeneration();
    const found = await discoverExtensions(config.extensions.path, config.extensions.projectDir);
    const rows = await syncExtensionRows(
      db(),
      found.flatMap((extension) => [
        { folder: extension.folder, source: extension.source, bundleFolder: null },
        ...(extension.manifest?.type === 'bundle' ? extension.manifest.entries.map((entry) => ({ folder: entry.name, source: extension.source, bundleFolder: extension.folder })) : []),
      ]),
    );
    for (const extension of found) await loadOne(extension, rows, next);
    current = next;
    const loaded = next.listed.filter((entry) => entry.status === 'loaded').map((entry) => entry.name);
    if (found.length > 0) logger.info({ extensions: loaded }, `loaded ${loaded.length} of ${next.listed.length} extensions`);
  }

  async function loadOne(extension: FoundExtension, rows: ExtensionRow[], next: Generation): Promise<void> {
    const row = rows.find((candidate) => candidate.bundle === null && candidate.folder === extension.folder && candidate.source === extension.source)!;
    const manifest = extension.manifest;
    const listed: ListedExtension = {
      id: row.id,
      bundle: null,
      folder: extension.folder,
      source: extension.source,
      enabled: row.enabled,
      status: 'loaded',
      error: extension.error,
      type: manifest?.type ?? null,
      name: manifest?.name ?? extension.folder,
      version: manifest?.version ?? null,
      host: manifest?.host ?? null,
      manifest,
      entries: manifest?.entries ?? [],
    };
    next.listed.push(listed);
    const entries = (manifest?.entries ?? []).map((entry) => {
      const entryRow = rows.find((candidate) => candidate.bundle === row.id && candidate.folder === entry.name && candidate.source === extension.source);
      const item: ListedExtension = { ...listed, id: entryRow?.id ?? '', bundle: row.id, folder: entry.name, enabled: entryRow?.enabled ?? true, type: entry.type, name: entry.name, manifest: null, entries: [] };
      next.listed.push(item);
      return item;
    });
    const fail = (status: ExtensionStatus, error: string) => {
      for (const item of [listed, ...entries]) Object.assign(item, { status, error });
      logger.error({ extension: listed.name, folder: extension.dir }, `extension "${listed.name}" was not loaded: ${error}`);
    };
    if (!manifest) return fail('error', extension.error ?? 'No manifest.');
    const mismatch = hostMismatch(manifest);
    if (mismatch) return fail('incompatible', mismatch);
    if (!row.enabled) {
      for (const item of [listed, ...entries]) item.status = 'disabled';
      return;
    }
    if (manifest.sandbox?.enabled) return loadSandboxed(extension, manifest, listed, next, fail);
    const serverSide = manifest.type === 'bundle' ? entries.some((entry) => isApiType(entry.type ?? '')) : isApiType(manifest.type);
    if (!serverSide || !manifest.api) return;
    const registered: Registration[] = [];
    try {
      const { importEntry, defaultExport, registerExtension, parts, createExpressApp } = await useRuntime();
      const module = await importEntry(manifest.api, generation);
      const context = parts.forExtension(listed.name);
      next.endpoints ??= createExpressApp();
      if (manifest.type !== 'bundle') {
        registered.push(await registerExtension(app, parts, manifest.type as ApiExtensionType, defaultExport(module), extension.folder, next.endpoints, context, { schedules: !cli }));
      } else {
        for (const entry of entries) {
          if (!entry.type || !isApiType(entry.type)) continue;
          if (!entry.enabled) {
            entry.status = 'disabled';
            continue;
          }
          const exported = ((module[`${entry.type}s`] ?? (defaultExport(module) as Record<string, unknown>)?.[`${entry.type}s`]) ?? []) as Array<{ name: string; config: unknown }>;
          const found = exported.find((candidate) => candidate.name === entry.name);
          if (!found) throw new Error(`The bundle's server entry exports no ${entry.type} named "${entry.name}".`);
          registered.push(await registerExtension(app, parts, entry.type, found.config, entry.name, next.endpoints, parts.forExtension(`${listed.name}/${entry.name}`), { schedules: !cli }));
        }
      }
    } catch (error) {
      for (const registration of registered) registration.dispose();
      return fail('error', (error as Error)?.message ?? String(error));
    }
    for (const registration of registered) {
      next.registrations.push(registration);
      if (registration.endpoint) next.endpointIds.add(registration.endpoint);
    }
  }

  /** A sandboxed extension runs in its own thread; a limit passed later marks it `error` and takes it away. */
  async function loadSandboxed(extension: FoundExtension, manifest: ExtensionManifest, listed: ListedExtension, next: Generation, fail: (status: ExtensionStatus, error: string) => void): Promise<void> {
    try {
      const { registerSandboxed } = await import('./sandbox/register-sandboxed.ts');
      next.endpoints ??= (await useRuntime()).createExpressApp();
      const registration = await registerSandboxed(app, manifest, extension.folder, next.endpoints, logger.child({ extension: listed.name }), (reason) => Object.assign(listed, { status: 'error', error: reason }));
      next.registrations.push(registration);
      if (registration.endpoint) next.endpointIds.add(registration.endpoint);
    } catch (error) {
      fail('error', (error as Error)?.message ?? String(error));
    }
  }

  async function runInit(event: string, meta: Record<string, unknown>): Promise<void> {
    for (const registration of current.registrations) {
      for (const init of registration.hook?.inits ?? []) {
        if (init.event !== event) continue;
        try {
          await init.handler(meta);
        } catch (error) {
          logger.error({ err: error, event }, 'an extension init handler failed');
        }
      }
    }
  }

  async function prepareMounts(): Promise<void> {
    if (cli) return;
    for (const [point, names] of Object.entries(MOUNT_POINTS) as Array<[MountPoint, readonly string[]]>) {
      const wanted = current.registrations.some((registration) => registration.hook?.inits.some((init) => names.includes(init.event)));
      if (!wanted) continue;
      const express = (current.mounts[point] = (await useRuntime()).createExpressApp());
      for (const name of names) await runInit(name, { app: express });
    }
  }

  function dispose(): void {
    for (const registration of current.registrations.splice(0)) registration.dispose();
  }

  function startWatching(): void {
    if (!config.extensions.autoReload || watcher || cli) return;
    let timer: NodeJS.Timeout | null = null;
    try {
      watcher = watch(config.extensions.path, { recursive: true }, () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void manager.reload().catch((error: unknown) => logger.error({ err: error }, 'extensions reload failed')), 200);
      });
    } catch (error) {
      logger.warn({ err: error, path: config.extensions.path }, 'EXTENSIONS_AUTO_RELOAD: the extensions folder cannot be watched');
    }
  }

  const manager: ExtensionManager = {
    async load(options = {}) {
      if (!loading) cli = options.cli === true;
      loading ??= loadAll().then(prepareMounts).finally(() => startWatching());
      await loading;
    },
    async reload() {
      await loading;
      generation += 1;
      dispose();
      loading = loadAll().then(prepareMounts);
      await loading;
    },
    resyncEnabled() {
      // One at a time: a snapshot apply asks twice (its answer waits, the schema announcement does not), and
      // two reloads side by side would each register the extensions.
      const run = resyncing.then(async () => {
        const rows = (await db().selectFrom('tessera_extensions').select(['id', 'enabled']).execute()) as Array<Pick<ExtensionRow, 'id' | 'enabled'>>;
        const changed = current.listed.some((listed) => rows.find((row) => row.id === listed.id)?.enabled !== undefined && rows.find((row) => row.id === listed.id)!.enabled !== listed.enabled);
        if (changed) await manager.reload();
      });
      resyncing = run.catch(() => undefined);
      return run;
    },
    list: () => current.listed,
    runInit,
    // Plain functions, not async ones: with nothing mounted, a request passes on without a promise of their own.
    endpoints() {
      return (ctx, next) => {
        if (current.endpointIds.size === 0 || !current.endpoints || !runtime) return next();
        const segment = ctx.path.split('/')[1] ?? '';
        if (!current.endpointIds.has(segment)) return next();
        return runtime.expressBridge(current.endpoints, decorate)(ctx, next);
      };
    },
    mount(point) {
      return (ctx, next) => {
        const express = current.mounts[point];
        if (!express || !runtime) return next();
        return runtime.expressBridge(express, decorate)(ctx, next);
      };
    },
    embeds() {
      const html = (position: 'head' | 'body') =>
        current.registrations
          .flatMap((registration) => registration.hook?.embeds ?? [])
          .filter((embed) => embed.position === position)
          .map((embed) => (typeof embed.code === 'function' ? embed.code() : embed.code))
          .join('\n');
      return { head: html('head'), body: html('body') };
    },
    async close() {
      watcher?.close();
      await loading?.catch(() => undefined);
      dispose();
      await runtime?.parts.close();
    },
  };
  return manager;
}

function isApiType(type: string): type is ApiExtensionType {
  return (API_TYPES as readonly string[]).includes(type);
}
