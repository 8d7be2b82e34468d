import type { Accountability } from '../auth/accountability.ts';
import type { AppContext } from '../app-context.ts';
import type { WriteTransaction } from '../events/event-names.ts';

export type FlowData = Record<string, unknown>;

/** A tessera_flows row as the engine reads it. */
export interface FlowRow {
  id: string;
  name: string;
  status: string;
  trigger: string | null;
  accountability: string | null;
  options: Record<string, unknown> | null;
  operation: string | null;
}

/** A tessera_operations row as the engine reads it. */
export interface OperationRow {
  id: string;
  key: string;
  type: string;
  options: Record<string, unknown> | null;
  resolve: string | null;
  reject: string | null;
}

/** What an operation is handed besides its rendered options. */
export interface OperationContext {
  app: AppContext;
  data: FlowData;
  accountability: Accountability | null;
  flow: FlowRow;
  /** Set in a filter flow: the write's own transaction, which item operations join. */
  transaction?: WriteTransaction;
  /** Starts another flow (the `trigger` operation). */
  runFlow(id: string, trigger: unknown): Promise<unknown>;
}

/** One operation type: returns its result (resolve) or throws (reject, the error becomes the data). */
export type OperationHandler = (options: Record<string, unknown>, context: OperationContext) => unknown;
