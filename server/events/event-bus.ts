import type { ActionEvent, ActionPayload, FilterEvent, FilterMeta } from './event-names.ts';

/** Changes or refuses a payload before it is written; throwing refuses the write with the error's status. */
export type FilterHandler = (payload: Record<string, unknown>, meta: FilterMeta) => Record<string, unknown> | void | Promise<Record<string, unknown> | void>;
/** Reacts to something that happened and committed; its result and errors never reach the caller. */
export type ActionHandler = (meta: ActionPayload) => void | Promise<void>;

interface ErrorLogger {
  error(details: object, message: string): void;
}

/**
 * The event spine (Directus' emitter): filters run in the write's transaction, before it; actions run
 * detached after commit. Handlers register by name and get back how to unregister. The app context owns
 * one (`AppContext.events`); services emit on it through their ServiceContext, and built-in subscribers
 * (server/builtins.ts) and extensions' hooks register on it alike.
 */
export class EventBus {
  readonly #filters = new Map<string, Set<FilterHandler>>();
  /** Filters that reach the write's transaction only through `meta.openTransaction`, never `meta.transaction`. */
  readonly #deferring = new WeakSet<FilterHandler>();
  readonly #actions = new Map<string, Set<ActionHandler>>();
  #logger: ErrorLogger = { error: (details, message) => console.error(message, details) };
  #running = new Set<Promise<void>>();

  /** Where failing action handlers are reported. */
  setLogger(logger: ErrorLogger): void {
    this.#logger = logger;
  }

  /**
   * `deferTransaction`: the filter asks for the write's transaction only when it needs it, through
   * `meta.openTransaction`, so a create whose filters all defer and none asks stays one statement.
   */
  onFilter(event: FilterEvent, handler: FilterHandler, options: { deferTransaction?: boolean } = {}): () => void {
    if (options.deferTransaction) this.#deferring.add(handler);
    return add(this.#filters, event, handler);
  }

  onAction(event: ActionEvent, handler: ActionHandler): () => void {
    return add(this.#actions, event, handler);
  }

  /** Whether any filter listens to one of these events (the flat-create fast path skips filters otherwise). */
  hasFilters(events: readonly string[]): boolean {
    return events.some((event) => (this.#filters.get(event)?.size ?? 0) > 0);
  }

  /** Whether a filter of these events needs the write's transaction begun before it runs (it reads `meta.transaction`). */
  filtersNeedTransaction(events: readonly string[]): boolean {
    return events.some((event) => [...(this.#filters.get(event) ?? [])].some((handler) => !this.#deferring.has(handler)));
  }

  /** Runs the filters of each event in order; each sees the payload the previous one returned. */
  async filter(events: readonly FilterEvent[], payload: Record<string, unknown>, meta: Omit<FilterMeta, 'event'>): Promise<Record<string, unknown>> {
    let current = payload;
    for (const event of events) {
      for (const handler of [...(this.#filters.get(event) ?? [])]) {
        const changed = await handler(current, { ...meta, event });
        if (changed !== undefined) current = changed;
      }
    }
    return current;
  }

  /** Starts every handler of the event without waiting for it; failures are logged, never thrown. */
  emit(event: ActionEvent, meta: Omit<ActionPayload, 'event'>): void {
    const handlers = [...(this.#actions.get(event) ?? [])];
    if (handlers.length === 0) return;
    const payload: ActionPayload = { ...meta, event };
    for (const handler of handlers) {
      const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => handler(payload))
        .catch((error: unknown) => this.#logger.error({ err: error, event }, 'event action failed'))
        .finally(() => this.#running.delete(run));
      this.#running.add(run);
    }
  }

  /** Resolves once the action handlers started so far have finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}

function add<T>(registry: Map<string, Set<T>>, event: string, handler: T): () => void {
  let handlers = registry.get(event);
  if (!handlers) registry.set(event, (handlers = new Set()));
  handlers.add(handler);
  return () => void handlers.delete(handler);
}
