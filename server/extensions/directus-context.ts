import type { Knex } from 'knex';
import type { AppContext } from '../app-context.ts';
import type { WriteTransaction } from '../events/event-names.ts';
import type { Logger } from '../logger.ts';
export { toDirectusAccountability } from './context/accountability.ts';
import { extensionDatabase, type OpenWriteTransaction } from './context/database.ts';
import { getSchema } from './context/schema-overview.ts';
import { createExtensionServices, type ExtensionServices } from './context/services.ts';

/** Directus's emitter, over Tessera's event spine: extensions may emit and hear their own events too. */
export interface DirectusEmitter {
  emitFilter(event: string, payload: unknown, meta?: Record<string, unknown>, context?: unknown): Promise<unknown>;
  emitAction(event: string, meta?: Record<string, unknown>, context?: unknown): void;
  onFilter(event: string, handler: (payload: unknown, meta: Record<string, unknown>) => unknown): void;
  onAction(event: string, handler: (meta: Record<string, unknown>) => unknown): void;
  offFilter(event: string, handler: (payload: unknown, meta: Record<string, unknown>) => unknown): void;
  offAction(event: string, handler: (meta: Record<string, unknown>) => unknown): void;
}

/** What every API extension is handed (Directus's API extension context). */
export interface DirectusContext {
  services: ExtensionServices;
  readonly database: Knex;
  env: Record<string, string | undefined>;
  logger: Logger;
  getSchema(options?: { database?: unknown }): Promise<Record<string, unknown>>;
  emitter: DirectusEmitter;
}

/** The parts of the context every extension of one app shares; `forExtension` adds the extension's logger. */
export interface ContextParts {
  forExtension(name: string): DirectusContext;
  /** The knex handle a filter's context carries: the write's transaction when there is one. */
  databaseFor(transaction: WriteTransaction | OpenWriteTransaction | undefined): Knex;
  schema(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

type AnyFilter = (payload: unknown, meta: Record<string, unknown>) => unknown;
type AnyAction = (meta: Record<string, unknown>) => unknown;

export function createContextParts(app: AppContext): ContextParts {
  const database = extensionDatabase(app);
  let services: ExtensionServices | null = null;
  const offs = new Map<AnyFilter | AnyAction, () => void>();
  const { events } = app;
  const emitter: DirectusEmitter = {
    emitFilter: (event, payload, meta = {}) => events.filter([event as never], payload as Record<string, unknown>, meta as never),
    emitAction: (event, meta = {}) => events.emit(event as never, meta as never),
    onFilter: (event, handler) => void offs.set(handler, events.onFilter(event as never, handler as never)),
    onAction: (event, handler) => void offs.set(handler, events.onAction(event as never, handler as never)),
    offFilter: (_event, handler) => offs.get(handler)?.(),
    offAction: (_event, handler) => offs.get(handler)?.(),
  };
  const env = Object.freeze({ ...process.env });
  return {
    forExtension(name) {
      return {
        get services() {
          return (services ??= createExtensionServices(app));
        },
        get database() {
          return database.knex();
        },
        env,
        logger: app.logger.child({ extension: name }),
        getSchema: (options) => getSchema(app, options),
        emitter,
      };
    },
    databaseFor: (transaction) => (transaction ? database.transactionHandle(transaction) : database.knex()),
    schema: () => getSchema(app),
    async close() {
      for (const off of offs.values()) off();
      await database.close();
    },
  };
}
