import { InvalidQueryError } from '../errors.ts';
import type { CompileContext } from './context.ts';

/** Output fields one read may select once wildcards are expanded, unless QUERY_MAX_FIELDS says otherwise. */
export const QUERY_MAX_FIELDS_DEFAULT = 1000;
/** Related collections (subqueries) one read may select, unless QUERY_MAX_RELATIONS says otherwise. */
export const QUERY_MAX_RELATIONS_DEFAULT = 100;

/** What one statement's selection has used so far, and its limits. */
export interface SelectionBudget {
  fields: number;
  relations: number;
  maxFields: number;
  maxRelations: number;
}

/** A fresh budget; limits default to the constants above. */
export function createBudget(maxFields = QUERY_MAX_FIELDS_DEFAULT, maxRelations = QUERY_MAX_RELATIONS_DEFAULT): SelectionBudget {
  return { fields: 0, relations: 0, maxFields, maxRelations };
}

/**
 * Counts one selected field (and, for a relation, the subquery it adds). Charged while the selection is
 * built, so `*.*.*.*…` stops at the limit instead of expanding (and compiling) the whole tree first.
 */
export function chargeSelection(ctx: CompileContext, path: string, relation: boolean): void {
  const budget = ctx.budget;
  budget.fields += 1;
  if (budget.fields > budget.maxFields) {
    throw new InvalidQueryError(`fields selects more than ${budget.maxFields} fields once wildcards are expanded (at "${path}"); name the fields you need.`, {
      field: 'fields',
    });
  }
  if (!relation) return;
  budget.relations += 1;
  if (budget.relations > budget.maxRelations) {
    throw new InvalidQueryError(`fields reads more than ${budget.maxRelations} related collections once wildcards are expanded (at "${path}"); name the relations you need.`, {
      field: 'fields',
    });
  }
}
