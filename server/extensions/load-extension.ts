import { pathToFileURL } from 'node:url';
import type { AppContext } from '../app-context.ts';
import { registerOperation } from '../flows/operations/index.ts';
import type { OperationHandler } from '../flows/flow-types.ts';
import { toDirectusAccountability, type ContextParts, type DirectusContext } from './directus-context.ts';
import type { ExpressApp } from './express-bridge.ts';
import { extensionRouter } from './extension-router.ts';
import type { ApiExtensionType } from '../extension-packages/manifest.ts';
import { registerHook, type HookEffects } from './register-hook.ts';

/** What registering one server extension left: its init handlers and embeds, and how to take it away. */
export interface Registration {
  hook: HookEffects | null;
  /** The path segment an endpoint answers under. */
  endpoint: string | null;
  dispose(): void;
}

/** Imports an extension's server entry; `generation` makes a reload import the changed file afresh. */
export async function importEntry(file: string, generation: number): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href + (generation > 0 ? `?reload=${generation}` : '');
  return (await import(url)) as Record<string, unknown>;
}

/** A module's default export, whether it was written as an ES module or CommonJS. */
export function defaultExport(module: Record<string, unknown>): unknown {
  const value = module.default ?? module;
  // A CommonJS module compiled from ESM (`exports.default = …`) arrives as { default: { default: … } }.
  return value && typeof value === 'object' && (value as { __esModule?: boolean }).__esModule && 'default' in value ? (value as { default: unknown }).default : value;
}

/**
 * Registers one hook, endpoint or operation (`config` is what its module exports) the way Directus does:
 * a hook's register functions, an endpoint's router under `/<id>` (an `{ id, handler }` object, or a bare
 * function under `fallbackId`), an operation's `{ id, handler }` as a flow operation type.
 */
export async function registerExtension(
  app: AppContext,
  parts: ContextParts,
  type: ApiExtensionType,
  config: unknown,
  fallbackId: string,
  endpoints: ExpressApp,
  context: DirectusContext,
  options: { schedules: boolean } = { schedules: true },
): Promise<Registration> {
  switch (type) {
    case 'hook': {
      const hook = await registerHook(app, parts, fallbackId, config, context, options);
      return { hook, endpoint: null, dispose: hook.dispose };
    }
    case 'endpoint': {
      const { id, handler } = typeof config === 'function' ? { id: fallbackId, handler: config } : (config as { id?: unknown; handler?: unknown });
      if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(id)) throw new TypeError('An endpoint needs an id made of letters, digits, ".", "_", "~" and "-".');
      if (typeof handler !== 'function') throw new TypeError('An endpoint must export a function or { id, handler }.');
      const router = extensionRouter();
      await handler(router, context);
      endpoints.use(`/${id}`, router);
      return { hook: null, endpoint: id, dispose: () => undefined };
    }
    case 'operation': {
      const { id, handler } = (config ?? {}) as { id?: unknown; handler?: unknown };
      if (typeof id !== 'string' || id === '') throw new TypeError('An operation must export { id, handler } with a non-empty id.');
      if (typeof handler !== 'function') throw new TypeError(`Operation "${id}" has no handler function.`);
      const run: OperationHandler = (options, operation) =>
        handler(options, {
          get services() {
            return context.services;
          },
          get database() {
            return parts.databaseFor(operation.transaction);
          },
          env: context.env,
          logger: context.logger,
          getSchema: context.getSchema,
          emitter: context.emitter,
          data: operation.data,
          accountability: toDirectusAccountability(operation.accountability),
        });
      return { hook: null, endpoint: null, dispose: registerOperation(id, run) };
    }
  }
}
