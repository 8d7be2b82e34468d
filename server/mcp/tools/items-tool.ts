import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import { parseQuery } from '../../query/parse-query.ts';
import type { Query } from '../../query/types.ts';
import { ItemsService, type ItemKey } from '../../services/items/items-service.ts';
import { assertWriteAllowed, itemsContext, maxLimit, runTool, type ToolContext } from '../tool-kit.ts';
import { confirmInput, itemInput, primaryKeyInput, queryInput } from '../tool-inputs.ts';

const itemsInput = {
  action: z.enum(['read', 'create', 'update', 'delete']).describe('The operation to perform.'),
  collection: z.string().describe('The collection (see the schema tool).'),
  query: queryInput.optional(),
  keys: z.array(primaryKeyInput).optional().describe('Primary keys of the items to read, update or delete.'),
  data: z.union([z.array(itemInput), itemInput]).optional().describe('create: one item or a list; update: the changes (with keys or query), or a list of items each with its key.'),
  confirm: confirmInput,
};

type ItemsArgs = z.infer<z.ZodObject<typeof itemsInput>>;

const DESCRIPTION = [
  'Read, create, update and delete items of a user collection, as the signed-in user (their permissions apply).',
  'read: `query` in Tessera\'s query language (fields, filter, sort, limit, offset, page, search, deep, aggregate, groupBy, meta), or `keys`.',
  'create: `data` is one item or a list. update: `data` with `keys` or `query`, or `data` as a list of items with their keys. delete: `keys`.',
  'Writes need `"confirm": true` after the user agreed, and are possible only when the server allows MCP writes. Singleton collections: read, and update with one object.',
].join('\n');

/** Reads written items back with the call's query; keys alone when the caller may write but not read them. */
async function readBack(service: ItemsService, keys: ItemKey[], query: Query, admin: boolean): Promise<unknown> {
  try {
    return await service.readMany(keys, query);
  } catch (error) {
    if (!(error instanceof ForbiddenError) || admin) throw error;
    return keys.map((key) => ({ [service.primaryKeyField]: key }));
  }
}

function asObject(data: ItemsArgs['data'], what: string): Record<string, unknown> {
  if (data === undefined || Array.isArray(data)) throw new InvalidPayloadError(`"data" must be one object ${what}.`, { field: 'data' });
  return data;
}

async function writeSingleton(service: ItemsService, data: Record<string, unknown>, query: Query): Promise<unknown> {
  await service.upsertSingleton(data);
  return service.readSingleton(query);
}

async function runItems(tools: ToolContext, args: ItemsArgs): Promise<unknown> {
  const context = await itemsContext(tools);
  const overview = Object.hasOwn(context.schema.collections, args.collection) ? context.schema.collections[args.collection]! : undefined;
  // As /items: system collections are not items of this tool, and an unknown one is indistinguishable from a forbidden one.
  if (!overview || overview.system || !overview.table) throw new ForbiddenError();
  const service = new ItemsService(args.collection, context);
  const query = parseQuery(args.query ?? {}, { maxLimit: maxLimit(tools) });
  const admin = tools.accountability.admin;
  if (args.action === 'read') {
    if (overview.singleton) return service.readSingleton(query);
    if (args.keys) return service.readMany(args.keys, query);
    const { data, meta } = await service.readByQuery(query);
    return meta ? { data, meta } : data;
  }
  assertWriteAllowed(tools, args.confirm);
  if (args.action === 'create') {
    if (overview.singleton) return writeSingleton(service, asObject(args.data, 'for a singleton'), query);
    if (args.data === undefined) throw new InvalidPayloadError('"data" is required to create.', { field: 'data' });
    const keys = Array.isArray(args.data) ? await service.createMany(args.data) : [await service.createOne(args.data)];
    return readBack(service, keys, query, admin);
  }
  if (args.action === 'update') {
    if (overview.singleton) return writeSingleton(service, asObject(args.data, 'for a singleton'), query);
    let keys: ItemKey[];
    if (Array.isArray(args.data)) keys = await service.updateBatch(args.data);
    else if (args.keys) keys = await service.updateMany(args.keys, asObject(args.data, 'of changes'));
    else if (args.query) keys = await service.updateByQuery(query, asObject(args.data, 'of changes'));
    else throw new InvalidPayloadError('Send "keys" or "query" with "data", or "data" as a list of items with their keys.', { field: 'keys' });
    return readBack(service, keys, query, admin);
  }
  if (!args.keys || args.keys.length === 0) throw new InvalidPayloadError('"keys" must list the items to delete.', { field: 'keys' });
  return service.deleteMany(args.keys);
}

/** The `items` tool (Directus's name and arguments, plus `confirm`). */
export function registerItemsTool(server: McpServer, tools: ToolContext): void {
  server.registerTool(
    'items',
    { title: 'Items', description: DESCRIPTION, inputSchema: itemsInput, annotations: { title: 'Tessera - Items', readOnlyHint: false, destructiveHint: true, openWorldHint: false } },
    (args) => runTool(tools, () => runItems(tools, args)),
  );
}
