import type { DateTime } from 'luxon';
import type { Query, ReadResult } from '../query/types.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { Variables } from './variables.ts';

/** What every panel's query runs with: the caller's read path, the project's zone and the dashboard's variables. */
export interface PanelContext {
  /**
   * Reads `collection` through ItemsService as the caller (permissions apply), date functions in `timeZone`.
   * `rows`: how many rows the panel itself bounds the read to (buckets × series), read in full even past
   * QUERY_LIMIT_MAX, so a series is never cut short silently.
   */
  read(collection: string, query: Query, rows?: number): Promise<ReadResult>;
  schema: SchemaOverview;
  /** The project's IANA time zone (PROJECT_TIME_ZONE). */
  timeZone: string;
  /** The instant the dashboard is computed for, in `timeZone`. */
  now: DateTime;
  variables: Variables;
  /** A range that replaces the time series' own (`?range=7 days`). */
  range?: string;
}

/** A panel's options once validated (validatePanelOptions). */
export type PanelOptions = Record<string, any>;

/** What one panel answers: docs/insights.md lists the shape per type. */
export type PanelResult = Record<string, unknown>;

/** Computes one panel type's result. */
export type PanelQuery = (options: PanelOptions, context: PanelContext) => Promise<PanelResult>;
