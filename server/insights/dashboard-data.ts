import { DateTime } from 'luxon';
import pLimit from 'p-limit';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidQueryError } from '../errors.ts';
import { resolveAccess } from '../permissions/access.ts';
import type { Query } from '../query/types.ts';
import { ItemsService, type ItemsContext } from '../services/items/items-service.ts';
import type { PanelContext, PanelOptions, PanelResult } from './panel-context.ts';
import { panelError } from './panel-error.ts';
import { fitsVariableType, isBuiltInPanelType, validatePanelOptions } from './panel-options.ts';
import { PANEL_QUERIES } from './panel-registry.ts';
import { parseRange } from './time-range.ts';
import type { Variables } from './variables.ts';

/**
 * Panels of one request computed at once: eight (the dashboard) in parallel, while a dashboard of
 * forty cannot hold every pooled connection (DB_POOL_MAX, default 10) and stall other requests.
 */
export const MAX_PARALLEL_PANELS = 8;

/** A panel as the dashboard holds it. */
export interface StoredPanel {
  id: string;
  type: string;
  options: unknown;
}

/** What a dashboard-data or preview request asks for beyond the panels. */
export interface PanelRequest {
  variables: Variables;
  /** Replaces every time series' range, e.g. `7 days`. */
  range?: string;
}

/** Checks the `range` override: `auto` or a duration. */
export function checkRange(range: unknown): string | undefined {
  if (range === undefined || range === null || range === '') return undefined;
  if (typeof range !== 'string' || (range !== 'auto' && !parseRange(range))) {
    throw new InvalidQueryError('"range" must be "auto" or a duration such as "7 days", "3 months" or "1 year".', { field: 'range' });
  }
  return range;
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * Checks `variables`: an object of name → value, each a scalar or a list of scalars (a multiple relational
 * variable). Objects are refused: a value stands in for a filter operand, never for a piece of filter.
 */
export function checkVariables(value: unknown): Variables {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidQueryError('"variables" must be a JSON object of name → value.', { field: 'variables' });
  for (const [name, item] of Object.entries(value)) {
    if (!isScalar(item) && !(Array.isArray(item) && item.every(isScalar))) {
      throw new InvalidQueryError(`"variables.${name}" must be text, a number, true/false, null or a list of those.`, { field: `variables.${name}` });
    }
  }
  return value as Variables;
}

/** The caller's values, falling back to the global variables' defaults; a value of the wrong type is INVALID_QUERY. */
function withDefaults(panels: StoredPanel[], variables: Variables): Variables {
  const merged: Variables = { ...variables };
  for (const panel of panels) {
    if (panel.type !== 'global-variable' || typeof panel.options !== 'object' || panel.options === null) continue;
    const { field, type, defaultValue } = panel.options as PanelOptions;
    if (typeof field !== 'string') continue;
    const given = merged[field];
    if (given === undefined || given === null) merged[field] = defaultValue ?? null;
    else if (!fitsVariableType(type, given)) throw new InvalidQueryError(`"variables.${field}" must be a ${String(type)} value.`, { field: `variables.${field}` });
  }
  return merged;
}

/** Runs panels as one caller: permissions resolved once, every read through ItemsService in the project's zone. */
export class PanelRunner {
  readonly #app: AppContext;
  readonly #accountability: Accountability;
  #context: Promise<ItemsContext> | undefined;

  constructor(app: AppContext, accountability: Accountability) {
    this.#app = app;
    this.#accountability = accountability;
  }

  /** The items context every panel shares, with the caller's access resolved once. */
  context(): Promise<ItemsContext> {
    this.#context ??= (async () => {
      const schema = await this.#app.schema.get();
      const base: ItemsContext = { ...this.#app.servicesContext(this.#accountability), schema };
      return { ...base, access: await resolveAccess(base, schema) };
    })();
    return this.#context;
  }

  async #panelContext(request: PanelRequest, variables: Variables): Promise<PanelContext> {
    const items = await this.context();
    const timeZone = this.#app.config.project.timeZone;
    return {
      read: (collection: string, query: Query, rows?: number) => new ItemsService(collection, items).readByQuery(query, rows === undefined ? { timeZone } : { timeZone, maxLimit: rows }),
      schema: items.schema,
      timeZone,
      now: DateTime.now().setZone(timeZone),
      variables,
      range: request.range,
    };
  }

  /** One panel's result, or its error object: a panel never fails the others. */
  async #run(panel: StoredPanel, context: PanelContext): Promise<PanelResult> {
    try {
      const options = validatePanelOptions(panel.type, panel.options);
      // An extension's panel reads its own data in the admin.
      if (!isBuiltInPanelType(panel.type)) return {};
      return await PANEL_QUERIES[panel.type](options, context);
    } catch (error) {
      return panelError(error, this.#app.logger, panel.id);
    }
  }

  /** Every panel's result keyed by panel id, computed in parallel. */
  async runAll(panels: StoredPanel[], request: PanelRequest): Promise<Record<string, PanelResult>> {
    const context = await this.#panelContext(request, withDefaults(panels, request.variables));
    const limit = pLimit(MAX_PARALLEL_PANELS);
    const results = await Promise.all(panels.map((panel) => limit(() => this.#run(panel, context))));
    return Object.fromEntries(panels.map((panel, index) => [panel.id, results[index]!]));
  }

  /** An unsaved panel (edit-mode preview); its options are validated first (INVALID_PAYLOAD naming `options.<key>`). */
  async preview(type: unknown, options: unknown, request: PanelRequest): Promise<PanelResult> {
    const panel: StoredPanel = { id: 'preview', type: String(type), options: validatePanelOptions(type, options) };
    const context = await this.#panelContext(request, withDefaults([panel], request.variables));
    return this.#run(panel, context);
  }
}

/** The panels of a dashboard the caller may read (FORBIDDEN when the dashboard is not one of them). */
export async function dashboardPanels(runner: PanelRunner, dashboard: string): Promise<StoredPanel[]> {
  const context = await runner.context();
  await new ItemsService('tessera_dashboards', context).readOne(dashboard, { fields: ['id'] });
  const { data } = await new ItemsService('tessera_panels', context).readByQuery({ fields: ['id', 'type', 'options'], filter: { dashboard: { _eq: dashboard } }, sort: ['id'], limit: -1 });
  return data as unknown as StoredPanel[];
}
