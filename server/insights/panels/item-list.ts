import { ForbiddenError } from '../../errors.ts';
import { templateFields } from '../display-template.ts';
import { CHOICES_LIMIT, LIST_LIMIT } from '../panel-options.ts';
import type { PanelContext, PanelOptions, PanelQuery } from '../panel-context.ts';
import { applyVariables } from '../variables.ts';

/** The primary key and the fields a display template names, nested for relations (`author.name`). */
function listFields(options: PanelOptions, context: PanelContext): string[] {
  const primary = context.schema.collections[options.collection]?.primary;
  if (!primary) throw new ForbiddenError();
  const named = typeof options.displayTemplate === 'string' ? templateFields(options.displayTemplate) : [];
  return [...new Set([primary, ...named])];
}

/** `list`: `{ items }`, the first `limit` items in `sortField` order. */
export const listPanel: PanelQuery = async (options, context) => {
  const direction = options.sortDirection === 'asc' ? '' : '-';
  const limit: number = options.limit ?? LIST_LIMIT.default;
  const query = { fields: listFields(options, context), filter: applyVariables(options.filter, context.variables), sort: options.sortField ? [`${direction}${options.sortField}`] : undefined, limit };
  const { data } = await context.read(options.collection, query, limit);
  return { items: data };
};

/** `relational-variable`: the items a viewer may pick from, `{ items: [{ id, …template fields }] }`. */
export const relationalVariablePanel: PanelQuery = async (options, context) => {
  const limit: number = options.limit ?? CHOICES_LIMIT.default;
  const { data } = await context.read(options.collection, { fields: listFields(options, context), filter: applyVariables(options.filter, context.variables), limit }, limit);
  return { items: data };
};
