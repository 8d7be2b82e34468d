import { z } from 'zod';

/** An item's primary key. */
export const primaryKeyInput = z.union([z.string(), z.number()]);

/** An item payload: field names to values. */
export const itemInput = z.record(z.string(), z.unknown());

/**
 * Tessera's query language as JSON (docs/query.md), the shape Directus's MCP tools take; parseQuery
 * validates it further against nothing but itself, and the read against the schema and permissions.
 */
export const queryInput = z
  .object({
    fields: z.union([z.array(z.string()), z.string()]).describe('Fields to return; dot paths reach related items ("author.name"); default all.'),
    filter: z.record(z.string(), z.unknown()).describe('Filter rules, e.g. { "status": { "_eq": "published" } }.'),
    sort: z.union([z.array(z.string()), z.string()]).describe('Fields to sort by; a leading "-" sorts descending.'),
    limit: z.number().int().describe('Most items to return; -1 for as many as the server allows.'),
    offset: z.number().int(),
    page: z.number().int(),
    search: z.string().describe('Text searched for in every text field.'),
    deep: z.record(z.string(), z.unknown()).describe('Queries for related items, per relational field.'),
    alias: z.record(z.string(), z.string()),
    aggregate: z.record(z.string(), z.union([z.array(z.string()), z.string()])).describe('e.g. { "count": ["*"] } or { "sum": ["price"] }.'),
    groupBy: z.union([z.array(z.string()), z.string()]),
    meta: z.union([z.array(z.string()), z.string()]).describe('"total_count" and/or "filter_count".'),
  })
  .partial()
  .describe('A query in Tessera\'s query language.');

/** The confirmation every write must carry. */
export const confirmInput = z.boolean().optional().describe('Must be true for create, update, delete and other writes, once the user has agreed to the change.');
